package io.dilithiumgpu.bench;

/** A command line that cannot be run: unknown option, missing or malformed value. Exit status 2. */
final class UsageException extends Exception {
    UsageException(String message) {
        super(message);
    }
}
