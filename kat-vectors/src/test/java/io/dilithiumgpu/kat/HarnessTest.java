package io.dilithiumgpu.kat;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.cpu.CpuBackend;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The runners must catch a backend's faults: each deliberate fault of {@link FaultyBackend}
 * turns the vectors it touches into failures, with a reason.
 */
class HarnessTest {
    private static List<KatSuite> suites;

    @BeforeAll
    static void readSuites() {
        suites = KatSuites.all(KatFiles.open());
    }

    private static SuiteReport run(String name, FaultyBackend.Fault fault) {
        KatSuite suite = suites.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
        try (Backend backend = new FaultyBackend(new CpuBackend(), fault)) {
            return suite.run(backend);
        }
    }

    private static void assertAllFailWith(SuiteReport r, String reason) {
        assertEquals(r.cases(), r.failed(), r.toString());
        r.failures().forEach(f -> assertTrue(f.reason().contains(reason), f.toString()));
    }

    @Test
    void aVerifierThatAcceptsEverythingFailsEveryBitFlipAndEveryBadSignature() {
        assertAllFailWith(run("dilithium-r31/PQCsignKAT_Dilithium2.rsp", FaultyBackend.Fault.VERIFY_ACCEPTS_ALL),
                "flipped gave OK");

        SuiteReport sigVer = run("acvp/ML-DSA-sigVer-FIPS204", FaultyBackend.Fault.VERIFY_ACCEPTS_ALL);
        assertEquals(144, sigVer.failed(), sigVer.toString());
        assertEquals(36, sigVer.passed(), sigVer.toString());
        sigVer.failures().forEach(f -> assertTrue(f.reason().startsWith("accepted an invalid vector"), f.toString()));

        // Only the 12 malformed vectors the JCA checks refuse (lengths, contexts) still pass.
        SuiteReport wycheproof = run("wycheproof/mldsa_44_verify", FaultyBackend.Fault.VERIFY_ACCEPTS_ALL);
        assertEquals(12, wycheproof.rejections(), wycheproof.toString());
        assertEquals(103 - 12, wycheproof.failed(), wycheproof.toString());
    }

    @Test
    void anAlteredSignatureFailsEverySigningVector() {
        assertAllFailWith(run("acvp/ML-DSA-sigGen-FIPS204", FaultyBackend.Fault.SIGNATURE_ALTERED),
                "signature differs");
        SuiteReport noseed = run("wycheproof/mldsa_44_sign_noseed", FaultyBackend.Fault.SIGNATURE_ALTERED);
        assertEquals(68, noseed.failed(), noseed.toString());
        noseed.failures().forEach(f -> assertTrue(f.reason().contains("signature differs from the vector's")
                && f.reason().contains("does not verify"), f.toString()));
    }

    @Test
    void anAlteredPublicKeyFailsKeyGeneration() {
        assertAllFailWith(run("acvp/ML-DSA-keyGen-FIPS204", FaultyBackend.Fault.PUBLIC_KEY_ALTERED), "pk differs");
        SuiteReport seed = run("wycheproof/mldsa_44_sign_seed", FaultyBackend.Fault.PUBLIC_KEY_ALTERED);
        assertEquals(82, seed.failed(), seed.toString());
        assertEquals(4, seed.rejections(), seed.toString());
    }

    @Test
    void signingAnOutOfRangeKeyIsAFailure() {
        SuiteReport r = run("wycheproof/mldsa_44_sign_noseed", FaultyBackend.Fault.SIGN_IGNORES_INVALID_KEY);
        assertEquals(2, r.failed(), r.toString());
        r.failures().forEach(f -> assertTrue(f.reason().startsWith("accepted an invalid vector")
                && f.caseId().contains("out of range"), f.toString()));
    }

    @Test
    void aBackendThatReportsNothingFailsEverythingItWasGiven() {
        assertAllFailWith(run("acvp/ML-DSA-keyGen-FIPS204", FaultyBackend.Fault.NO_STATUS), "no status written");
        SuiteReport r = run("acvp/ML-DSA-sigVer-FIPS204", FaultyBackend.Fault.NO_STATUS);
        assertEquals(180, r.failed(), r.toString());
    }
}
