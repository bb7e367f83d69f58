package io.dilithiumgpu.route;

/** Where one JCA signature or verification runs. */
public enum Route {
    /** On the caller's own thread, with this provider's core: no hand-off. */
    DIRECT,
    /** Through the shared batcher, in a batch with concurrent calls, on its backend. */
    BATCH,
    /** On the caller's own thread, with the JDK's own ML-DSA (the SUN provider, Java 24 and later). */
    JDK
}
