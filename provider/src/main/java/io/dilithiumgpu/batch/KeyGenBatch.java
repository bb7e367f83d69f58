package io.dilithiumgpu.batch;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.backend.TaskStatus;
import io.dilithiumgpu.core.ParameterSet;

import java.util.Arrays;

/** Batches of {@link Backend#keyGen}: seeds in, key pairs out. Seeds and private keys are secret. */
final class KeyGenBatch extends Batch {
    private final byte[] seeds;
    private final byte[] publicKeys;
    private final byte[] privateKeys;

    KeyGenBatch(ParameterSet params, int capacity) {
        super(params, capacity);
        this.seeds = new byte[capacity * ParameterSet.SEED_BYTES];
        this.publicKeys = new byte[capacity * params.publicKeyBytes()];
        this.privateKeys = new byte[capacity * params.privateKeyBytes()];
    }

    /** A key generation from a 32-byte seed (ζ or ξ); completes with {@code {pk, sk}}. */
    static final class Request extends Task<byte[][]> {
        private final byte[] seed;

        /** @param seed 32 bytes, copied */
        Request(byte[] seed) {
            this.seed = seed.clone();
        }

        @Override
        void wipe() {
            Arrays.fill(seed, (byte) 0);
        }

        @Override
        void discard(byte[][] keyPair) {
            Arrays.fill(keyPair[1], (byte) 0);
        }
    }

    @Override
    Operation operation() {
        return Operation.KEYGEN;
    }

    @Override
    void load(int slot, Task<?> task) {
        System.arraycopy(((Request) task).seed, 0, seeds, slot * ParameterSet.SEED_BYTES,
                ParameterSet.SEED_BYTES);
    }

    @Override
    void run(Backend backend, int n) {
        backend.keyGen(params, n, seeds, publicKeys, privateKeys, status);
    }

    @Override
    void collect(int slot, Task<?> task) {
        Request r = (Request) task;
        if (status[slot] != TaskStatus.OK) {
            r.fail(unexpectedStatus(slot));
            return;
        }
        int pkBytes = params.publicKeyBytes();
        int skBytes = params.privateKeyBytes();
        byte[] pk = Arrays.copyOfRange(publicKeys, slot * pkBytes, (slot + 1) * pkBytes);
        byte[] sk = Arrays.copyOfRange(privateKeys, slot * skBytes, (slot + 1) * skBytes);
        r.succeed(new byte[][] {pk, sk});
    }

    @Override
    void wipeSecrets(int n) {
        Arrays.fill(seeds, 0, n * ParameterSet.SEED_BYTES, (byte) 0);
        Arrays.fill(privateKeys, 0, n * params.privateKeyBytes(), (byte) 0);
    }
}
