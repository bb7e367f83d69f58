package io.dilithiumgpu.backend.cuda;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.Resources;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ResourceLock(Resources.SYSTEM_PROPERTIES)
class CudaConfigTest {

    @Test
    void defaultsAreUsable() {
        CudaConfig d = CudaConfig.defaults();
        assertTrue(d.streamsPerDevice() >= 2, "streams must overlap copies and kernels");
        assertTrue(d.slotTasks() >= d.minChunkTasks());
        assertTrue(d.copyThreads() >= 1);
        assertEquals(Duration.ofSeconds(30), d.retryAfter());
    }

    @Test
    void systemPropertiesOverrideTheDefaults() {
        String[] keys = {"streams", "slotTasks", "minChunkTasks", "copyThreads", "retryMillis"};
        String[] values = {"3", "100", "10", "2", "250"};
        try {
            for (int i = 0; i < keys.length; i++) {
                System.setProperty(CudaConfig.PREFIX + keys[i], values[i]);
            }
            assertEquals(new CudaConfig(3, 100, 10, 2, Duration.ofMillis(250)), CudaConfig.fromSystemProperties());
            System.setProperty(CudaConfig.PREFIX + "streams", "four");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, CudaConfig::fromSystemProperties);
            assertTrue(e.getMessage().contains("dilithiumgpu.cuda.streams"), e.getMessage());
        } finally {
            for (String key : keys) {
                System.clearProperty(CudaConfig.PREFIX + key);
            }
        }
    }

    @Test
    void syncModeComesFromItsPropertyInAnyCase() {
        assertEquals(CudaConfig.Sync.ADAPTIVE, CudaConfig.defaults().sync());
        assertTrue(CudaConfig.defaults().sync().sleepsForLoneChunks());
        try {
            System.setProperty(CudaConfig.PREFIX + "sync", "Blocking");
            assertEquals(CudaConfig.Sync.BLOCKING, CudaConfig.fromSystemProperties().sync());
            assertFalse(CudaConfig.fromSystemProperties().sync().naps());
            assertFalse(CudaConfig.fromSystemProperties().sync().sleepsForLoneChunks());
            System.setProperty(CudaConfig.PREFIX + "sync", "nap");
            assertEquals(CudaConfig.Sync.NAP, CudaConfig.fromSystemProperties().sync());
            assertTrue(CudaConfig.fromSystemProperties().sync().naps());
            System.setProperty(CudaConfig.PREFIX + "sync", "sometimes");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, CudaConfig::fromSystemProperties);
            assertTrue(e.getMessage().contains("dilithiumgpu.cuda.sync"), e.getMessage());
        } finally {
            System.clearProperty(CudaConfig.PREFIX + "sync");
        }
    }

    @Test
    void helpingIsOffUntilItsPropertyTurnsItOn() {
        assertFalse(CudaConfig.defaults().help());
        try {
            System.setProperty(CudaConfig.PREFIX + "help", " TRUE ");
            assertTrue(CudaConfig.fromSystemProperties().help());
            System.setProperty(CudaConfig.PREFIX + "help", "false");
            assertFalse(CudaConfig.fromSystemProperties().help());
            System.setProperty(CudaConfig.PREFIX + "help", "yes");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, CudaConfig::fromSystemProperties);
            assertTrue(e.getMessage().contains("dilithiumgpu.cuda.help must be true or false"), e.getMessage());
        } finally {
            System.clearProperty(CudaConfig.PREFIX + "help");
        }
    }

    @Test
    void signaturesArePublishedUnlessItsPropertyTurnsThatOff() {
        assertTrue(CudaConfig.defaults().publish());
        assertTrue(new CudaConfig(1, 1, 1, 1, Duration.ZERO, CudaConfig.Sync.AUTO, true).publish());
        try {
            System.setProperty(CudaConfig.PREFIX + "publish", "false");
            CudaConfig c = CudaConfig.fromSystemProperties();
            assertFalse(c.publish());
            assertFalse(c.help());
            System.setProperty(CudaConfig.PREFIX + "publish", "0");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, CudaConfig::fromSystemProperties);
            assertTrue(e.getMessage().contains("dilithiumgpu.cuda.publish must be true or false"), e.getMessage());
        } finally {
            System.clearProperty(CudaConfig.PREFIX + "publish");
        }
    }

    @Test
    void uploadsAreOrderedUnlessItsPropertyTurnsThatOff() {
        assertTrue(CudaConfig.defaults().orderedUploads());
        assertTrue(new CudaConfig(1, 1, 1, 1, Duration.ZERO, CudaConfig.Sync.AUTO, false, false).orderedUploads());
        try {
            System.setProperty(CudaConfig.PREFIX + "orderedUploads", "false");
            CudaConfig c = CudaConfig.fromSystemProperties();
            assertFalse(c.orderedUploads());
            assertTrue(c.publish());
            System.setProperty(CudaConfig.PREFIX + "orderedUploads", "no");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, CudaConfig::fromSystemProperties);
            assertTrue(e.getMessage().contains("dilithiumgpu.cuda.orderedUploads must be true or false"), e.getMessage());
        } finally {
            System.clearProperty(CudaConfig.PREFIX + "orderedUploads");
        }
    }

    @Test
    void rejectsUnusableSizes() {
        Duration d = Duration.ofSeconds(1);
        assertThrows(IllegalArgumentException.class, () -> new CudaConfig(0, 1, 1, 1, d));
        assertThrows(IllegalArgumentException.class, () -> new CudaConfig(1, 0, 1, 1, d));
        assertThrows(IllegalArgumentException.class, () -> new CudaConfig(1, 1, 0, 1, d));
        assertThrows(IllegalArgumentException.class, () -> new CudaConfig(1, 1, 1, 0, d));
        assertThrows(IllegalArgumentException.class, () -> new CudaConfig(1, 1, 1, 1, Duration.ofMillis(-1)));
        assertThrows(IllegalArgumentException.class, () -> new CudaConfig(1, 1 << 20, 1, 1, d),
                "a slot of 2^20 ML-DSA-87 signing tasks is over 2 GiB of pinned memory");
    }
}
