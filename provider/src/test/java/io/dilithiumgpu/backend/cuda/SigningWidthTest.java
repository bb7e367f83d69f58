package io.dilithiumgpu.backend.cuda;

import jcuda.driver.CUfunction;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * {@link SigningWidth}'s choice between a warp and a group of four warps per task, on a device that
 * runs 2,112 signing warps at once: groups while they and the warps in flight fill at most 1,056, or
 * for a call's only chunk of up to 2,112 tasks on an idle device.
 */
class SigningWidthTest {
    private static final int RESIDENT = 2112;

    private static Kernel kernel(String name, int threads, int resident) {
        return new Kernel(name, new CUfunction(), new KernelConfig(threads, 1, 9360, 16, 67_968), resident);
    }

    private final KeyedKernels k = new KeyedKernels(kernel("expand_sk", 128, RESIDENT), kernel("expand_pk", 128, RESIDENT),
            kernel("sign_keyed", 32, RESIDENT), kernel("verify_keyed", 128, RESIDENT), kernel("sign_keyed_wide", 128, 528),
            kernel("sign_keyed_helped", 32, RESIDENT), 256, 256);

    @Test
    void groupsSignWhileTheyAndTheWarpsInFlightFillHalfTheDevice() {
        SigningWidth width = new SigningWidth(true);
        assertEquals(4, SigningWidth.warpsPerTask(k.signWide()));
        assertEquals(1, SigningWidth.warpsPerTask(k.signKeyed()));
        Kernel first = width.acquire(k, 250, false, false);
        assertSame(k.signWide(), first, "1,000 warps of an idle device's 2,112");
        assertSame(k.signKeyed(), width.acquire(k, 15, false, false), "1,000 in flight: 60 more pass half");
        assertSame(k.signWide(), width.acquire(k, 10, false, false), "1,015 in flight: 40 more fill 1,055");
        width.release(first, 250);
        assertSame(k.signWide(), width.acquire(k, 240, false, false), "55 in flight after the release: 960 more fit");
        assertSame(k.signKeyed(), width.acquire(k, 1_000, false, false), "a large chunk signs a warp a task");
    }

    @Test
    void aChunkTooLargeForHalfTheIdleDeviceSignsAWarpATask() {
        SigningWidth width = new SigningWidth(true);
        assertSame(k.signKeyed(), width.acquire(k, RESIDENT / 8 + 1, false, false), "265 groups of 4 pass half");
        assertSame(k.signWide(), width.acquire(k, 1, false, false), "it counts one warp a task: 269 of 1,056");
    }

    @Test
    void releasedChunksLeaveNothingInFlight() {
        SigningWidth width = new SigningWidth(true);
        for (int round = 0; round < 3; round++) {
            Kernel a = width.acquire(k, RESIDENT / 8, false, false);
            Kernel b = width.acquire(k, 1_111, false, false);
            assertSame(k.signWide(), a, "round " + round);
            assertSame(k.signKeyed(), b, "round " + round);
            width.release(b, 1_111);
            width.release(a, RESIDENT / 8);
        }
        assertSame(k.signWide(), width.acquire(k, RESIDENT / 8, false, false), "every warp released");
    }

    @Test
    void aCallsOnlyChunkOnAnIdleDeviceSignsOnGroupsUpToTheResidentWarps() {
        SigningWidth width = new SigningWidth(true);
        Kernel lone = width.acquire(k, RESIDENT, true, false);
        assertSame(k.signWide(), lone, "2,112 tasks alone on an idle device");
        Kernel second = width.acquire(k, 100, true, false);
        assertSame(k.signKeyed(), second, "another lone chunk while the first is in flight");
        width.release(lone, RESIDENT);
        width.release(second, 100);
        assertSame(k.signKeyed(), width.acquire(k, 1_000, false, false), "a chunk of a call of several");
        width.release(k.signKeyed(), 1_000);
        assertSame(k.signKeyed(), width.acquire(k, RESIDENT + 1, true, false), "more tasks than the device runs warps");
        width.release(k.signKeyed(), RESIDENT + 1);
        Kernel again = width.acquire(k, 1_111, true, false);
        assertSame(k.signWide(), again, "idle again after the releases");
        width.release(again, 1_111);
        assertSame(k.signWide(), width.acquire(k, 1_111, true, false), "every warp released");
    }

    @Test
    void aWholeShareLargerThanTheResidentWarpsSignsHelped() {
        for (boolean groups : new boolean[] {true, false}) {
            SigningWidth width = new SigningWidth(groups);
            Kernel whole = width.acquire(k, 10_000, true, true);
            assertSame(groups ? k.signHelped() : k.signKeyed(), whole,
                    "10,000 tasks, the call's whole share (groups " + groups + ")");
            assertSame(k.signKeyed(), width.acquire(k, 100, true, false),
                    "a lone chunk beside it: the device has keyed signing in flight");
            width.release(k.signKeyed(), 100);
            width.release(whole, 10_000);
            Kernel fits = width.acquire(k, RESIDENT, true, true);
            assertSame(groups ? k.signWide() : k.signKeyed(), fits,
                    "a whole share the device runs at once goes as a lone chunk (groups " + groups + ")");
            width.release(fits, RESIDENT);
            assertSame(groups ? k.signWide() : k.signKeyed(), width.acquire(k, 1_111, true, false),
                    "every warp released (groups " + groups + ")");
        }
    }

    @Test
    void withoutGroupsEveryChunkSignsAWarpATask() {
        SigningWidth width = new SigningWidth(false);
        for (int tasks : new int[] {1, 16, 264}) {
            assertSame(k.signKeyed(), width.acquire(k, tasks, false, false), tasks + " tasks");
            assertSame(k.signKeyed(), width.acquire(k, tasks, true, false), tasks + " tasks, alone");
        }
    }
}
