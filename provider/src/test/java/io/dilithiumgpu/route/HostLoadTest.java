package io.dilithiumgpu.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The host's load as the router samples it, from a fake process and provider CPU clock. */
class HostLoadTest {
    private static final long MS = 1_000_000;
    private static final int CORES = 16;

    private long processCpu;
    private long providerCpu;
    private long providerRead;
    private final HostLoad host = new HostLoad(() -> processCpu, this::providerSinceLastRead, CORES);

    private long providerSinceLastRead() {
        long d = providerCpu - providerRead;
        providerRead = providerCpu;
        return d;
    }

    @Test
    void busyWhenTheProcessUsedNineTenthsOfItsCoresOverAWindow() {
        host.sample(0, 0);
        assertFalse(host.busy(), "nothing measured yet");
        processCpu += (long) (0.95 * CORES * 100 * MS);
        host.sample(100 * MS, 0);
        assertTrue(host.busy());
        processCpu += (long) (0.5 * CORES * 100 * MS);
        host.sample(200 * MS, 0);
        assertFalse(host.busy());
    }

    @Test
    void aWindowIsSampledOnlyOnceItHasRun() {
        host.sample(0, 0);
        processCpu += (long) (0.95 * CORES * 20 * MS);
        host.sample(20 * MS, 0);
        assertFalse(host.busy(), "a fifth of a window: not sampled");
        processCpu += (long) (0.95 * CORES * 80 * MS);
        host.sample(100 * MS, 0);
        assertTrue(host.busy());
    }

    @Test
    void theBatchRoutesHostCostIsTheProvidersCpuPerBatchedCallOverEnoughCalls() {
        host.sample(0, 0);
        providerCpu += 10 * 60_000;
        host.sample(100 * MS, 10);
        assertEquals(RouteChoice.UNKNOWN, host.batchNanos(), "ten calls are too few");
        providerCpu += 30 * 60_000;
        host.sample(200 * MS, 40);
        assertEquals(60_000, host.batchNanos());
        providerCpu += 40 * 20_000;
        host.sample(300 * MS, 80);
        assertEquals(20_000, host.batchNanos(), "the next calls make the next average");
    }

    @Test
    void unknownCpuTimesLeaveTheHostNotBusyAndTheCostUnknown() {
        HostLoad blind = new HostLoad(() -> -1, () -> -1, CORES);
        blind.sample(0, 0);
        blind.sample(100 * MS, 1_000);
        blind.sample(200 * MS, 2_000);
        assertFalse(blind.busy());
        assertEquals(RouteChoice.UNKNOWN, blind.batchNanos());
    }
}
