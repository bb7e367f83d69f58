package io.dilithiumgpu.kat;

/**
 * The known-answer data is missing, altered, or not in the shape its format promises. This is
 * never a verdict on the backend under test: the vectors themselves cannot be trusted, so the
 * run stops.
 */
public final class KatDataException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public KatDataException(String message) {
        super(message);
    }

    public KatDataException(String message, Throwable cause) {
        super(message, cause);
    }
}
