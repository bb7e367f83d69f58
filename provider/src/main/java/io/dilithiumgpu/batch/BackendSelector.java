package io.dilithiumgpu.batch;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.BackendException;
import io.dilithiumgpu.backend.cpu.CpuBackend;
import io.dilithiumgpu.backend.cuda.CudaBackend;

import java.util.List;
import java.util.function.Supplier;

/**
 * Applies the {@link BackendPolicy}: the one place that knows which backends exist and how to open
 * them ({@link CudaBackend#open()}, {@link CpuBackend#CpuBackend()}).
 *
 * <ul>
 *   <li>{@code cpu}: the CPU backend.</li>
 *   <li>{@code auto}: the CUDA backend if it opens (driver, device and kernels present), else the
 *       CPU backend; the reason CUDA was not taken is part of the selection's {@link
 *       Selection#reason() reason}.</li>
 *   <li>{@code cuda}: as {@code auto}, but a CPU selection is reported as a warning.</li>
 *   <li>{@code cuda-required}: the CUDA backend, or a {@link BackendException} saying why not.</li>
 * </ul>
 * Whenever CUDA is selected under {@code auto} or {@code cuda}, the CPU backend is also the fallback
 * that reruns a batch the GPU failed (opened only when first needed); under {@code cuda-required}
 * there is no fallback.
 */
public final class BackendSelector {
    private BackendSelector() {}

    /**
     * The outcome of a selection.
     *
     * @param primary  runs every batch
     * @param fallback opens the backend that reruns a batch {@code primary} failed with a
     *                 {@link BackendException}; null when {@code primary} is itself the CPU backend
     * @param reason   one line for the log: the policy, the backend chosen and why
     * @param degraded true when the policy asked for CUDA and did not get it
     * @param cudaUnavailable why CUDA is not used, or null when it is
     * @param devices  the GPUs in use, one description each; empty on the CPU
     */
    public record Selection(Backend primary, Supplier<Backend> fallback, String reason, boolean degraded,
                            String cudaUnavailable, List<String> devices) {}

    /**
     * Opens the backend {@code policy} asks for. The caller owns (and closes) what it returns.
     *
     * @throws BackendException under {@code cuda-required} when CUDA cannot be opened, saying why
     */
    public static Selection select(BackendPolicy policy) {
        String property = BatchConfig.BACKEND_PROPERTY + "=" + policy;
        if (policy == BackendPolicy.CPU) {
            return new Selection(openCpu(), null, property + ": cpu backend", false,
                    property + ": CUDA not probed", List.of());
        }
        String unavailable;
        try {
            CudaBackend cuda = CudaBackend.open();
            return new Selection(cuda, policy == BackendPolicy.CUDA_REQUIRED ? null : BackendSelector::openCpu,
                    property + ": cuda backend on " + cuda.description(), false, null, cuda.deviceDescriptions());
        } catch (BackendException e) {
            unavailable = e.getMessage();
        } catch (LinkageError e) {
            // JCuda's classes or natives missing from the class path.
            unavailable = "JCuda cannot be loaded: " + e;
        }
        if (policy == BackendPolicy.CUDA_REQUIRED) {
            throw new BackendException(property + " and CUDA is unavailable: " + unavailable);
        }
        return new Selection(openCpu(), null, property + ": cpu backend, because CUDA is unavailable: "
                + unavailable, policy == BackendPolicy.CUDA, unavailable, List.of());
    }

    /** The multi-core pure-Java backend. */
    public static Backend openCpu() {
        return new CpuBackend();
    }
}
