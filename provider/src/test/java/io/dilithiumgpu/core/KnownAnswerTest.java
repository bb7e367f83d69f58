package io.dilithiumgpu.core;

import static io.dilithiumgpu.TestVectors.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;

import io.dilithiumgpu.TestVectors;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Quick known-answer checks of the core against a few records of each vector file: ACVP
 * ML-DSA keyGen, sigGen and sigVer, the round 3.1 reference KATs, and Wycheproof's invalid
 * private keys.
 */
class KnownAnswerTest {
    private static final int RECORDS_PER_GROUP = 2;

    @Test
    void acvpKeyGenFromSeed() {
        JsonNode root = TestVectors.json("acvp/ML-DSA-keyGen-FIPS204/internalProjection.json");
        int checked = 0;
        for (JsonNode group : root.get("testGroups")) {
            ParameterSet p = ParameterSet.forName(group.get("parameterSet").asText());
            for (JsonNode test : limit(group.get("tests"))) {
                byte[] pk = new byte[p.publicKeyBytes()];
                byte[] sk = new byte[p.privateKeyBytes()];
                Scheme.keyGen(p, hex(test, "seed"), 0, pk, 0, sk, 0);
                String id = p + " tcId " + test.get("tcId");
                assertArrayEquals(hex(test, "pk"), pk, id);
                assertArrayEquals(hex(test, "sk"), sk, id);
                checked++;
            }
        }
        assertEquals(3 * RECORDS_PER_GROUP, checked);
    }

    @Test
    void acvpSigGen() {
        JsonNode prompt = TestVectors.json("acvp/ML-DSA-sigGen-FIPS204/prompt.json");
        Map<Integer, byte[]> expected = new HashMap<>();
        for (JsonNode group : TestVectors.json("acvp/ML-DSA-sigGen-FIPS204/expectedResults.json").get("testGroups")) {
            for (JsonNode test : group.get("tests")) {
                expected.put(test.get("tcId").asInt(), hex(test, "signature"));
            }
        }
        int checked = 0;
        for (JsonNode group : prompt.get("testGroups")) {
            ParameterSet p = ParameterSet.forName(group.get("parameterSet").asText());
            boolean deterministic = group.get("deterministic").asBoolean();
            boolean external = group.get("signatureInterface").asText().equals("external");
            boolean preHash = external && group.get("preHash").asText().equals("preHash");
            boolean externalMu = !external && group.get("externalMu").asBoolean();
            for (JsonNode test : limit(group.get("tests"))) {
                byte[] sk = hex(test, "sk");
                byte[] tr = Arrays.copyOfRange(sk, 64, 64 + p.trBytes());
                byte[] mu;
                if (externalMu) {
                    mu = hex(test, "mu");
                } else if (!external) {
                    mu = MuHasher.internal(p, tr).update(hex(test, "message")).finish();
                } else if (preHash) {
                    PreHash ph = PreHash.forAcvpName(test.get("hashAlg").asText());
                    mu = MuHasher.preHashed(p, tr, hex(test, "context"), ph, ph.digest(hex(test, "message")));
                } else {
                    mu = MuHasher.pure(p, tr, hex(test, "context")).update(hex(test, "message")).finish();
                }
                byte[] rnd = deterministic ? Scheme.deterministicRnd(p, sk, 0, mu, 0) : hex(test, "rnd");
                byte[] sig = new byte[p.signatureBytes()];
                assertTrue(Scheme.sign(p, sk, 0, mu, 0, rnd, 0, sig, 0));
                assertArrayEquals(expected.get(test.get("tcId").asInt()), sig, p + " tcId " + test.get("tcId"));
                checked++;
            }
        }
        assertEquals(24 * RECORDS_PER_GROUP, checked);
    }

