package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.BackendException;
import io.dilithiumgpu.backend.cpu.CpuBackend;
import io.dilithiumgpu.backend.cuda.CudaBackend;
import io.dilithiumgpu.backend.cuda.CudaConfig;

/**
 * The backends the batch benchmarks measure, opened directly (not through the batcher, so that
 * nothing but the backend is timed).
 */
final class Backends {
    private Backends() {}

    /**
     * A backend and a line describing it, or the reason it could not be opened (then
     * {@code backend} is null). The caller closes the backend.
     */
    record Opened(String name, Backend backend, String description, String unavailable) {
        boolean available() {
            return backend != null;
        }
    }

    /** {@code cpu}, or {@code cuda} with the configuration of the system properties. */
    static Opened open(String name) {
        return switch (name) {
            case "cpu" -> cpu();
            case "cuda" -> cuda(CudaConfig.fromSystemProperties());
            default -> throw new IllegalArgumentException("no backend named " + name);
        };
    }

    static Opened cpu() {
        CpuBackend cpu = new CpuBackend();
        return new Opened("cpu", cpu, "pure Java on " + cpu.threads() + " threads", null);
    }

    static Opened cuda(CudaConfig config) {
        try {
            CudaBackend cuda = CudaBackend.open(config);
            return new Opened("cuda", cuda, cuda.description(), null);
        } catch (BackendException e) {
            return new Opened("cuda", null, null, e.getMessage());
        } catch (LinkageError e) {
            return new Opened("cuda", null, null, "JCuda cannot be loaded: " + e);
        }
    }
}
