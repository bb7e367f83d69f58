package io.dilithiumgpu.kat;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.BatchRecords;
import io.dilithiumgpu.backend.TaskStatus;
import io.dilithiumgpu.core.ParameterSet;

import java.util.Arrays;
import java.util.List;

/**
 * Packs per-vector values into the flat fixed-size records of one {@link Backend} call and
 * unpacks the results. An empty batch is not sent. Status bytes are pre-filled with a value no
 * backend writes, so a task the backend skipped shows up as a failure.
 *
 * <p>All keys here are public test vectors; nothing is secret.
 */
final class Batches {
    /** Status a backend never writes; left in place it marks a task the backend did not report. */
    static final byte UNSET = (byte) 0x7F;

    record KeyGenResult(byte[][] publicKeys, byte[][] privateKeys, byte[] status) {}

    record SignResult(byte[][] signatures, byte[] status) {}

    private Batches() {}

    static KeyGenResult keyGen(Backend backend, ParameterSet p, List<byte[]> seeds) {
        int n = seeds.size();
        byte[] pks = new byte[n * p.publicKeyBytes()];
        byte[] sks = new byte[n * p.privateKeyBytes()];
        byte[] status = unset(n);
        if (n > 0) {
            backend.run(BatchRecords.keyGen(p, n, pack(seeds, ParameterSet.SEED_BYTES), pks, sks, status));
        }
        return new KeyGenResult(unpack(pks, n, p.publicKeyBytes()), unpack(sks, n, p.privateKeyBytes()), status);
    }

    static SignResult sign(Backend backend, ParameterSet p, List<byte[]> privateKeys,
                           List<byte[]> mus, List<byte[]> rnds) {
        int n = privateKeys.size();
        byte[] sigs = new byte[n * p.signatureBytes()];
        byte[] status = unset(n);
        if (n > 0) {
            backend.run(BatchRecords.sign(p, n, pack(privateKeys, p.privateKeyBytes()),
                    pack(mus, ParameterSet.MU_BYTES), pack(rnds, p.rndBytes()), sigs, status));
        }
        return new SignResult(unpack(sigs, n, p.signatureBytes()), status);
    }

    static byte[] verify(Backend backend, ParameterSet p, List<byte[]> publicKeys,
                         List<byte[]> mus, List<byte[]> signatures) {
        int n = publicKeys.size();
        byte[] status = unset(n);
        if (n > 0) {
            backend.run(BatchRecords.verify(p, n, pack(publicKeys, p.publicKeyBytes()),
                    pack(mus, ParameterSet.MU_BYTES), pack(signatures, p.signatureBytes()), status));
        }
        return status;
    }

    /** A status byte for failure messages. */
    static String describe(byte status) {
        switch (status) {
            case TaskStatus.OK: return "OK";
            case TaskStatus.REJECTED: return "REJECTED";
            case TaskStatus.INVALID_KEY: return "INVALID_KEY";
            case UNSET: return "no status written";
            default: return "unknown status " + status;
        }
    }

    private static byte[] unset(int n) {
        byte[] status = new byte[n];
        Arrays.fill(status, UNSET);
        return status;
    }

    private static byte[] pack(List<byte[]> records, int size) {
        byte[] flat = new byte[records.size() * size];
        for (int i = 0; i < records.size(); i++) {
            byte[] r = records.get(i);
            if (r.length != size) {
                throw new IllegalArgumentException("record " + i + " has " + r.length + " bytes, not " + size);
            }
            System.arraycopy(r, 0, flat, i * size, size);
        }
        return flat;
    }

    private static byte[][] unpack(byte[] flat, int n, int size) {
        byte[][] out = new byte[n][];
        for (int i = 0; i < n; i++) {
            out[i] = Arrays.copyOfRange(flat, i * size, (i + 1) * size);
        }
        return out;
    }
}
