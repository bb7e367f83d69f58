package io.dilithiumgpu.bench;

/**
 * A benchmark's own output failed its check (a signature that does not verify, a key that differs
 * from the CPU core's, a verification result that contradicts the input). The benchmark reports no
 * number for that measurement.
 */
final class WrongResultException extends Exception {
    WrongResultException(String message) {
        super(message);
    }
}
