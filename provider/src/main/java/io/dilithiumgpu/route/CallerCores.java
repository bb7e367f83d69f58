package io.dilithiumgpu.route;

/**
 * The cores on which callers' direct calls can run at once: the process's processors, or the
 * virtual threads' carriers where the application set fewer ({@value #PARALLELISM}). A virtual
 * thread runs only on a carrier, so with 16 carriers on 64 processors at most 16 direct calls run
 * and the other callers wait for a carrier unseen. Counting 64 cores there, the router never saw
 * the cores full: no yield of a carrier, no trial of the batch route, and every call stayed
 * direct, at the carriers' CPU speed (docs/perf-log/second-wave-2026-11-27.md, "Fewer carriers").
 *
 * <p>The CPU the process may use is still the processors' ({@link HostLoad}); only the count of
 * calls that run at once is the carriers'.
 */
final class CallerCores {
    /** The JDK's setting of the virtual threads' scheduler's carriers (its default: the processors). */
    static final String PARALLELISM = "jdk.virtualThreadScheduler.parallelism";

    private CallerCores() {}

    /** This process's: its processors and its setting of {@value #PARALLELISM}. */
    static int current() {
        return of(Runtime.getRuntime().availableProcessors(), System.getProperty(PARALLELISM));
    }

    /**
     * {@code processors}, or {@code parallelism} where it names fewer carriers; a setting that is
     * not a positive integer leaves the processors (the JDK refuses to start its scheduler with it).
     */
    static int of(int processors, String parallelism) {
        if (parallelism == null) {
            return processors;
        }
        try {
            int carriers = Integer.parseInt(parallelism.trim());
            return carriers >= 1 ? Math.min(processors, carriers) : processors;
        } catch (NumberFormatException e) {
            return processors;
        }
    }
}
