package io.dilithiumgpu.backend.cuda;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CudaConfigTest {

    @Test
    void defaultsAreUsable() {
        CudaConfig d = CudaConfig.defaults();
        assertEquals(32, d.streamsPerDevice());
        assertTrue(d.slotTasks() >= d.minChunkTasks());
        assertTrue(d.copyThreads() >= 1 && d.copyThreads() <= 8, "copy threads " + d.copyThreads());
        assertEquals(Duration.ofSeconds(30), d.retryAfter());
        assertEquals(CudaConfig.Sync.ADAPTIVE, d.sync());
        assertTrue(d.sync().sleepsForLoneChunks());
    }

    @Test
    void theStreamsPropertyOverridesTheDefaultAndNothingElse() {
        Properties props = new Properties();
        props.setProperty(CudaConfig.STREAMS_PROPERTY, " 3 ");
        props.setProperty("dilithiumgpu.cuda.slotTasks", "100");
        CudaConfig c = CudaConfig.builder(props).build();
        assertEquals(CudaConfig.defaults().toBuilder().streamsPerDevice(3).build(), c);
        assertEquals(CudaConfig.defaults(), CudaConfig.builder(new Properties()).build());
    }

    @Test
    void aBadStreamsPropertyIsRefusedByName() {
        for (String bad : new String[] {"four", "0", "-1"}) {
            Properties props = new Properties();
            props.setProperty(CudaConfig.STREAMS_PROPERTY, bad);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> CudaConfig.builder(props).build());
            assertTrue(e.getMessage().contains("dilithiumgpu.cuda.streams"), e.getMessage());
        }
    }

    @Test
    void theBuilderSetsEverySettingAndKeepsThemAcrossToBuilder() {
        CudaConfig c = CudaConfig.builder().streamsPerDevice(3).slotTasks(100).minChunkTasks(10).copyThreads(2)
                .retryAfter(Duration.ofMillis(250)).sync(CudaConfig.Sync.BLOCKING).devices(List.of(1, 0)).build();
        assertEquals(3, c.streamsPerDevice());
        assertEquals(100, c.slotTasks());
        assertEquals(10, c.minChunkTasks());
        assertEquals(2, c.copyThreads());
        assertEquals(Duration.ofMillis(250), c.retryAfter());
        assertEquals(CudaConfig.Sync.BLOCKING, c.sync());
        assertEquals(List.of(1, 0), c.devices());
        assertEquals(List.of(), CudaConfig.defaults().devices(), "every GPU by default");
        assertFalse(c.equals(c.toBuilder().devices(List.of()).build()));
        assertEquals(c, c.toBuilder().build());
        assertEquals(c.hashCode(), c.toBuilder().build().hashCode());
        assertFalse(c.sync().sleepsForLoneChunks());
    }

    @Test
    void theBuilderRefusesWhatCannotRun() {
        CudaConfig.Builder b = CudaConfig.builder();
        assertThrows(IllegalArgumentException.class, () -> b.streamsPerDevice(0));
        assertThrows(IllegalArgumentException.class, () -> b.slotTasks(0));
        assertThrows(IllegalArgumentException.class, () -> b.slotTasks(Integer.MAX_VALUE), "a pinned block over 2 GiB");
        assertThrows(IllegalArgumentException.class, () -> b.minChunkTasks(0));
        assertThrows(IllegalArgumentException.class, () -> b.copyThreads(0));
        assertThrows(IllegalArgumentException.class, () -> b.retryAfter(Duration.ofMillis(-1)));
        assertThrows(NullPointerException.class, () -> b.sync(null));
        assertThrows(IllegalArgumentException.class, () -> b.devices(List.of(-1)));
        assertThrows(IllegalArgumentException.class, () -> b.devices(List.of(1, 0, 1)), "a device twice");
    }

    @Test
    void theKeyCachePropertyTakesAutoOrBytes() {
        assertEquals(CudaConfig.KEY_CACHE_AUTO, CudaConfig.defaults().keyCacheBytes());
        String[][] cases = {{"auto", "-1"}, {" AUTO ", "-1"}, {"0", "0"}, {"4096", "4096"}, {"64k", "65536"},
                {"3 M", "3145728"}, {"2g", "2147483648"}};
        for (String[] c : cases) {
            Properties props = new Properties();
            props.setProperty(CudaConfig.KEY_CACHE_PROPERTY, c[0]);
            assertEquals(Long.parseLong(c[1]), CudaConfig.builder(props).build().keyCacheBytes(), c[0]);
        }
        for (String bad : new String[] {"lots", "-1", "5t", "", "99999999999g"}) {
            Properties props = new Properties();
            props.setProperty(CudaConfig.KEY_CACHE_PROPERTY, bad);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CudaConfig.builder(props));
            assertTrue(e.getMessage().contains(CudaConfig.KEY_CACHE_PROPERTY), e.getMessage());
        }
        CudaConfig c = CudaConfig.builder().keyCacheBytes(1 << 20).build();
        assertEquals(c, c.toBuilder().build());
        assertFalse(c.equals(CudaConfig.defaults()));
        CudaConfig narrow = CudaConfig.builder().wideSigning(false).build();
        assertTrue(CudaConfig.defaults().wideSigning(), "groups of warps sign by default");
        assertFalse(narrow.wideSigning());
        assertEquals(narrow, narrow.toBuilder().build());
        assertEquals(narrow.hashCode(), narrow.toBuilder().build().hashCode());
        assertFalse(narrow.equals(CudaConfig.defaults()));
        assertTrue(narrow.toString().contains("one warp per signature"), narrow.toString());
        assertThrows(IllegalArgumentException.class, () -> CudaConfig.builder().keyCacheBytes(-2));
    }
}
