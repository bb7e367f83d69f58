package io.dilithiumgpu.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Pins every computed size to the published byte counts (round 3.1 Table 2, FIPS 204 Table 2). */
class ParameterSetTest {

    @ParameterizedTest
    @CsvSource({
        "Dilithium2, 1312, 2528, 2420, 32, 32, 64",
        "Dilithium3, 1952, 4000, 3293, 32, 32, 64",
        "Dilithium5, 2592, 4864, 4595, 32, 32, 64",
        "ML-DSA-44,  1312, 2560, 2420, 64, 32, 32",
        "ML-DSA-65,  1952, 4032, 3309, 64, 48, 32",
        "ML-DSA-87,  2592, 4896, 4627, 64, 64, 32",
    })
    void publishedSizes(String name, int pk, int sk, int sig, int tr, int cTilde, int rnd) {
        ParameterSet p = ParameterSet.forName(name);
        assertEquals(name, p.algorithmName());
        assertEquals(pk, p.publicKeyBytes());
        assertEquals(sk, p.privateKeyBytes());
        assertEquals(sig, p.signatureBytes());
        assertEquals(tr, p.trBytes());
        assertEquals(cTilde, p.cTildeBytes());
        assertEquals(rnd, p.rndBytes());
    }

    @ParameterizedTest
    @CsvSource({
        "ML-DSA-44, 78, 18, 6, 3, 2",
        "ML-DSA-65, 196, 20, 4, 4, 3",
        "ML-DSA-87, 120, 20, 4, 3, 5",
    })
    void derivedValues(String name, int beta, int zBits, int w1Bits, int etaBits, int level) {
        ParameterSet p = ParameterSet.forName(name);
        assertEquals(beta, p.beta());
        assertEquals(zBits, p.zBits());
        assertEquals(w1Bits, p.w1Bits());
        assertEquals(etaBits, p.etaBits());
        assertEquals(level, p.level());
    }

    @Test
    void aliasesAndUnknownNames() {
        assertEquals(ParameterSet.ML_DSA_65, ParameterSet.forName("mldsa65"));
        assertEquals(ParameterSet.ML_DSA_87, ParameterSet.forName("ML_DSA_87"));
        assertEquals(ParameterSet.DILITHIUM2, ParameterSet.forName("dilithium2"));
        assertThrows(IllegalArgumentException.class, () -> ParameterSet.forName("ML-DSA-99"));
    }
}
