package io.dilithiumgpu;

/**
 * The provider's status over JMX, registered as {@value #NAME} when the first
 * {@link DilithiumGpuProvider} is made. Reading it opens nothing: until the first operation (or
 * {@link DilithiumGpu#status()}) starts the engine, {@link #getBackend()} says {@code not started}.
 */
public interface StatusMXBean {
    /** The JMX name. */
    String NAME = "io.dilithiumgpu:type=Status";

    /** The provider's version, from the build. */
    String getVersion();

    /** The configured {@code dilithiumgpu.backend}: auto, cuda, cuda-required or cpu. */
    String getPolicy();

    /** {@code cuda} or {@code cpu} once the engine runs; {@code not started} before. */
    String getBackend();

    /** Whether batches run on GPUs. */
    boolean isGpuInUse();

    /** One description per GPU in use; empty on the CPU or before the engine starts. */
    String[] getDevices();

    /** How the backend was chosen, as logged: the policy, the backend and why. */
    String getReason();

    /** Why CUDA is not used; empty while it is, or before the engine starts. */
    String getCudaUnavailableReason();

    /** A warning when another ML-DSA provider is installed ahead of this one; empty when none is. */
    String getProviderOrderWarning();

    /** Tasks rerun on the CPU after a GPU failure. */
    long getCpuReruns();

    /** Runs the compiled-in known-answer self-test on the backend in use (starting the engine). */
    String runSelfTest();
}
