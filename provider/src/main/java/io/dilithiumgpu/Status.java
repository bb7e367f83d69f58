package io.dilithiumgpu;

import io.dilithiumgpu.batch.BackendPolicy;
import io.dilithiumgpu.batch.BatchConfig;
import io.dilithiumgpu.batch.Batcher;

import java.util.List;

/**
 * What {@link DilithiumGpu#status()} reports: the backend the provider's operations run on, the
 * GPUs in use, and why CUDA is not used when it is not.
 *
 * @param version               the provider's version, from the build
 * @param policy                the configured {@code dilithiumgpu.backend}
 * @param backend               {@code cuda}, {@code cpu}, or {@code none} when no backend could be
 *                              opened (strict mode without CUDA, or an invalid configuration)
 * @param devices               one description per GPU in use; empty on the CPU
 * @param reason                how the backend was chosen, or why none was, as logged
 * @param cudaUnavailableReason why CUDA is not used; null while it is
 * @param providerOrderWarning  set when another ML-DSA provider is installed ahead of this one
 *                              (JCA calls that name no provider go there); null otherwise
 * @param cpuReruns             tasks rerun on the CPU after a GPU failure
 */
public record Status(String version, String policy, String backend, List<String> devices, String reason,
                     String cudaUnavailableReason, String providerOrderWarning, long cpuReruns) {

    public Status {
        devices = List.copyOf(devices);
    }

    /** Whether the provider's batches run on GPUs. */
    public boolean gpuInUse() {
        return backend.equals("cuda");
    }

    static Status of(Batcher b) {
        Batcher.Choice c = b.choice();
        return new Status(currentVersion(), configuredPolicy(), b.metrics().getBackend(), c.devices(), c.reason(),
                c.cudaUnavailable(), ProviderOrder.warning(), b.metrics().getFallbackCount());
    }

    static Status none(String why) {
        return new Status(currentVersion(), configuredPolicy(), "none", List.of(), why, why, ProviderOrder.warning(), 0);
    }

    static String currentVersion() {
        return ProviderVersion.read();
    }

    static String configuredPolicy() {
        return System.getProperty(BatchConfig.BACKEND_PROPERTY, BackendPolicy.AUTO.toString());
    }

    /** Several lines for people: the backend and why first. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("dilithium-gpu ").append(version).append(": backend ").append(backend)
                .append(gpuInUse() ? " (GPU in use)" : " (GPU not in use)").append('\n');
        sb.append("  policy: ").append(BatchConfig.BACKEND_PROPERTY).append('=').append(policy).append('\n');
        sb.append("  reason: ").append(reason).append('\n');
        if (cudaUnavailableReason != null) {
            sb.append("  CUDA not used because: ").append(cudaUnavailableReason).append('\n');
        }
        sb.append("  devices: ").append(devices.isEmpty() ? "none" : String.join("; ", devices)).append('\n');
        sb.append("  provider order: ").append(providerOrderWarning == null ? "no ML-DSA provider ahead of "
                + DilithiumGpuProvider.NAME : "WARNING " + providerOrderWarning).append('\n');
        sb.append("  tasks rerun on the CPU after a GPU failure: ").append(cpuReruns).append('\n');
        return sb.toString();
    }
}
