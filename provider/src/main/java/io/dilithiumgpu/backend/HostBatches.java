package io.dilithiumgpu.backend;

import io.dilithiumgpu.core.ParameterSet;

import java.util.Arrays;

/**
 * The {@link HostBuffer} forms of a backend's operations for backends that work on heap arrays:
 * the input records are copied into arrays, the array form runs, and the output records are
 * copied back. Copies of secrets (seeds, private keys, rnd) are wiped before returning.
 */
final class HostBatches {
    private HostBatches() {}

    static void keyGen(Backend backend, ParameterSet p, int n, HostBuffer seeds, HostBuffer publicKeys,
                       HostBuffer privateKeys, byte[] status) {
        requireStatus(status, n);
        seeds.requireRecords("seeds", n, ParameterSet.SEED_BYTES);
        publicKeys.requireRecords("publicKeys", n, p.publicKeyBytes());
        privateKeys.requireRecords("privateKeys", n, p.privateKeyBytes());
        byte[] s = read(seeds, n, ParameterSet.SEED_BYTES);
        byte[] pk = new byte[n * p.publicKeyBytes()];
        byte[] sk = new byte[n * p.privateKeyBytes()];
        try {
            backend.keyGen(p, n, s, pk, sk, status);
            write(publicKeys, pk);
            write(privateKeys, sk);
        } finally {
            wipe(s, sk);
        }
    }

    static void sign(Backend backend, ParameterSet p, int n, HostBuffer privateKeys, HostBuffer mus, HostBuffer rnds,
                     HostBuffer signatures, byte[] status) {
        requireStatus(status, n);
        privateKeys.requireRecords("privateKeys", n, p.privateKeyBytes());
        mus.requireRecords("mus", n, ParameterSet.MU_BYTES);
        rnds.requireRecords("rnds", n, p.rndBytes());
        signatures.requireRecords("signatures", n, p.signatureBytes());
        byte[] sk = read(privateKeys, n, p.privateKeyBytes());
        byte[] r = read(rnds, n, p.rndBytes());
        try {
            byte[] sig = new byte[n * p.signatureBytes()];
            backend.sign(p, n, sk, read(mus, n, ParameterSet.MU_BYTES), r, sig, status);
            write(signatures, sig);
        } finally {
            wipe(sk, r);
        }
    }

    static void verify(Backend backend, ParameterSet p, int n, HostBuffer publicKeys, HostBuffer mus,
                       HostBuffer signatures, byte[] status) {
        requireStatus(status, n);
        publicKeys.requireRecords("publicKeys", n, p.publicKeyBytes());
        mus.requireRecords("mus", n, ParameterSet.MU_BYTES);
        signatures.requireRecords("signatures", n, p.signatureBytes());
        backend.verify(p, n, read(publicKeys, n, p.publicKeyBytes()), read(mus, n, ParameterSet.MU_BYTES),
                read(signatures, n, p.signatureBytes()), status);
    }

    /**
     * @throws IllegalArgumentException when {@code status} holds fewer than {@code n} bytes
     */
    static void requireStatus(byte[] status, int n) {
        if (n < 0) {
            throw new IllegalArgumentException("negative task count " + n);
        }
        if (status.length < n) {
            throw new IllegalArgumentException("status holds " + status.length + " bytes; " + n + " tasks need " + n);
        }
    }

    private static byte[] read(HostBuffer from, int n, int recordBytes) {
        byte[] a = new byte[n * recordBytes];
        from.buffer().get(0, a);
        return a;
    }

    private static void write(HostBuffer to, byte[] a) {
        to.buffer().put(0, a);
    }

    private static void wipe(byte[]... arrays) {
        for (byte[] a : arrays) {
            Arrays.fill(a, (byte) 0);
        }
    }
}
