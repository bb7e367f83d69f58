package io.dilithiumgpu.bench;

import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.Scheme;

/**
 * The answers a backend's outputs are checked against, one task at a time. {@link #core()} is the
 * pure-Java core ({@link Scheme}), the project's reference for every backend.
 */
interface Reference {

    /** Key generation from a 32-byte seed: {@code {pk, sk}}. */
    byte[][] keyGen(ParameterSet p, byte[] seed);

    /** The signature of μ with {@code rnd}, or null when the key does not decode. */
    byte[] sign(ParameterSet p, byte[] sk, byte[] mu, byte[] rnd);

    boolean verify(ParameterSet p, byte[] pk, byte[] mu, byte[] sig);

    /** The CPU core. */
    static Reference core() {
        return new Reference() {
            @Override
            public byte[][] keyGen(ParameterSet p, byte[] seed) {
                byte[] pk = new byte[p.publicKeyBytes()];
                byte[] sk = new byte[p.privateKeyBytes()];
                Scheme.keyGen(p, seed, 0, pk, 0, sk, 0);
                return new byte[][] {pk, sk};
            }

            @Override
            public byte[] sign(ParameterSet p, byte[] sk, byte[] mu, byte[] rnd) {
                byte[] sig = new byte[p.signatureBytes()];
                return Scheme.sign(p, sk, 0, mu, 0, rnd, 0, sig, 0) ? sig : null;
            }

            @Override
            public boolean verify(ParameterSet p, byte[] pk, byte[] mu, byte[] sig) {
                return Scheme.verify(p, pk, 0, mu, 0, sig, 0);
            }
        };
    }
}
