package io.dilithiumgpu.backend.cuda;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The devices as a plan sees them: which devices a call goes to, without a GPU. */
class DeviceLoadsTest {

    @Test
    void theLeastLoadedComeFirstAndEqualsInTurnFromTheRotation() {
        DeviceLoads loads = new DeviceLoads(new int[] {8, 8, 8, 8}, new int[] {2, 0, 1, 0}, 2);
        assertArrayEquals(new int[] {3, 1, 2, 0}, loads.leastLoaded(4));
        assertArrayEquals(new int[] {3}, loads.leastLoaded(1));
        assertArrayEquals(new int[] {1, 3}, new DeviceLoads(new int[] {8, 8, 8, 8}, new int[] {2, 0, 1, 0}, 0)
                .leastLoaded(2));
        assertArrayEquals(new int[] {1, 2, 0}, new DeviceLoads(new int[] {1, 1, 1}, new int[3], 4).leastLoaded(3));
        assertArrayEquals(new int[] {2, 0, 1}, new DeviceLoads(new int[] {1, 1, 1}, new int[3], -1).leastLoaded(3),
                "a rotation past Integer.MAX_VALUE wraps");
    }

    @Test
    void totalsAndTheIdleSet() {
        DeviceLoads idle = DeviceLoads.idle(32, 16);
        assertEquals(2, idle.devices());
        assertEquals(48, idle.totalSlots());
        assertEquals(0, idle.totalInFlight());
        assertEquals(16, idle.slots(1));
        assertEquals(7, new DeviceLoads(new int[] {1, 1}, new int[] {3, 4}, 0).totalInFlight());
    }

    @Test
    void aValueThatKeepsItsOwnArrays() {
        int[] slots = {4, 4};
        int[] inFlight = {0, 1};
        DeviceLoads loads = new DeviceLoads(slots, inFlight, 0);
        slots[0] = 9;
        inFlight[0] = 9;
        loads.inFlight()[1] = 9;
        assertEquals(new DeviceLoads(new int[] {4, 4}, new int[] {0, 1}, 0), loads);
        assertEquals(new DeviceLoads(new int[] {4, 4}, new int[] {0, 1}, 0).hashCode(), loads.hashCode());
    }

    @Test
    void refusesWhatNoSetHas() {
        assertThrows(IllegalArgumentException.class, () -> DeviceLoads.idle());
        assertThrows(IllegalArgumentException.class, () -> new DeviceLoads(new int[] {1}, new int[2], 0));
        assertThrows(IllegalArgumentException.class, () -> DeviceLoads.idle(0));
        assertThrows(IllegalArgumentException.class, () -> new DeviceLoads(new int[] {1}, new int[] {-1}, 0));
        assertThrows(IllegalArgumentException.class, () -> DeviceLoads.idle(1, 1).leastLoaded(3));
        assertThrows(IllegalArgumentException.class, () -> DeviceLoads.idle(1, 1).leastLoaded(0));
    }
}
