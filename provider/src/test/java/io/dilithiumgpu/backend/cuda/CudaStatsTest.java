package io.dilithiumgpu.backend.cuda;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The backend's counters, without a GPU: the per-device task counts. */
class CudaStatsTest {

    @Test
    void tasksAreCountedPerDeviceAndStartAgainWhenTheDevicesChange() {
        CudaStats stats = new CudaStats(() -> "test");
        assertArrayEquals(new long[0], stats.getTaskCountPerDevice(), "no devices open yet");
        stats.ranOn(0, 5);
        stats.devicesOpened(2);
        stats.ranOn(1, 7);
        stats.ranOn(1, 3);
        stats.ranOn(0, 4);
        assertArrayEquals(new long[] {4, 10}, stats.getTaskCountPerDevice());
        stats.devicesOpened(2);
        assertArrayEquals(new long[] {4, 10}, stats.getTaskCountPerDevice(), "reopened as the same devices");
        stats.devicesOpened(1);
        stats.ranOn(1, 9);
        assertArrayEquals(new long[] {0}, stats.getTaskCountPerDevice());
        stats.getTaskCountPerDevice()[0] = 99;
        assertEquals(0, stats.getTaskCountPerDevice()[0], "a copy");
    }

    @Test
    void theCountersAreAValidMXBean() throws Exception {
        CudaStats stats = new CudaStats(() -> "test");
        stats.devicesOpened(2);
        stats.ranOn(1, 3);
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = new ObjectName("io.dilithiumgpu.test:type=CudaStatsTest");
        server.registerMBean(stats, name);
        try {
            CudaBackendMXBean proxy = JMX.newMXBeanProxy(server, name, CudaBackendMXBean.class);
            assertArrayEquals(new long[] {0, 3}, proxy.getTaskCountPerDevice());
            assertEquals(3, ((long[]) server.getAttribute(name, "TaskCountPerDevice"))[1]);
        } finally {
            server.unregisterMBean(name);
        }
    }
}
