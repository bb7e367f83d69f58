package io.dilithiumgpu.backend;

import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.PrivateKeyCache;
import io.dilithiumgpu.core.PublicKeyCache;

/**
 * A batch engine for one of the six parameter sets: the seam between the batcher and the
 * hardware. The CPU implementation spreads a batch over all cores; the CUDA implementation runs
 * it as kernel launches.
 *
 * <p>Batches are flat arrays of fixed-size records: task {@code i} of a batch of {@code n} tasks
 * occupies bytes {@code [i·size, (i+1)·size)} of each array, where size is the parameter set's
 * byte length of that field ({@link ParameterSet#publicKeyBytes()},
 * {@link ParameterSet#privateKeyBytes()}, {@link ParameterSet#signatureBytes()},
 * {@link ParameterSet#MU_BYTES}, {@link ParameterSet#rndBytes()}, {@link ParameterSet#SEED_BYTES}).
 * Each task reports its own outcome in {@code status[i]} (a {@link TaskStatus} code), so one bad
 * task fails alone and never its batch. Arrays may be longer than {@code n} records (the batcher
 * reuses pooled arrays): a backend reads and writes only the first {@code n} records.
 *
 * <p>Ownership: a backend reads its input arrays and writes its output arrays only for the
 * duration of the call and keeps no reference to any of them. Secret inputs it copies (into
 * pinned or device memory, say) are wiped before the call returns.
 *
 * <p>A method throws {@link BackendException} only when the backend itself failed (a CUDA error,
 * a lost device); the caller then reruns the whole batch elsewhere. Implementations are safe for
 * concurrent use by several threads.
 */
public interface Backend extends AutoCloseable {

    /** Short name shown in JMX and logs: {@code cpu} or {@code cuda}. */
    String name();

    /** The batch size at which this backend reaches most of its throughput for an operation. */
    int preferredBatchSize(ParameterSet params, Operation op);

    /**
     * Batches this backend runs well at once: the batcher's in-flight limit unless one is
     * configured. Each batch in flight has its own batch thread that loads its tasks, runs the
     * backend and completes the callers, so a backend with many independent lanes (the CUDA
     * backend's streams) wants as many batches in flight as it has lanes.
     */
    default int preferredBatchesInFlight() {
        return 4;
    }

    /**
     * Key generation from seeds: ζ (round 3.1) or ξ (FIPS 204 Algorithm 6, ML-DSA.KeyGen_internal).
     *
     * @param seeds       n × 32 bytes
     * @param publicKeys  n × publicKeyBytes, written
     * @param privateKeys n × privateKeyBytes, written
     * @param status      n codes, written: {@link TaskStatus#OK}
     */
    void keyGen(ParameterSet params, int n, byte[] seeds, byte[] publicKeys, byte[] privateKeys,
                byte[] status);

    /**
     * Signing of precomputed μ (FIPS 204 Algorithm 7, ML-DSA.Sign_internal, from step 6 on; round
     * 3.1 {@code crypto_sign_signature} after μ).
     *
     * @param privateKeys n × privateKeyBytes (expanded private keys)
     * @param mus         n × 64 bytes
     * @param rnds        n × rndBytes: FIPS 204 rnd, or round 3.1 ρ′
     * @param signatures  n × signatureBytes, written where the status is OK
     * @param status      n codes, written: {@link TaskStatus#OK} or {@link TaskStatus#INVALID_KEY}
     */
    void sign(ParameterSet params, int n, byte[] privateKeys, byte[] mus, byte[] rnds,
              byte[] signatures, byte[] status);

    /**
     * Verification of precomputed μ (FIPS 204 Algorithm 8, ML-DSA.Verify_internal, from step 7).
     *
     * @param publicKeys n × publicKeyBytes
     * @param mus        n × 64 bytes
     * @param signatures n × signatureBytes
     * @param status     n codes, written: {@link TaskStatus#OK} when the signature is valid,
     *                   {@link TaskStatus#REJECTED} when it is not (including malformed hints)
     */
    void verify(ParameterSet params, int n, byte[] publicKeys, byte[] mus, byte[] signatures,
                byte[] status);

