package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.BatchRecords;
import io.dilithiumgpu.backend.HostBuffer;
import io.dilithiumgpu.backend.KeyHandle;
import io.dilithiumgpu.core.MuHasher;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PrivateKeyCache;
import io.dilithiumgpu.core.PublicKeyCache;
import io.dilithiumgpu.core.Scheme;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * Host-to-host batches of one parameter set on one backend: {@link Backend} called with whole
 * batches of flat byte arrays, so the timed region holds everything the backend does (for CUDA:
 * pinned staging, transfers both ways, kernels).
 *
 * <p>Where the records live is the {@link Memory}: heap arrays (the {@code byte[]} methods), or
 * host buffers from {@link Backend#allocateHost(long)} (for CUDA: page-locked memory the device
 * copies from and to directly). Either way the inputs are in host memory before the clock starts
 * and the outputs are in host memory when it stops; moving records between the buffers and the
 * arrays the checks read is untimed.
 *
 * <p>The three stages feed each other as in real use: {@link #keyGen()} makes a distinct key pair
 * per task from random seeds; {@link #sign()} signs a random 32-byte message per task with that
 * task's key (μ is computed from the message before timing, since the backend contract starts at
 * μ; rnd is random: hedged FIPS 204 signing, randomized round 3.1 signing, and drawn afresh
 * before every run: the rejection loops' lengths, and with them the batch's slowest tasks, depend
 * on it, so that the runs of a stage time as many different batches, not one batch again and
 * again); {@link #verify()} verifies the last run's signatures, a few of them corrupted. Run the
 * stages in that order.
 *
 * <p>Keys of signing and verification: a distinct key per task (keys 0, as the paper measures), or
 * {@code keys} ≥ 1 keys of the generated ones, task i using key i mod keys, as a server signs with
 * one or a few keys: one key runs as one-key records ({@link KeyHandle}), several as per-task
 * records naming each key's handle cache ({@link BatchRecords#withCaches}), so that a backend with
 * a key cache keeps them. The handles live as long as the bench (from batch to batch) and are
 * destroyed by {@link #close()}.
 *
 * <p>The generated private keys, seeds and rnds are wiped by {@link #close()}, host buffers
 * included.
 */
final class BatchBench implements AutoCloseable {
    static final int MESSAGE_BYTES = 32;

    /** Where a batch's records live while the backend runs it. */
    enum Memory {
        /** Heap {@code byte[]}s: the backend stages them itself. */
        ARRAYS,
        /** The backend's host buffers ({@link Backend#allocateHost(long)}). */
        PINNED;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        @Override
        public String toString() {
            return label();
        }
    }

    private final Backend backend;
    private final ParameterSet p;
    private final int n;
    private final OutputCheck check;
    private final int samples;
    private final SplittableRandom random;
    private final Memory memory;
    /** 0: a distinct key per task; else the keys signing and verification spread over. */
    private final int keys;
    private final List<HostBuffer> buffers = new ArrayList<>();
    private KeyHandle[] signers;
    private KeyHandle[] verifiers;
    /** Per task, the key of task i mod keys (the generated keys themselves when keys is 0). */
    private byte[] taskPrivateKeys;
    private byte[] taskPublicKeys;

    private final byte[] seeds;
    private final byte[] publicKeys;
    private final byte[] privateKeys;
    private final byte[] status;
    private boolean keysChecked;
    private byte[] mus;
    private byte[] rnds;
    private byte[] signatures;
    private boolean signaturesChecked;

    /**
     * @param samples records per run recomputed with the reference (besides all status bytes)
     */
    BatchBench(Backend backend, ParameterSet p, int n, OutputCheck check, int samples, SplittableRandom random) {
        this(backend, p, n, check, samples, random, Memory.ARRAYS);
    }

    BatchBench(Backend backend, ParameterSet p, int n, OutputCheck check, int samples, SplittableRandom random,
               Memory memory) {
        this(backend, p, n, check, samples, random, memory, 0);
    }

    /** @param keys 0 for a distinct key per task, else the number of keys tasks spread over (at most n) */
    BatchBench(Backend backend, ParameterSet p, int n, OutputCheck check, int samples, SplittableRandom random,
               Memory memory, int keys) {
        if (keys < 0 || keys > n) {
            throw new IllegalArgumentException("keys " + keys + " for " + n + " tasks");
        }
        this.keys = keys;
        this.memory = memory;
        this.backend = backend;
        this.p = p;
        this.n = n;
        this.check = check;
        this.samples = samples;
        this.random = random;
        seeds = randomBytes(n * ParameterSet.SEED_BYTES);
        publicKeys = new byte[n * p.publicKeyBytes()];
        privateKeys = new byte[n * p.privateKeyBytes()];
        status = new byte[n];
    }

    int tasks() {
        return n;
    }

    /** Key generation from n random seeds. */
    Runs.TimedBatch keyGen() {
        HostBuffer seedsIn = memory == Memory.PINNED ? hostCopy(seeds) : null;
        HostBuffer pkOut = memory == Memory.PINNED ? host(publicKeys.length) : null;
        HostBuffer skOut = memory == Memory.PINNED ? host(privateKeys.length) : null;
        return new Runs.TimedBatch() {
            private int[] checked;

            @Override
            public void prepare() {
                keysChecked = false;
                checked = OutputCheck.sample(n, samples, random);
                clearRecords(publicKeys, pkOut, p.publicKeyBytes(), checked);
                clearRecords(privateKeys, skOut, p.privateKeyBytes(), checked);
                Arrays.fill(status, (byte) -1);
            }

            @Override
            public void run() {
                if (seedsIn == null) {
                    backend.run(BatchRecords.keyGen(p, n, seeds, publicKeys, privateKeys, status));
                } else {
                    backend.run(BatchRecords.keyGen(p, n, seedsIn, pkOut, skOut, status));
                }
            }

            @Override
            public void check() throws WrongResultException {
                if (pkOut != null) {
                    pkOut.buffer().get(0, publicKeys);
                    skOut.buffer().get(0, privateKeys);
                }
                check.keyGen(p, n, seeds, publicKeys, privateKeys, status, checked);
                keysChecked = true;
            }
        };
    }

    /** Signing with the keys of the last checked {@link #keyGen()} run. */
    Runs.TimedBatch sign() {
        if (!keysChecked) {
            throw new IllegalStateException("sign() needs a checked keyGen() run first");
        }
        if (mus == null) {
            spreadKeys();
            mus = musOfRandomMessages(taskPublicKeys);
            rnds = randomBytes(n * p.rndBytes());
            signatures = new byte[n * p.signatureBytes()];
        }
        byte[] privateKeys = taskPrivateKeys;
        byte[] publicKeys = taskPublicKeys;
        PrivateKeyCache[] caches = keys > 1 ? privateCaches() : null;
        HostBuffer skIn = memory == Memory.PINNED && keys != 1 ? hostCopy(privateKeys) : null;
        HostBuffer musIn = memory == Memory.PINNED ? hostCopy(mus) : null;
        HostBuffer rndsIn = memory == Memory.PINNED ? hostCopy(rnds) : null;
        HostBuffer sigOut = memory == Memory.PINNED ? host(signatures.length) : null;
        return new Runs.TimedBatch() {
            private int[] checked;

            @Override
            public void prepare() {
                signaturesChecked = false;
                random.nextBytes(rnds);
                if (rndsIn != null) {
                    rndsIn.buffer().put(0, rnds);
                }
                checked = OutputCheck.sample(n, samples, random);
                clearRecords(signatures, sigOut, p.signatureBytes(), checked);
                Arrays.fill(status, (byte) -1);
            }

            @Override
            public void run() {
                if (keys == 1) {
                    backend.run(musIn == null ? BatchRecords.sign(signers[0], n, mus, rnds, signatures, status)
                            : BatchRecords.sign(signers[0], n, musIn, rndsIn, sigOut, status));
                } else if (skIn == null) {
                    backend.run(BatchRecords.sign(p, n, privateKeys, mus, rnds, signatures, status).withCaches(caches));
                } else {
                    backend.run(BatchRecords.sign(p, n, skIn, musIn, rndsIn, sigOut, status).withCaches(caches));
                }
            }

            @Override
            public void check() throws WrongResultException {
                if (sigOut != null) {
                    sigOut.buffer().get(0, signatures);
                }
                check.sign(p, n, publicKeys, privateKeys, mus, rnds, signatures, status, checked);
                signaturesChecked = true;
            }
        };
    }

    /**
     * Verification of the signatures of the last checked {@link #sign()} run, {@code samples} of
     * them (at most half the batch, at least one task) corrupted; every status byte must match.
     */
    Runs.TimedBatch verify() {
        if (!signaturesChecked) {
            throw new IllegalStateException("verify() needs a checked sign() run first");
        }
        byte[] pks = taskPublicKeys.clone();
        byte[] ms = mus.clone();
        byte[] sigs = signatures.clone();
        int[] corrupted = OutputCheck.sample(n, Math.min(samples, Math.max(1, n / 2)), random);
        byte[] expected = OutputCheck.corrupt(p, n, pks, ms, sigs, corrupted, random);
        if (keys == 1) {
            moveKeyCorruptionsToSignatures(pks, sigs, random);
        }
        PublicKeyCache[] caches = keys > 1 ? publicCaches() : null;
        HostBuffer pksIn = memory == Memory.PINNED && keys != 1 ? hostCopy(pks) : null;
        HostBuffer musIn = memory == Memory.PINNED ? hostCopy(ms) : null;
        HostBuffer sigsIn = memory == Memory.PINNED ? hostCopy(sigs) : null;
        return new Runs.TimedBatch() {
            @Override
            public void prepare() {
                Arrays.fill(status, (byte) -1);
            }

            @Override
            public void run() {
                if (keys == 1) {
                    backend.run(musIn == null ? BatchRecords.verify(verifiers[0], n, ms, sigs, status)
                            : BatchRecords.verify(verifiers[0], n, musIn, sigsIn, status));
                } else if (pksIn == null) {
                    backend.run(BatchRecords.verify(p, n, pks, ms, sigs, status).withCaches(caches));
                } else {
                    backend.run(BatchRecords.verify(p, n, pksIn, musIn, sigsIn, status).withCaches(caches));
                }
            }

            @Override
            public void check() throws WrongResultException {
                OutputCheck.statuses(p + " verify", status, expected, n);
            }
        };
    }

    /**
     * The per-task keys of signing and verification: the generated keys themselves for a distinct
     * key per task; else task i gets key i mod keys, and each key a handle.
     */
    private void spreadKeys() {
        if (keys == 0) {
            taskPrivateKeys = privateKeys;
            taskPublicKeys = publicKeys;
            return;
        }
        int sk = p.privateKeyBytes();
        int pk = p.publicKeyBytes();
        taskPrivateKeys = new byte[n * sk];
        taskPublicKeys = new byte[n * pk];
        for (int i = 0; i < n; i++) {
            System.arraycopy(privateKeys, (i % keys) * sk, taskPrivateKeys, i * sk, sk);
            System.arraycopy(publicKeys, (i % keys) * pk, taskPublicKeys, i * pk, pk);
        }
        signers = new KeyHandle[keys];
        verifiers = new KeyHandle[keys];
        for (int k = 0; k < keys; k++) {
            signers[k] = KeyHandle.ofPrivateKey(p, Arrays.copyOfRange(privateKeys, k * sk, (k + 1) * sk));
            verifiers[k] = KeyHandle.ofPublicKey(p, Arrays.copyOfRange(publicKeys, k * pk, (k + 1) * pk));
        }
    }

    private PrivateKeyCache[] privateCaches() {
        PrivateKeyCache[] caches = new PrivateKeyCache[n];
        for (int i = 0; i < n; i++) {
            caches[i] = signers[i % keys].privateKeyCache();
        }
        return caches;
    }

    private PublicKeyCache[] publicCaches() {
        PublicKeyCache[] caches = new PublicKeyCache[n];
        for (int i = 0; i < n; i++) {
            caches[i] = verifiers[i % keys].publicKeyCache();
        }
        return caches;
    }

    /**
     * One-key records carry no key per task: a task whose public key {@link OutputCheck#corrupt}
     * changed gets its key back and a corrupted signature instead (still to be rejected).
     */
    private void moveKeyCorruptionsToSignatures(byte[] pks, byte[] sigs, SplittableRandom random) {
        int pk = p.publicKeyBytes();
        int sig = p.signatureBytes();
        for (int i = 0; i < n; i++) {
            if (!Arrays.equals(pks, i * pk, (i + 1) * pk, taskPublicKeys, i * pk, (i + 1) * pk)) {
                System.arraycopy(taskPublicKeys, i * pk, pks, i * pk, pk);
                int bit = random.nextInt(sig * 8);
                sigs[i * sig + bit / 8] ^= (byte) (1 << (bit % 8));
            }
        }
    }

    /** μ = H(tr ‖ M′) of a random 32-byte message per task, tr from the task's public key. */
    private byte[] musOfRandomMessages(byte[] publicKeys) {
        byte[] messages = randomBytes(n * MESSAGE_BYTES);
        byte[] out = new byte[n * ParameterSet.MU_BYTES];
        int pkLen = p.publicKeyBytes();
        byte[] noContext = new byte[0];
        IntStream.range(0, n).parallel().forEach(i -> {
            byte[] tr = Scheme.tr(p, publicKeys, i * pkLen);
            byte[] mu = MuHasher.pure(p, tr, noContext).update(messages, i * MESSAGE_BYTES, MESSAGE_BYTES).finish();
            System.arraycopy(mu, 0, out, i * ParameterSet.MU_BYTES, ParameterSet.MU_BYTES);
        });
        return out;
    }

    /**
     * Zeroes records {@code which} of {@code size} bytes in {@code array} and, when not null, in
     * {@code buffer}: before a run, the records its check will recompute, so that a record the run
     * does not write fails the check. Only those: rewriting whole output buffers before each run
     * slowed the runs themselves, which no real caller's buffers would (likely the GPU's copies
     * landing on lines dirty in the host's caches; docs/performance.md).
     */
    private static void clearRecords(byte[] array, HostBuffer buffer, int size, int[] which) {
        for (int i : which) {
            Arrays.fill(array, i * size, (i + 1) * size, (byte) 0);
            if (buffer != null) {
                buffer.zero((long) i * size, size);
            }
        }
    }

    /** A host buffer of the backend's kind, closed (wiped) with the bench. */
    private HostBuffer host(int bytes) {
        HostBuffer b = backend.allocateHost(bytes);
        buffers.add(b);
        return b;
    }

    private HostBuffer hostCopy(byte[] records) {
        HostBuffer b = host(records.length);
        b.buffer().put(0, records);
        return b;
    }

    private byte[] randomBytes(int length) {
        byte[] b = new byte[length];
        random.nextBytes(b);
        return b;
    }

    @Override
    public void close() {
        Arrays.fill(seeds, (byte) 0);
        Arrays.fill(privateKeys, (byte) 0);
        if (taskPrivateKeys != null) {
            Arrays.fill(taskPrivateKeys, (byte) 0);
        }
        if (signers != null) {
            for (KeyHandle h : signers) {
                h.destroy();
            }
        }
        if (rnds != null) {
            Arrays.fill(rnds, (byte) 0);
        }
        buffers.forEach(HostBuffer::close);
        buffers.clear();
    }
}
