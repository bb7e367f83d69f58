package io.dilithiumgpu.backend.cuda;

import java.util.Arrays;

/**
 * The GPUs as a call's {@link ChunkPlan} sees them when the call starts: per device, in the
 * {@link DeviceSet}'s order, its slots and the chunks of other calls in flight on it. A value:
 * the plan that reads it is a pure function, tested without a GPU.
 *
 * @param slots    the slots open on each device, each at least 1
 * @param inFlight the chunks of other calls queued or running on each device
 * @param rotation breaks ties between equally loaded devices: calls that start together (each
 *                 of the set's calls takes the next rotation) see the same loads and still go to
 *                 different devices
 */
record DeviceLoads(int[] slots, int[] inFlight, int rotation) {

    DeviceLoads {
        slots = slots.clone();
        inFlight = inFlight.clone();
        if (slots.length == 0 || slots.length != inFlight.length) {
            throw new IllegalArgumentException("slots and loads of " + slots.length + " and " + inFlight.length
                    + " devices");
        }
        for (int d = 0; d < slots.length; d++) {
            if (slots[d] < 1 || inFlight[d] < 0) {
                throw new IllegalArgumentException("device " + d + ": " + slots[d] + " slots, " + inFlight[d]
                        + " chunks in flight");
            }
        }
    }

    /** Devices of {@code slots} slots each, none busy: a set at rest. */
    static DeviceLoads idle(int... slots) {
        return new DeviceLoads(slots, new int[slots.length], 0);
    }

    int devices() {
        return slots.length;
    }

    @Override
    public int[] slots() {
        return slots.clone();
    }

    @Override
    public int[] inFlight() {
        return inFlight.clone();
    }

    int slots(int device) {
        return slots[device];
    }

    int totalSlots() {
        return Arrays.stream(slots).sum();
    }

    int totalInFlight() {
        return Arrays.stream(inFlight).sum();
    }

    /**
     * The {@code count} least loaded devices, least loaded first; equally loaded ones in device
     * order from {@code rotation} on (wrapping round).
     *
     * @param count between 1 and {@link #devices()}
     */
    int[] leastLoaded(int count) {
        if (count < 1 || count > slots.length) {
            throw new IllegalArgumentException(count + " of " + slots.length + " devices");
        }
        int n = slots.length;
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = Math.floorMod(rotation + i, n);
        }
        // Insertion sort by load, stable: equals keep their order from the rotation on.
        for (int i = 1; i < n; i++) {
            int d = order[i];
            int j = i - 1;
            while (j >= 0 && inFlight[order[j]] > inFlight[d]) {
                order[j + 1] = order[j];
                j--;
            }
            order[j + 1] = d;
        }
        return Arrays.copyOf(order, count);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeviceLoads l && Arrays.equals(slots, l.slots) && Arrays.equals(inFlight, l.inFlight)
                && rotation == l.rotation;
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Arrays.hashCode(slots) + Arrays.hashCode(inFlight)) + rotation;
    }

    @Override
    public String toString() {
        return "DeviceLoads[slots=" + Arrays.toString(slots) + ", in flight=" + Arrays.toString(inFlight)
                + ", rotation " + rotation + "]";
    }
}
