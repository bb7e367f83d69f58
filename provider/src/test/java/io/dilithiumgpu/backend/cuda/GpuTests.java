package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.BackendException;
import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Assumptions;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Opening the CUDA backend in GPU tests. Without a usable GPU a test is skipped with the reason,
 * unless {@value #REQUIRED} is true (the GPU bundle's runner sets it): then a GPU that does not
 * open fails the test instead of hiding a broken build behind skips.
 */
final class GpuTests {
    /** System property: fail, rather than skip, when CUDA does not open. */
    static final String REQUIRED = "cuda.required";

    private GpuTests() {}

    /**
     * A backend opened for a whole test class, or the reason there is none. Classes open it in
     * {@code @BeforeAll} and call {@link #assumeOpen()} in {@code @BeforeEach}, so that each test
     * is reported as skipped with the reason.
     */
    record Gpu(CudaBackend backend, String reason) {
        void assumeOpen() {
            Assumptions.assumeTrue(backend != null, reason);
        }

        void close() {
            if (backend != null) {
                backend.close();
            }
        }
    }

    /**
     * Opens the backend, or records why not.
     *
     * @throws AssertionError when it does not open and {@value #REQUIRED} is true
     */
    static Gpu open(CudaConfig config) {
        try {
            return new Gpu(CudaBackend.open(config), null);
        } catch (BackendException e) {
            if (Boolean.getBoolean(REQUIRED)) {
                throw new AssertionError(REQUIRED + " is set, but the CUDA backend did not open: " + e.getMessage(), e);
            }
            return new Gpu(null, "no usable CUDA device: " + e.getMessage());
        }
    }

    /** Opens a backend inside one test, which is skipped (or fails, see {@link #open}) without one. */
    static CudaBackend openOrSkip(CudaConfig config) {
        Gpu gpu = open(config);
        gpu.assumeOpen();
        return gpu.backend();
    }

    /** An integer system property, or its default. */
    static int intProperty(String name, int fallback) {
        String v = System.getProperty(name);
        return v == null || v.isBlank() ? fallback : Integer.parseInt(v.trim());
    }

    /** The sets named in the comma-separated property {@code name}, or all six. */
    static List<ParameterSet> sets(String name) {
        String v = System.getProperty(name);
        if (v == null || v.isBlank()) {
            return List.of(ParameterSet.values());
        }
        List<ParameterSet> sets = new ArrayList<>();
        for (String s : v.split(",")) {
            sets.add(ParameterSet.forName(s.trim()));
        }
        return sets;
    }

    /** The first task whose record differs, or −1. */
    static int firstMismatch(byte[] a, byte[] b, int n, int recordBytes) {
        for (int i = 0; i < n; i++) {
            int from = i * recordBytes;
            if (!Arrays.equals(a, from, from + recordBytes, b, from, from + recordBytes)) {
                return i;
            }
        }
        return -1;
    }
}
