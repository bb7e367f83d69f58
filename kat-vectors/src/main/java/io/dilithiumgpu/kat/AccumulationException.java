package io.dilithiumgpu.kat;

/** A failed iteration of the accumulated test ({@link Accumulated}): a task failed or a signature did not verify. */
public final class AccumulationException extends Exception {
    private static final long serialVersionUID = 1L;

    public AccumulationException(String message) {
        super(message);
    }

    public AccumulationException(String message, Throwable cause) {
        super(message, cause);
    }
}