    /**
     * {@link #sign(ParameterSet, int, byte[], byte[], byte[], byte[], byte[])} with each task's
     * private-key cache: {@code caches[i]} belongs to the key of task i, or is {@code null}. A
     * backend that decodes keys itself may use and fill the caches ({@link PrivateKeyCache} says
     * how); results must be the same as without them. By default the caches are ignored, as the
     * CUDA backend does (its kernels decode on the device from the packed keys).
     *
     * @param caches at least n entries, or {@code null} for none; read only during the call
     */
    default void sign(ParameterSet params, int n, byte[] privateKeys, PrivateKeyCache[] caches, byte[] mus,
                      byte[] rnds, byte[] signatures, byte[] status) {
        sign(params, n, privateKeys, mus, rnds, signatures, status);
    }

    /**
     * {@link #verify(ParameterSet, int, byte[], byte[], byte[], byte[])} with each task's
     * public-key cache ({@code caches[i]} or {@code null}), as for {@code sign}. By default the
     * caches are ignored.
     *
     * @param caches at least n entries, or {@code null} for none; read only during the call
     */
    default void verify(ParameterSet params, int n, byte[] publicKeys, PublicKeyCache[] caches, byte[] mus,
                        byte[] signatures, byte[] status) {
        verify(params, n, publicKeys, mus, signatures, status);
    }

    /**
     * Whether batches whose records are in this backend's {@link #allocateHost} buffers run faster
     * than heap arrays: true for the CUDA backend, whose copies then go straight to the device.
     * The batcher then keeps its pooled batches in such buffers.
     */
    default boolean prefersHostBuffers() {
        return false;
    }

    /**
     * Host memory for the {@link HostBuffer} forms of {@code keyGen}, {@code sign} and
     * {@code verify}: page-locked by the CUDA backend, so that its copies go straight between this
     * memory and the device; plain native memory by default.
     *
     * @param bytes 0 to {@link HostBuffer#MAX_BYTES}
     */
    default HostBuffer allocateHost(long bytes) {
        return HostBuffer.allocate(bytes);
    }

    /**
     * {@link #keyGen(ParameterSet, int, byte[], byte[], byte[], byte[])} with the records in host
     * buffers. By default the records are copied through heap arrays; a backend that transfers to
     * a device overrides this to copy straight between its own {@link #allocateHost} buffers and
     * the device. The results are the same.
     *
     * @throws IllegalArgumentException when a buffer holds fewer than {@code n} records
     * @throws IllegalStateException    when a buffer is closed
     */
    default void keyGen(ParameterSet params, int n, HostBuffer seeds, HostBuffer publicKeys, HostBuffer privateKeys,
                        byte[] status) {
        HostBatches.keyGen(this, params, n, seeds, publicKeys, privateKeys, status);
    }

    /**
     * {@link #sign(ParameterSet, int, byte[], byte[], byte[], byte[], byte[])} with the records in
     * host buffers, as for {@code keyGen}.
     */
    default void sign(ParameterSet params, int n, HostBuffer privateKeys, HostBuffer mus, HostBuffer rnds,
                      HostBuffer signatures, byte[] status) {
        HostBatches.sign(this, params, n, privateKeys, mus, rnds, signatures, status);
    }

    /**
     * {@link #sign(ParameterSet, int, HostBuffer, HostBuffer, HostBuffer, HostBuffer, byte[])} that
     * may tell {@code early} of tasks as they end, before the call returns ({@link TaskListener}
     * says when). By default nobody is told early: every outcome is in {@code status} on return.
     */
    default void sign(ParameterSet params, int n, HostBuffer privateKeys, HostBuffer mus, HostBuffer rnds,
                      HostBuffer signatures, byte[] status, TaskListener early) {
        sign(params, n, privateKeys, mus, rnds, signatures, status);
    }

    /**
     * {@link #verify(ParameterSet, int, byte[], byte[], byte[], byte[])} with the records in host
     * buffers, as for {@code keyGen}.
     */
    default void verify(ParameterSet params, int n, HostBuffer publicKeys, HostBuffer mus, HostBuffer signatures,
                        byte[] status) {
        HostBatches.verify(this, params, n, publicKeys, mus, signatures, status);
    }

    /** Releases threads, pools and device memory. Idempotent. */
    @Override
    void close();
}
