package io.dilithiumgpu.batch;

import java.nio.ByteBuffer;

/**
 * The private key of a signature request, read where it lives: the batch that runs the request
 * copies it straight into the request's record when the batch loads. A JCA signature thus makes
 * no copy of its key per call ({@link Engine#signInPlace(io.dilithiumgpu.core.ParameterSet,
 * SigningKey, io.dilithiumgpu.core.PrivateKeyCache, byte[], byte[])}); the record is wiped with
 * the batch.
 *
 * <p>One object copies one key: every successful {@link #copyTo} of an object writes the same
 * bytes. The batcher relies on it: of the requests of one batch that name the same
 * {@code SigningKey} and key cache, a backend compares one with the cache's key identity and takes
 * the others as equal to it ({@link io.dilithiumgpu.backend.BatchRecords#keySources()}).
 */
@FunctionalInterface
public interface SigningKey {
    /**
     * Copies the expanded private key (the set's {@code privateKeyBytes()}) into {@code dst} from
     * absolute position {@code offset}, leaving the buffer's position alone.
     *
     * @return false when the key can no longer be read (it was destroyed); whatever was written
     *         there is then zero
     */
    boolean copyTo(ByteBuffer dst, int offset);
}
