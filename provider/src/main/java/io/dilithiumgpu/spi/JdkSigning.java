package io.dilithiumgpu.spi;

import io.dilithiumgpu.core.Packing;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PreHash;
import io.dilithiumgpu.key.DilithiumPrivateKey;
import io.dilithiumgpu.key.Pkcs8;
import io.dilithiumgpu.key.PrivateKeyForm;
import io.dilithiumgpu.spec.MLDSAParameterSpec;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.SecureRandomSpi;
import java.security.Security;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Arrays;

/**
 * The JDK's own ML-DSA (the SUN provider of Java 24 and later, JEP 497), for the signatures it
 * computes exactly as this provider's core does, so that a caller cannot tell which computed one:
 * pure ML-DSA (not HashML-DSA, not round 3.1) with an empty context, μ from the message (not
 * external μ), and hedged signing (not deterministic). SUN draws rnd as this provider does, in one
 * {@code nextBytes} call of 32 bytes from the {@code SecureRandom} given to {@code initSign}; given
 * none, it gets this provider's default randomness ({@link DefaultRandom}) rather than the JDK's.
 *
 * <p>Keys: SUN on Java 24 and 25 reads only the PKCS#8 expanded form. A key is converted once, on
 * first use, and kept on the key ({@link DilithiumPrivateKey#jdkCopy}), whose {@code destroy()}
 * destroys the copy. A key whose s1 or s2 does not decode is never handed over: the core refuses to
 * sign with it ({@code InvalidKeyException}) and SUN would sign.
 *
 * <p>Verification is not delegated: this provider's verification with the public key's cache
 * measured several times faster than SUN's, which expands Â for every call.
 */
final class JdkSigning {
    private static final Provider SUN = find();
    private static final SecureRandom DEFAULT_RANDOM = new DefaultSecureRandom();

    private JdkSigning() {}

    private static Provider find() {
        Provider sun = Security.getProvider("SUN");
        return sun != null && sun.getService("Signature", "ML-DSA-44") != null ? sun : null;
    }

    /** Whether this JDK has an ML-DSA of its own. */
    static boolean available() {
        return SUN != null;
    }

    /** Whether a signature with these options is one the JDK computes exactly as the core does. */
    static boolean covers(ParameterSet p, PreHash preHash, MLDSAParameterSpec spec) {
        return SUN != null && p.isFips204() && preHash == null && spec.getContextLength() == 0
                && !spec.isExternalMu() && !spec.isDeterministic();
    }

    /**
     * A SUN {@code Signature} for the set, initialized to sign with the key and to draw rnd from
     * {@code random} (this provider's default randomness when null), ready for a new message:
     * {@code reuse} when it is one for the same set, else a new one. {@code null} when the JDK should
     * not or cannot sign with this key.
     */
    static Signature signer(Signature reuse, ParameterSet p, DilithiumPrivateKey key, SecureRandom random) {
        PrivateKey jdkKey = key.jdkCopy(JdkSigning::convert);
        if (jdkKey == null) {
            return null;
        }
        try {
            Signature s = reuse != null && reuse.getAlgorithm().equals(p.algorithmName())
                    ? reuse : Signature.getInstance(p.algorithmName(), SUN);
            s.initSign(jdkKey, random != null ? random : DEFAULT_RANDOM);
            return s;
        } catch (GeneralSecurityException e) {
            return null;
        }
    }

    /** The key as SUN's own, or null for a key that does not decode or that SUN refuses. */
    private static PrivateKey convert(DilithiumPrivateKey key) {
        ParameterSet p = key.parameterSet();
        byte[] expanded = null;
        byte[] encoded = null;
        try {
            expanded = key.getExpandedKey();
            if (!decodes(p, expanded)) {
                return null;
            }
            encoded = Pkcs8.encode(p, PrivateKeyForm.EXPANDED, null, expanded);
            return KeyFactory.getInstance(p.algorithmName(), SUN).generatePrivate(new PKCS8EncodedKeySpec(encoded));
        } catch (GeneralSecurityException | IllegalStateException e) {
            return null;  // refused, or destroyed meanwhile: the core signs (or reports the destroyed key)
        } finally {
            wipe(expanded);
            wipe(encoded);
        }
    }

    /** Whether every coefficient of s1 and s2 lies in [−η, η] (skDecode, FIPS 204 Algorithm 25). */
    private static boolean decodes(ParameterSet p, byte[] sk) {
        int etaBytes = p.polyEtaPackedBytes();
        int offset = 2 * ParameterSet.SEED_BYTES + p.trBytes();
        int[] s = new int[ParameterSet.N];
        boolean ok = true;
        for (int i = 0; i < p.l() + p.k(); i++) {
            ok &= Packing.unpackEta(sk, offset + i * etaBytes, p.eta(), s, 0);
        }
        Arrays.fill(s, 0);
        return ok;
    }

    private static void wipe(byte[] secret) {
        if (secret != null) {
            Arrays.fill(secret, (byte) 0);
        }
    }

    /** This provider's default randomness as a {@code SecureRandom}, for SUN to draw rnd from. */
    private static final class DefaultSecureRandom extends SecureRandom {
        private static final long serialVersionUID = 1L;

        DefaultSecureRandom() {
            super(new Spi(), null);
        }

        @Override
        public void nextBytes(byte[] bytes) {
            DefaultRandom.nextBytes(bytes);
        }

        @Override
        public String getAlgorithm() {
            return "DilithiumGPU default (DRBG)";
        }

        private static final class Spi extends SecureRandomSpi {
            private static final long serialVersionUID = 1L;

            @Override
            protected void engineSetSeed(byte[] seed) {
                // The DRBGs seed themselves from the operating system.
            }

            @Override
            protected void engineNextBytes(byte[] bytes) {
                DefaultRandom.nextBytes(bytes);
            }

            @Override
            protected byte[] engineGenerateSeed(int numBytes) {
                byte[] seed = new byte[numBytes];
                DefaultRandom.nextBytes(seed);
                return seed;
            }
        }
    }
}
