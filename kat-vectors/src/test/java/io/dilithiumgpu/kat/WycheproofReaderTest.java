package io.dilithiumgpu.kat;

import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WycheproofReaderTest {
    private static final int[] LEVELS = {44, 65, 87};
    private static final ParameterSet[] SETS = {ParameterSet.ML_DSA_44, ParameterSet.ML_DSA_65, ParameterSet.ML_DSA_87};

    @Test
    void readsEveryFile() {
        KatFiles files = KatFiles.open();
        int[] verify = {180, 210, 241};
        int[] seed = {86, 105, 96};
        int[] noseed = {73, 78, 69};
        for (int i = 0; i < LEVELS.length; i++) {
            String stem = "wycheproof/mldsa_" + LEVELS[i];
            WycheproofReader.VerifyFile v = WycheproofReader.verify(files.read(stem + "_verify_test.json"), stem);
            assertEquals(SETS[i], v.params());
            assertEquals(verify[i], v.groups().stream().mapToInt(g -> g.cases().size()).sum());

            WycheproofReader.SignFile s = WycheproofReader.sign(files.read(stem + "_sign_seed_test.json"), stem);
            assertTrue(s.seeded());
            assertEquals(seed[i], s.groups().stream().mapToInt(g -> g.cases().size()).sum());

            WycheproofReader.SignFile n = WycheproofReader.sign(files.read(stem + "_sign_noseed_test.json"), stem);
            assertFalse(n.seeded());
            assertEquals(noseed[i], n.groups().stream().mapToInt(g -> g.cases().size()).sum());
        }
    }

    @Test
    void theDeclaredTestCountMustMatch() {
        byte[] content = KatFiles.open().read("wycheproof/mldsa_44_verify_test.json");
        String altered = new String(content, StandardCharsets.UTF_8)
                .replaceFirst("\"numberOfTests\"\\s*:\\s*180", "\"numberOfTests\" : 181");
        assertThrows(KatDataException.class,
                () -> WycheproofReader.verify(altered.getBytes(StandardCharsets.UTF_8), "altered"));
    }

    @Test
    void aSignFileIsNotAVerifyFile() {
        byte[] content = KatFiles.open().read("wycheproof/mldsa_44_sign_seed_test.json");
        assertThrows(KatDataException.class, () -> WycheproofReader.verify(content, "sign as verify"));
    }

    @Test
    void resultsMapToExpectations() {
        assertEquals(Expected.VALID, Expected.ofWycheproof("valid"));
        assertEquals(Expected.INVALID, Expected.ofWycheproof("invalid"));
        assertEquals(Expected.ACCEPTABLE, Expected.ofWycheproof("acceptable"));
        assertThrows(KatDataException.class, () -> Expected.ofWycheproof("maybe"));
    }
}
