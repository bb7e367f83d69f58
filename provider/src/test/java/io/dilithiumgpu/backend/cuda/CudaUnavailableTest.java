package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.BackendException;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * Opening the backend where there is no GPU: the build hosts (CI has no GPU) exercise the path
 * every GPU-less deployment takes. Skipped, with the reason, on a host with an NVIDIA device node.
 */
class CudaUnavailableTest {

    private static boolean nvidiaDevicePresent() {
        return Files.exists(Path.of("/dev/nvidiactl")) || Files.exists(Path.of("/dev/nvidia0"));
    }

    @Test
    void openingWithoutAGpuSaysWhy() {
        assumeFalse(nvidiaDevicePresent(), "an NVIDIA device node exists: CUDA may be available here");
        BackendException e = assertThrows(BackendException.class, CudaBackend::open);
        CudaLoader.Unavailable cause = assertInstanceOf(CudaLoader.Unavailable.class, e.getCause());
        assertTrue(EnumSet.of(CudaLoader.Reason.NATIVES, CudaLoader.Reason.DRIVER, CudaLoader.Reason.NO_DEVICE)
                .contains(cause.reason()), "reason " + cause.reason() + ": " + e.getMessage());
        assertTrue(e.getMessage().startsWith("CUDA unavailable (" + cause.reason() + "): "), e.getMessage());
        assertTrue(cause.getMessage().length() > 20, "no explanation: " + cause.getMessage());
    }

    @Test
    void theReasonStaysTheSameOnEveryAttempt() {
        assumeFalse(nvidiaDevicePresent(), "an NVIDIA device node exists: CUDA may be available here");
        BackendException first = assertThrows(BackendException.class, CudaBackend::open);
        BackendException second = assertThrows(BackendException.class, CudaBackend::open);
        assertEquals(first.getMessage(), second.getMessage());
        assertThrows(CudaLoader.Unavailable.class, CudaLoader::initDriver);
    }

    @Test
    void aMissingDriverLibraryIsNamed() {
        assumeFalse(nvidiaDevicePresent(), "an NVIDIA device node exists: CUDA may be available here");
        CudaLoader.Unavailable e = assertThrows(CudaLoader.Unavailable.class, CudaLoader::initDriver);
        if (e.reason() == CudaLoader.Reason.DRIVER) {
            assertTrue(e.getMessage().contains("libcuda.so") || e.getMessage().contains("cuInit"), e.getMessage());
        } else {
            assertEquals(CudaLoader.Reason.NATIVES, e.reason(), e.getMessage());
            assertTrue(e.getMessage().contains("jcuda-natives"), e.getMessage());
        }
    }
}