    @Test
    void acvpSigVer() {
        JsonNode root = TestVectors.json("acvp/ML-DSA-sigVer-FIPS204/internalProjection.json");
        int passed = 0;
        int failed = 0;
        for (JsonNode group : root.get("testGroups")) {
            ParameterSet p = ParameterSet.forName(group.get("parameterSet").asText());
            boolean external = group.get("signatureInterface").asText().equals("external");
            boolean preHash = external && group.get("preHash").asText().equals("preHash");
            boolean externalMu = !external && group.get("externalMu").asBoolean();
            for (JsonNode test : group.get("tests")) {
                byte[] pk = hex(test, "pk");
                byte[] tr = Scheme.tr(p, pk, 0);
                byte[] mu;
                if (externalMu) {
                    mu = hex(test, "mu");
                } else if (!external) {
                    mu = MuHasher.internal(p, tr).update(hex(test, "message")).finish();
                } else if (preHash) {
                    PreHash ph = PreHash.forAcvpName(test.get("hashAlg").asText());
                    mu = MuHasher.preHashed(p, tr, hex(test, "context"), ph, ph.digest(hex(test, "message")));
                } else {
                    mu = MuHasher.pure(p, tr, hex(test, "context")).update(hex(test, "message")).finish();
                }
                boolean expected = test.get("testPassed").asBoolean();
                assertEquals(expected, Scheme.verify(p, pk, 0, mu, 0, hex(test, "signature"), 0),
                        p + " tcId " + test.get("tcId") + " " + test.path("reason").asText());
                if (expected) {
                    passed++;
                } else {
                    failed++;
                }
            }
        }
        assertEquals(36, passed);
        assertEquals(144, failed);
    }

    @ParameterizedTest
    @ValueSource(strings = {"Dilithium2", "Dilithium3", "Dilithium5"})
    void round31DeterministicSignatures(String name) {
        ParameterSet p = ParameterSet.forName(name);
        List<Map<String, String>> records = TestVectors.rsp("dilithium-r31/PQCsignKAT_" + name + ".rsp", 3);
        assertEquals(3, records.size());
        for (Map<String, String> r : records) {
            byte[] pk = hex(r.get("pk"));
            byte[] sk = hex(r.get("sk"));
            byte[] msg = hex(r.get("msg"));
            byte[] expected = Arrays.copyOf(hex(r.get("sm")), p.signatureBytes());
            byte[] tr = Arrays.copyOfRange(sk, 64, 64 + p.trBytes());
            assertArrayEquals(tr, Scheme.tr(p, pk, 0), "tr in sk is H(pk)");

            byte[] mu = MuHasher.internal(p, tr).update(msg).finish();
            byte[] rhoPrime = Scheme.deterministicRnd(p, sk, 0, mu, 0);
            byte[] sig = new byte[p.signatureBytes()];
            assertTrue(Scheme.sign(p, sk, 0, mu, 0, rhoPrime, 0, sig, 0));
            assertArrayEquals(expected, sig, name + " count " + r.get("count"));

            assertTrue(Scheme.verify(p, pk, 0, mu, 0, sig, 0));
            sig[p.signatureBytes() / 2] ^= 0x10;
            assertFalse(Scheme.verify(p, pk, 0, mu, 0, sig, 0));
        }
    }

    @Test
    void wycheproofRejectsPrivateKeysWithOutOfRangeS1OrS2() {
        int rejected = 0;
        for (String set : new String[] {"44", "65", "87"}) {
            ParameterSet p = ParameterSet.forName("ML-DSA-" + set);
            JsonNode root = TestVectors.json("wycheproof/mldsa_" + set + "_sign_noseed_test.json");
            for (JsonNode group : root.get("testGroups")) {
                byte[] sk = hex(group, "privateKey");
                for (JsonNode test : group.get("tests")) {
                    boolean invalidKey = false;
                    for (JsonNode flag : test.get("flags")) {
                        invalidKey |= flag.asText().equals("InvalidPrivateKey");
                    }
                    if (!invalidKey) {
                        continue;
                    }
                    byte[] sig = new byte[p.signatureBytes()];
                    assertFalse(Scheme.sign(p, sk, 0, hex(test, "mu"), 0, new byte[p.rndBytes()], 0, sig, 0),
                            p + " tcId " + test.get("tcId"));
                    assertArrayEquals(new byte[p.signatureBytes()], sig, "nothing written");
                    rejected++;
                }
            }
        }
        assertEquals(6, rejected);
    }

    private static List<JsonNode> limit(JsonNode tests) {
        List<JsonNode> out = new java.util.ArrayList<>();
        for (JsonNode t : tests) {
            if (out.size() == RECORDS_PER_GROUP) {
                break;
            }
            out.add(t);
        }
        return out;
    }
}
