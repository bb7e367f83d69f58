package io.dilithiumgpu.backend.cuda;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Setting a C environment variable (for the CUDA driver) from Java: JDK 22 and later can, older JDKs say why not. */
class ProcessEnvironmentTest {
    private static final boolean FOREIGN_API = Runtime.version().feature() >= 22;

    @Test
    void aVariableNobodySetIsSetOnceAndThenLeftAlone() throws Throwable {
        String name = "DILITHIUMGPU_TEST_" + System.nanoTime();
        String refused = ProcessEnvironment.setIfAbsent(name, "17");
        if (!FOREIGN_API) {
            assertTrue(refused.contains("no foreign function API"), refused);
            assertThrows(ClassNotFoundException.class, () -> ProcessEnvironment.get(name));
            return;
        }
        assertNull(refused, "set on JDK " + Runtime.version().feature());
        assertEquals("17", ProcessEnvironment.get(name), "getenv(3) sees it");
        String again = ProcessEnvironment.setIfAbsent(name, "32");
        assertEquals(name + " is already 17", again);
        assertEquals("17", ProcessEnvironment.get(name), "a value already there stands");
    }

    @Test
    void theJvmStartUpEnvironmentIsReadToo() throws Throwable {
        if (!FOREIGN_API) {
            return;
        }
        String path = System.getenv("PATH");
        assertEquals(path, ProcessEnvironment.get("PATH"));
        assertNull(ProcessEnvironment.get("DILITHIUMGPU_NEVER_SET_" + System.nanoTime()));
    }
}
