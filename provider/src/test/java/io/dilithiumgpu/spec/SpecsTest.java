package io.dilithiumgpu.spec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SpecsTest {
    @Test
    void parameterSpecDefaults() {
        MLDSAParameterSpec d = MLDSAParameterSpec.DEFAULT;
        assertEquals(0, d.getContext().length);
        assertFalse(d.isDeterministic());
        assertFalse(d.isExternalMu());
        assertNull(d.getPreHash());
        assertEquals(d, MLDSAParameterSpec.builder().build());
        assertEquals(d, MLDSAParameterSpec.builder().context(null).build());
    }

    @Test
    void parameterSpecCopiesItsContext() {
        byte[] ctx = {1, 2, 3};
        MLDSAParameterSpec.Builder b = MLDSAParameterSpec.builder().context(ctx);
        ctx[0] = 9;
        MLDSAParameterSpec spec = b.build();
        assertArrayEquals(new byte[] {1, 2, 3}, spec.getContext());
        spec.getContext()[1] = 9;
        assertArrayEquals(new byte[] {1, 2, 3}, spec.getContext());
        assertEquals(3, spec.getContextLength());
    }

    @Test
    void parameterSpecEqualityAndBuilderRoundTrip() {
        MLDSAParameterSpec a = MLDSAParameterSpec.builder().context(new byte[] {5}).deterministic(true)
                .externalMu(true).preHash("SHA3-256").build();
        assertEquals(a, a.toBuilder().build());
        assertEquals(a.hashCode(), a.toBuilder().build().hashCode());
        assertNotEquals(a, a.toBuilder().deterministic(false).build());
        assertNotEquals(a, a.toBuilder().externalMu(false).build());
        assertNotEquals(a, a.toBuilder().preHash(null).build());
        assertNotEquals(a, a.toBuilder().context(new byte[] {6}).build());
        assertTrue(a.toString().contains("SHA3-256"));
        assertEquals(300, MLDSAParameterSpec.builder().context(new byte[300]).build().getContextLength(),
                "lengths are checked by the Signature, which can throw InvalidAlgorithmParameterException");
    }

    @Test
    void keySpecsCopyAndDestroy() {
        byte[] key = {1, 2, 3, 4};
        RawPublicKeySpec pub = new RawPublicKeySpec("ML-DSA-44", key);
        RawPrivateKeySpec priv = new RawPrivateKeySpec("ML-DSA-44", key);
        SeedPrivateKeySpec seed = new SeedPrivateKeySpec("Dilithium2", key);
        key[0] = 9;
        assertArrayEquals(new byte[] {1, 2, 3, 4}, pub.getKey());
        assertArrayEquals(new byte[] {1, 2, 3, 4}, priv.getKey());
        assertArrayEquals(new byte[] {1, 2, 3, 4}, seed.getSeed());
        priv.getKey()[0] = 9;
        assertArrayEquals(new byte[] {1, 2, 3, 4}, priv.getKey());
        assertEquals("Dilithium2", seed.getParameterSet());

        priv.destroy();
        seed.destroy();
        assertTrue(priv.isDestroyed());
        assertTrue(seed.isDestroyed());
        assertThrows(IllegalStateException.class, priv::getKey);
        assertThrows(IllegalStateException.class, seed::getSeed);
        assertThrows(NullPointerException.class, () -> new RawPublicKeySpec(null, key));
        assertThrows(NullPointerException.class, () -> new SeedPrivateKeySpec("ML-DSA-44", null));
    }
}
