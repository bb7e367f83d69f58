package io.dilithiumgpu.backend;

import java.security.ProviderException;

/**
 * A backend failed as a whole (for CUDA: no driver, module load, launch, copy, device lost). The
 * batch it was given has no valid results; the caller reruns it on another backend.
 */
public class BackendException extends ProviderException {
    public BackendException(String message) {
        super(message);
    }

    public BackendException(String message, Throwable cause) {
        super(message, cause);
    }
}
