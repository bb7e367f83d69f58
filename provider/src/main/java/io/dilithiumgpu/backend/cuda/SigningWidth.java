package io.dilithiumgpu.backend.cuda;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many warps each task of a cached-key signing chunk gets on its device: one
 * ({@code sign_keyed_<set>}), or a group that shares the task's rejection loop
 * ({@code sign_keyed_wide_<set>}, the kernels' {@code sign_wide.cuh}) while the device's signing
 * warps would otherwise idle.
 *
 * <p>A warp's loop runs its iterations one after another, and a small launch waits for its
 * slowest loop while most of the GPU stands still; a group tries several iterations side by side,
 * so the launch ends sooner, at the cost of iterations drawn past the accepted one. That cost
 * takes throughput from a busy GPU, so a chunk goes wide only when its groups, with every keyed
 * signing warp in flight on the device, fill at most half the warps the device runs at once (up to
 * all of them, the JCA table's 1,024 and 4,096 callers read lower; docs/performance.md), or when
 * it is its call's only chunk and the device has no keyed signing in flight: alone, a chunk of up
 * to as many tasks as the device runs warps ends sooner on groups (a launch of 1,111 tasks in about
 * half the time), and no other chunk waits behind its groups. A chunk that holds its call's whole
 * share of the device and more tasks than the device runs signing warps at once signs on
 * {@code sign_keyed_helped_<set>}: one warp a task, and once no task is left to take, warps that
 * help the tasks still signing, so that the launch does not end one loop at a time. One per
 * device; thread-safe.
 */
final class SigningWidth {
    /** Whether chunks may go wide, or helped ({@link CudaConfig#wideSigning()}). */
    private final boolean groups;
    /** Keyed signing warps launched on the device and not yet finished. */
    private final AtomicInteger inFlight = new AtomicInteger();

    SigningWidth(boolean groups) {
        this.groups = groups;
    }

    /**
     * The kernel for a signing chunk of {@code tasks} tasks, counted in flight until
     * {@link #release}: {@code k.signWide()} when its groups and the warps in flight fill at most
     * half the device's signing warps, or when the chunk is its call's only one ({@code lone}), the
     * device has no keyed signing in flight and the chunk has at most as many tasks as the device
     * runs signing warps at once; {@code k.signHelped()} when the chunk holds its call's whole share
     * of the device ({@code whole}: no other chunk of the call queues behind its helpers) and has more
     * tasks than that; else {@code k.signKeyed()}.
     */
    Kernel acquire(KeyedKernels k, int tasks, boolean lone, boolean whole) {
        if (groups && whole && tasks > k.signKeyed().residentTasks()) {
            inFlight.addAndGet(tasks);
            return k.signHelped();
        }
        if (!groups) {
            inFlight.addAndGet(tasks);
            return k.signKeyed();
        }
        int wide = tasks * warpsPerTask(k.signWide());
        int resident = k.signKeyed().residentTasks();
        if (lone && tasks <= resident && inFlight.compareAndSet(0, wide)
                || inFlight.addAndGet(wide) <= resident / 2) {
            return k.signWide();
        }
        inFlight.addAndGet(tasks - wide);
        return k.signKeyed();
    }

    /** Ends the count of a chunk of {@code tasks} tasks that {@link #acquire} gave {@code kernel}. */
    void release(Kernel kernel, int tasks) {
        inFlight.addAndGet(-tasks * warpsPerTask(kernel));
    }

    /** Warps per task: a block's warps, since every block of a signing kernel runs one task at a time. */
    static int warpsPerTask(Kernel kernel) {
        return kernel.config().threads() / 32 / kernel.config().tasksPerBlock();
    }
}
