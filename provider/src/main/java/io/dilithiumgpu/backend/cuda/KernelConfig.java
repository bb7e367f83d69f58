package io.dilithiumgpu.backend.cuda;

/**
 * The launch configuration a kernel publishes in its {@code <entry>_cfg} global
 * ({@code batch_abi.h}), checked once when the module is loaded.
 *
 * @param threads          blockDim.x, in [1, 1024]
 * @param tasksPerBlock    workers per block (one task each at a time), at least 1
 * @param sharedBytes      dynamic shared memory per block, at least 0
 * @param persistent       0 for one block per {@code tasksPerBlock} tasks; k &gt; 0 for at most
 *                         k blocks per multiprocessor that pull work from the scratch counters
 * @param workspacePerTask bytes of global workspace per worker, at least 0; worker w owns
 *                         {@code [w·workspacePerTask, (w+1)·workspacePerTask)}
 */
record KernelConfig(int threads, int tasksPerBlock, int sharedBytes, int persistent, int workspacePerTask) {

    /** The largest dynamic shared memory a launch may use without opting in. */
    static final int DEFAULT_SHARED_LIMIT = 48 * 1024;

    KernelConfig {
        if (threads < 1 || threads > 1024) {
            throw new IllegalArgumentException("threads per block " + threads + " not in [1, 1024]");
        }
        if (tasksPerBlock < 1) {
            throw new IllegalArgumentException("tasks per block " + tasksPerBlock + " < 1");
        }
        if (sharedBytes < 0 || persistent < 0 || workspacePerTask < 0) {
            throw new IllegalArgumentException("negative shared memory, persistence or workspace");
        }
    }

    /** Decodes the {@link BatchAbi#CFG_WORDS} words of an {@code <entry>_cfg} global. */
    static KernelConfig fromWords(int[] cfg) {
        if (cfg.length != BatchAbi.CFG_WORDS) {
            throw new IllegalArgumentException("a launch configuration has " + BatchAbi.CFG_WORDS
                    + " words, not " + cfg.length);
        }
        return new KernelConfig(cfg[BatchAbi.CFG_THREADS], cfg[BatchAbi.CFG_TASKS], cfg[BatchAbi.CFG_SMEM],
                cfg[BatchAbi.CFG_PERSISTENT], cfg[BatchAbi.CFG_WORKSPACE]);
    }

    /** True when the kernel needs more dynamic shared memory than a launch gets by default. */
    boolean needsSharedOptIn() {
        return sharedBytes > DEFAULT_SHARED_LIMIT;
    }

    /**
     * Blocks to launch for {@code n} tasks: ceil(n / tasksPerBlock), capped at
     * persistent × multiprocessors for persistent kernels.
     *
     * @param n               tasks in the launch, at least 1
     * @param multiprocessors the device's multiprocessor count, at least 1
     */
    int gridFor(int n, int multiprocessors) {
        if (n < 1 || multiprocessors < 1) {
            throw new IllegalArgumentException("n and multiprocessors must be positive");
        }
        long blocks = (n + (long) tasksPerBlock - 1) / tasksPerBlock;
        if (persistent > 0) {
            blocks = Math.min(blocks, (long) persistent * multiprocessors);
        }
        return (int) blocks;
    }

    /**
     * Workers that take part in a launch of {@code n} tasks: min(n, grid × tasksPerBlock)
     * ({@code batch_abi.h}: workers with an index of n or more exit at once).
     */
    long workersFor(int n, int multiprocessors) {
        return Math.min(n, (long) gridFor(n, multiprocessors) * tasksPerBlock);
    }

    /** Bytes of workspace a launch of {@code n} tasks touches: one slice per worker. */
    long workspaceBytes(int n, int multiprocessors) {
        return workersFor(n, multiprocessors) * workspacePerTask;
    }
}
