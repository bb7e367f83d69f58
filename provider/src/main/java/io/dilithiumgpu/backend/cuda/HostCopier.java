package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.ProviderThreads;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Splits a copy between Java arrays and pinned memory over several threads. One thread fills
 * pinned memory more slowly than a PCIe link carries it and far more slowly than the kernels
 * consume it (docs/performance.md, Ceilings), so chunks of more than {@value #MIN_PART_BYTES}
 * bytes are cut into task ranges that run in parallel: the calling thread takes the first range,
 * pool threads the others.
 *
 * <p>Thread safety: safe for concurrent callers; every call returns only after all its ranges are
 * done, so no pool thread touches the caller's memory afterwards.
 */
final class HostCopier implements AutoCloseable {

    /** Bytes below which a range is not worth a thread hand-off. */
    static final long MIN_PART_BYTES = 1 << 20;

    /** The work on task range {@code [from, to)}. */
    @FunctionalInterface
    interface Part {
        void run(int from, int to);
    }

    private final int threads;
    private final ExecutorService pool;

    /** @param threads threads per copy, the caller included, at least 1 */
    HostCopier(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("copy threads must be positive");
        }
        this.threads = threads;
        if (threads == 1) {
            this.pool = null;
        } else {
            AtomicInteger counter = new AtomicInteger();
            this.pool = new ThreadPoolExecutor(threads - 1, threads - 1, 30, TimeUnit.SECONDS,
                    new LinkedBlockingQueue<>(), r -> {
                        Thread t = ProviderThreads.register(
                                new Thread(r, "dilithiumgpu-cuda-copy-" + counter.incrementAndGet()));
                        t.setDaemon(true);
                        return t;
                    });
            ((ThreadPoolExecutor) pool).allowCoreThreadTimeOut(true);
        }
    }

    /**
     * Runs {@code part} over {@code [0, tasks)}, cut into at most {@code threads} ranges of at
     * least {@link #MIN_PART_BYTES} bytes each.
     *
     * @param bytesPerTask bytes one task moves, to size the ranges
     */
    void forEachPart(int tasks, long bytesPerTask, Part part) {
        int parts = partCount(tasks, bytesPerTask, threads);
        if (parts == 1) {
            part.run(0, tasks);
            return;
        }
        List<CompletableFuture<Void>> others = new ArrayList<>(parts - 1);
        for (int i = 1; i < parts; i++) {
            int from = bound(tasks, parts, i);
            int to = bound(tasks, parts, i + 1);
            others.add(CompletableFuture.runAsync(() -> part.run(from, to), pool));
        }
        RuntimeException first = null;
        try {
            part.run(0, bound(tasks, parts, 1));
        } catch (RuntimeException e) {
            first = e;
        }
        for (CompletableFuture<Void> f : others) {
            try {
                f.join();
            } catch (CompletionException e) {
                RuntimeException cause = e.getCause() instanceof RuntimeException r ? r : e;
                if (first == null) {
                    first = cause;
                } else if (first != cause) {
                    first.addSuppressed(cause);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** Ranges for {@code tasks} tasks of {@code bytesPerTask} bytes on {@code threads} threads. */
    static int partCount(int tasks, long bytesPerTask, int threads) {
        long total = (long) tasks * bytesPerTask;
        long byBytes = Math.max(1, total / MIN_PART_BYTES);
        return (int) Math.max(1, Math.min(Math.min(byBytes, threads), tasks));
    }

    /** Start of range {@code i} of {@code parts} over {@code [0, tasks)}: balanced to within one task. */
    static int bound(int tasks, int parts, int i) {
        return (int) ((long) tasks * i / parts);
    }

    @Override
    public void close() {
        if (pool != null) {
            pool.shutdown();
        }
    }
}
