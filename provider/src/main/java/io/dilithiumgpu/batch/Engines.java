package io.dilithiumgpu.batch;

/**
 * Where the SPIs get their {@link Engine}. (Skeleton: the batching issue replaces the body with the
 * process-wide batcher configured from system properties.)
 */
public final class Engines {
    private Engines() {}

    /** The process-wide engine every SPI instance uses. */
    public static Engine shared() {
        throw new UnsupportedOperationException("batcher not yet merged");
    }
}
