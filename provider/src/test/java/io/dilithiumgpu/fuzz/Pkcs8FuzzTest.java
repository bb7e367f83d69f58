package io.dilithiumgpu.fuzz;

import static io.dilithiumgpu.ProviderTestSupport.PROVIDER;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.dilithiumgpu.DerBuilder;
import io.dilithiumgpu.core.ExpandedKeyCheck;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.key.DilithiumPrivateKey;
import io.dilithiumgpu.key.Oids;
import io.dilithiumgpu.spec.RawPublicKeySpec;

import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Timeout;
import java.util.concurrent.TimeUnit;

/**
 * PKCS#8 decoding, every form of both families, through both KeyFactories: every input is either
 * an {@link InvalidKeySpecException} or a key that works (it signs, and the signature verifies
 * under the public key its expanded key determines) and whose input was one of the DER forms
 * docs/encodings.md accepts for it. Any other exception is a finding.
 */
// Jazzer takes a @Timeout as the limit of a whole fuzzing run (and per input, which the build's
// -timeout replaces): above the longest run of profile fuzz-long.
@Timeout(value = 3, unit = TimeUnit.HOURS)
class Pkcs8FuzzTest {
    @FuzzTest
    void generatePrivate(byte[] encoding) throws Exception {
        for (String family : new String[] {"ML-DSA", "Dilithium"}) {
            PrivateKey key;
            try {
                key = KeyFactory.getInstance(family, PROVIDER).generatePrivate(new PKCS8EncodedKeySpec(encoding));
            } catch (InvalidKeySpecException refused) {
                continue;
            }
            DilithiumPrivateKey ours = (DilithiumPrivateKey) key;
            ParameterSet p = ours.parameterSet();
            byte[] sk = ours.getExpandedKey();
            byte[] pk = ExpandedKeyCheck.publicKeyOf(p, sk, 0);
            assertNotNull(pk, "accepted an inconsistent expanded key");
            assertTrue(acceptedForms(p, ours, pk).stream().anyMatch(form -> Arrays.equals(form, encoding)),
                    "accepted an encoding that is not one of the DER forms of its key");

            Signature signer = Signature.getInstance(p.algorithmName(), PROVIDER);
            signer.initSign(key);
            signer.update(FuzzFixtures.MESSAGE);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(p.algorithmName(), PROVIDER);
            verifier.initVerify(KeyFactory.getInstance(family, PROVIDER)
                    .generatePublic(new RawPublicKeySpec(p.algorithmName(), pk)));
            verifier.update(FuzzFixtures.MESSAGE);
            assertTrue(verifier.verify(signature), "a decoded key signs what its public key does not verify");
        }
    }

    /**
     * The encodings of a key that decoding accepts: its canonical one (version 0, absent
     * parameters, the form it was read in) and the same with version 1 and its public key, a NULL
     * as parameters, or a HashML-DSA OID.
     */
    private static List<byte[]> acceptedForms(ParameterSet p, DilithiumPrivateKey key, byte[] pk) throws Exception {
        byte[] inner = innerOf(key.getEncoded());
        List<String> oids = new ArrayList<>(List.of(Oids.keyOid(p)));
        if (p.isFips204()) {
            oids.add(Oids.hashMlDsaWithSha512Oid(p));
        }
        List<byte[]> forms = new ArrayList<>();
        for (String oid : oids) {
            for (boolean nullParameters : new boolean[] {false, true}) {
                forms.add(DerBuilder.oneAsymmetricKey(0, oid, nullParameters, inner, null));
                forms.add(DerBuilder.oneAsymmetricKey(1, oid, nullParameters, inner, pk));
            }
        }
        return forms;
    }

    /** The privateKey OCTET STRING's contents of our own canonical encoding (version 0, no parameters). */
    private static byte[] innerOf(byte[] canonical) {
        int at = 1;
        at += lengthOctets(canonical, at);           // outer SEQUENCE
        at += 3;                                      // version 0
        at += 1;
        int algorithmLength = canonical[at] & 0xFF;   // AlgorithmIdentifier: short length
        at += 1 + algorithmLength;
        at += 1;                                      // OCTET STRING tag
        int lengthAt = at;
        int length = lengthValue(canonical, lengthAt);
        at += lengthOctets(canonical, lengthAt);
        return Arrays.copyOfRange(canonical, at, at + length);
    }

    private static int lengthOctets(byte[] der, int at) {
        int first = der[at] & 0xFF;
        return first < 0x80 ? 1 : 1 + (first & 0x7F);
    }

    private static int lengthValue(byte[] der, int at) {
        int first = der[at] & 0xFF;
        if (first < 0x80) {
            return first;
        }
        int n = 0;
        for (int i = 1; i <= (first & 0x7F); i++) {
            n = n << 8 | (der[at + i] & 0xFF);
        }
        return n;
    }

}
