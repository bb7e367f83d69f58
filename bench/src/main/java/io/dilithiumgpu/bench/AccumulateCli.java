package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.kat.Accumulated;
import io.dilithiumgpu.kat.AccumulationException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Locale;

/**
 * {@code accumulate}: C2SP CCTV's accumulated ML-DSA test ({@link Accumulated}: key generation and
 * deterministic signing of iteration after iteration, hashed in order) on a backend, in batches, so
 * that a GPU does the work and the host only feeds seeds and hashes the results. The result is
 * compared with the hash CCTV publishes for 100, 10,000 and 60,000,000 iterations.
 *
 * <p>With {@code --checkpoint FILE} the run is saved there every {@code --save-seconds} and when it
 * stops, and a later run with the same file goes on from it; {@code --max-seconds} stops a run after
 * that long (exit status 3), so that a long one can go in pieces.
 */
@Command(name = "accumulate", description = "C2SP CCTV's accumulated ML-DSA key generation and deterministic"
        + " signing test (100, 10,000 or 60,000,000 iterations), batched on a backend, resumable")
final class AccumulateCli extends Subcommand {
    /** Exit status of a run stopped by --max-seconds, its state saved for the next. */
    static final int PAUSED = 3;
    private static final double PROGRESS_SECONDS = 30;

    @Option(names = "--set", paramLabel = "ML-DSA-44|65|87", description = "parameter set (default ML-DSA-44)")
    String set = "ML-DSA-44";

    @Option(names = "--iterations", paramLabel = "N", description = "iterations (default 100); CCTV publishes"
            + " 100, 10000 and 60000000")
    String iterations = "100";

    @Option(names = "--backend", paramLabel = "cpu|cuda", description = "backend (default cpu)")
    String backend = "cpu";

    @Option(names = "--batch", paramLabel = "N", converter = OptionTypes.PositiveCount.class,
            description = "iterations per backend call (default 10000)")
    int batch = 10_000;

    @Option(names = "--checkpoint", paramLabel = "FILE", description = "resume from FILE if it exists; save the"
            + " run there every --save-seconds and when it stops")
    Path checkpoint;

    @Option(names = "--save-seconds", paramLabel = "S", converter = OptionTypes.Seconds.class,
            description = "seconds between saves (default 60)")
    double saveSeconds = 60;

    @Option(names = "--max-seconds", paramLabel = "S", converter = OptionTypes.Seconds.class,
            description = "stop after about S seconds (whole batches), save, and exit with status 3; needs"
                    + " --checkpoint")
    Double maxSeconds;

    @Override
    int run(PrintStream out) throws Exception {
        ParameterSet p = parameterSet();
        long n = iterationCount();
        if (maxSeconds != null && checkpoint == null) {
            throw new UsageException("--max-seconds needs --checkpoint, to go on from where it stops");
        }
        Accumulated run;
        if (checkpoint != null && Files.exists(checkpoint)) {
            run = Accumulated.resume(checkpoint);
            if (run.params() != p || run.iterations() != n) {
                throw new UsageException(checkpoint + " holds a run of " + run.iterations() + " " + run.params()
                        + " iterations, not " + n + " " + p);
            }
        } else {
            run = Accumulated.start(p, n);
        }
        Backends.Opened opened = Backends.open(backend);
        if (!opened.available()) {
            out.println("backend " + backend + " unavailable: " + opened.unavailable());
            return Cli.FAILED;
        }
        try (var b = opened.backend()) {
            out.println("accumulated " + p + ", " + count(n) + " iterations on " + opened.name() + " ("
                    + opened.description() + "), batches of " + count(batch)
                    + (run.done() > 0 ? "; resumed from " + checkpoint + " at " + count(run.done()) : ""));
            return go(run, b, out);
        }
    }

    private int go(Accumulated run, Backend b, PrintStream out) throws Exception {
        long started = System.nanoTime();
        long startedAt = run.done();
        double lastSave = 0;
        double lastProgress = 0;
        while (!run.finished()) {
            // Back here for a progress line, a save or the end of the time allowed.
            double saveAt = checkpoint == null ? Double.MAX_VALUE : lastSave + saveSeconds;
            double stopAt = Math.min(Math.min(saveAt, lastProgress + PROGRESS_SECONDS),
                    maxSeconds == null ? Double.MAX_VALUE : maxSeconds);
            try {
                run.run(b, batch, done -> seconds(started) < stopAt);
            } catch (AccumulationException e) {
                out.println("FAILED: " + e.getMessage());
                return Cli.FAILED;
            }
            double elapsed = seconds(started);
            double rate = (run.done() - startedAt) / Math.max(elapsed, 1e-9);
            if (elapsed - lastProgress >= PROGRESS_SECONDS && !run.finished()) {
                lastProgress = elapsed;
                out.printf(Locale.ROOT, "  %s of %s (%.1f %%), %s it/s, %s left%n", count(run.done()),
                        count(run.iterations()), 100.0 * run.done() / run.iterations(), count((long) rate),
                        duration((run.iterations() - run.done()) / Math.max(rate, 1e-9)));
            }
            if (checkpoint != null && elapsed - lastSave >= saveSeconds) {
                lastSave = elapsed;
                run.save(checkpoint);
            }
            if (maxSeconds != null && elapsed >= maxSeconds && !run.finished()) {
                run.save(checkpoint);
                out.printf(Locale.ROOT, "paused at %s of %s after %.0f s (%s it/s); saved to %s: run the same"
                        + " command again to go on%n", count(run.done()), count(run.iterations()), elapsed,
                        count((long) rate), checkpoint);
                return PAUSED;
            }
        }
        double elapsed = (System.nanoTime() - started) / 1e9;
        if (checkpoint != null) {
            run.save(checkpoint);
        }
        String hash = HexFormat.of().formatHex(run.result());
        String published = Accumulated.published(run.params(), run.iterations());
        out.printf(Locale.ROOT, "%s iterations in %.1f s this run (%s it/s)%n", count(run.done() - startedAt),
                elapsed, count((long) ((run.done() - startedAt) / Math.max(elapsed, 1e-9))));
        out.println(run.params() + ", " + count(run.iterations()) + " iterations: accumulated hash " + hash);
        if (published == null) {
            out.println("CCTV publishes no hash for " + count(run.iterations()) + " iterations (it does for 100,"
                    + " 10,000 and 60,000,000)");
            return Cli.OK;
        }
        boolean match = published.equals(hash);
        out.println("CCTV publishes " + published + ": " + (match ? "match" : "MISMATCH"));
        return match ? Cli.OK : Cli.FAILED;
    }

    private ParameterSet parameterSet() throws UsageException {
        try {
            ParameterSet p = ParameterSet.forName(set);
            if (p.isFips204()) {
                return p;
            }
        } catch (IllegalArgumentException e) {
            // reported below
        }
        throw new UsageException("--set must be ML-DSA-44, ML-DSA-65 or ML-DSA-87, not " + set);
    }

    private long iterationCount() throws UsageException {
        try {
            long n = Long.parseLong(iterations.replace("_", "").replace(",", ""));
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException("--iterations must be a count of at least 1, not " + iterations);
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }

    private static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    private static String duration(double seconds) {
        long s = Math.round(seconds);
        return s < 120 ? s + " s" : s < 7200 ? (s / 60) + " min" : String.format(Locale.ROOT, "%.1f h", s / 3600.0);
    }
}
