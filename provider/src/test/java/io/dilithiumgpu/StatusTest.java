package io.dilithiumgpu;

import io.dilithiumgpu.batch.Engines;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.security.Provider;
import java.security.Security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatusTest {

    @Test
    @Timeout(120)
    void statusSaysWhichBackendRunsAndWhy() throws Exception {
        new DilithiumGpuProvider();
        ObjectName name = new ObjectName(StatusMXBean.NAME);
        assertTrue(ManagementFactory.getPlatformMBeanServer().isRegistered(name), "registered with the provider");
        assertEquals(System.getProperty("project.version"),
                ManagementFactory.getPlatformMBeanServer().getAttribute(name, "Version"));

        Status s = DilithiumGpu.status();
        assertEquals(System.getProperty("project.version"), s.version());
        assertEquals(Engines.sharedBatcher().metrics().getBackend(), s.backend());
        assertEquals(s.backend(), ManagementFactory.getPlatformMBeanServer().getAttribute(name, "Backend"));
        assertEquals(s.reason(), ManagementFactory.getPlatformMBeanServer().getAttribute(name, "Reason"));
        assertTrue(s.reason().startsWith("dilithiumgpu.backend="), s.reason());
        if (s.gpuInUse()) {
            assertNull(s.cudaUnavailableReason());
            assertTrue(!s.devices().isEmpty());
        } else {
            assertEquals("cpu", s.backend());
            assertNotNull(s.cudaUnavailableReason());
            assertTrue(s.devices().isEmpty());
            assertTrue(s.toString().contains("(GPU not in use)\n"), s.toString());
            assertTrue(s.toString().contains("  CUDA not used because: " + s.cudaUnavailableReason() + "\n"),
                    s.toString());
            assertEquals(s.cudaUnavailableReason(),
                    ManagementFactory.getPlatformMBeanServer().getAttribute(name, "CudaUnavailableReason"));
        }
        assertTrue(s.toString().startsWith("dilithium-gpu " + s.version() + ": backend " + s.backend()), s.toString());
        assertEquals("self-test passed: 24 known answers",
                ManagementFactory.getPlatformMBeanServer().invoke(name, "runSelfTest", null, null));
    }

    /** A provider offering ML-DSA ahead of this one is named in a warning; installFirst() ends it. */
    @Test
    void anMlDsaProviderAheadIsReportedUntilInstallFirst() {
        Provider ahead = new Provider("AheadForTest", "1", "offers ML-DSA") {
            private static final long serialVersionUID = 1L;

            {
                put("Signature.ML-DSA-65", "example.NoSuchClass");
            }
        };
        Provider[] before = Security.getProviders();
        try {
            Provider first = DilithiumGpuProvider.installFirst();
            assertSame(first, Security.getProviders()[0]);
            assertEquals(DilithiumGpuProvider.NAME, first.getName());
            assertNull(ProviderOrder.warning(), ProviderOrder.warning());

            Security.insertProviderAt(ahead, 1);
            String w = ProviderOrder.warning();
            assertNotNull(w);
            assertTrue(w.startsWith("DilithiumGPU is installed at position 2, behind AheadForTest (position 1,"
                    + " Signature.ML-DSA-65)"), w);
            assertEquals(w, DilithiumGpu.status().providerOrderWarning());

            String preferred = Security.getProperty(ProviderOrder.PREFERRED_PROPERTY);
            try {
                Security.setProperty(ProviderOrder.PREFERRED_PROPERTY, "AES:SunJCE, Signature.ML-DSA-65:DilithiumGPU");
                assertNull(ProviderOrder.warning(), "the preferred provider is not shadowed");
            } finally {
                Security.setProperty(ProviderOrder.PREFERRED_PROPERTY, preferred == null ? "" : preferred);
            }
            assertEquals(java.util.Set.of("Signature.ML-DSA", "KeyPairGenerator.ML-DSA", "Signature.ML-DSA-65"),
                    ProviderOrder.preferredHere("ML-DSA:DilithiumGPU,Signature.ML-DSA-65 : DilithiumGPU,ML-DSA-87:SUN"));

            assertSame(first, DilithiumGpuProvider.installFirst(), "moved, not replaced");
            assertNull(ProviderOrder.warning());
        } finally {
            Security.removeProvider(ahead.getName());
            Security.removeProvider(DilithiumGpuProvider.NAME);
            for (int i = 0; i < before.length; i++) {
                if (before[i].getName().equals(DilithiumGpuProvider.NAME)) {
                    Security.insertProviderAt(before[i], i + 1);
                }
            }
        }
    }
}
