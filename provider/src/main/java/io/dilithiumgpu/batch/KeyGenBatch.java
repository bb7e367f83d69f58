package io.dilithiumgpu.batch;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.BatchRecords;
import io.dilithiumgpu.backend.HostBuffer;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.backend.TaskListener;
import io.dilithiumgpu.backend.TaskStatus;
import io.dilithiumgpu.core.ParameterSet;

import java.util.Arrays;
import java.util.function.LongFunction;

/** Batches of {@link Backend#keyGen}: seeds in, key pairs out. Seeds and private keys are secret. */
final class KeyGenBatch extends Batch {
    private final Records seeds;
    private final Records publicKeys;
    private final Records privateKeys;

    KeyGenBatch(ParameterSet params, int capacity, LongFunction<HostBuffer> allocator) {
        super(params, capacity, allocator);
        this.seeds = records(ParameterSet.SEED_BYTES);
        this.publicKeys = records(params.publicKeyBytes());
        this.privateKeys = records(params.privateKeyBytes());
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
    boolean load(int slot, Task<?> task) {
        seeds.put(slot, ((Request) task).seed);
        return true;
    }

    @Override
    void run(Backend backend, int n, TaskListener early) {
        if (seeds.inHost()) {
            backend.run(BatchRecords.keyGen(params, n, seeds.host(), publicKeys.host(), privateKeys.host(), status));
        } else {
            backend.run(BatchRecords.keyGen(params, n, seeds.array(), publicKeys.array(), privateKeys.array(), status));
        }
    }

    @Override
    void collect(int slot, Task<?> task) {
        Request r = (Request) task;
        if (status[slot] != TaskStatus.OK) {
            r.fail(unexpectedStatus(slot));
            return;
        }
        r.succeed(new byte[][] {publicKeys.copy(slot), privateKeys.copy(slot)});
    }

    @Override
    void wipeSecrets(int n) {
        seeds.zero(n);
        privateKeys.zero(n);
    }
}
