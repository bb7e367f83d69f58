package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.batch.BackendPolicy;
import io.dilithiumgpu.batch.BackendSelector;
import io.dilithiumgpu.batch.BatchConfig;
import io.dilithiumgpu.batch.SelfTest;
import io.dilithiumgpu.kat.KatDataException;
import io.dilithiumgpu.kat.KatDirectory;
import io.dilithiumgpu.kat.KatFiles;
import io.dilithiumgpu.kat.KatReport;
import io.dilithiumgpu.kat.KatSuite;
import io.dilithiumgpu.kat.KatSuites;
import io.dilithiumgpu.kat.SuiteReport;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code selftest}: the known answers compiled into the provider ({@link SelfTest}, no files), then
 * every known-answer suite of {@code io.dilithiumgpu.kat} (NIST round 3.1 KATs, ACVP, Wycheproof)
 * when a vector directory is found, against one backend: the one the provider would select, or the
 * one named by {@code --backend}. Prints the per-suite counts; exits with status 1 on any failure.
 */
@Command(name = "selftest",
        description = "the known answers compiled into the provider, then every known-answer suite (NIST r3.1 KAT,"
                + " ACVP, Wycheproof) when vectors are found, against a backend")
public final class SelftestCli extends Subcommand {
    /** Failures listed one per line before the rest are summarised. */
    static final int LISTED_FAILURES = 20;
    /** A vector directory shipped beside the jar or in the working directory. */
    static final String BUNDLED = "vectors";

    /** The backend {@code --backend} puts under test. */
    enum BackendChoice {
        AUTO, CPU, CUDA;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    @Option(names = "--backend", paramLabel = "auto|cpu|cuda", description = "backend under test (default: what the"
            + " provider selects, i.e. " + BatchConfig.BACKEND_PROPERTY + ", else auto)")
    BackendChoice backend;

    @Option(names = "--kat-dir", paramLabel = "DIR", description = "vector directory with SHA256SUMS (default"
            + " -Dkat.dir, " + KatDirectory.FALLBACK + " from the repository root, or ./" + BUNDLED + ")")
    Path katDir;

    @Option(names = "--out", paramLabel = "DIR", description = "also write selftest.csv there")
    Path outDir;

    @Override
    int run(PrintStream out) throws Exception {
        String policy = backend != null ? backend.toString() : configuredPolicy();
        Optional<Path> dir = vectorDirectory(katDir);
        Backend backend;
        String why;
        if (policy.equals("auto")) {
            BackendSelector.Selection s = BackendSelector.select(BackendPolicy.AUTO);
            backend = s.primary();
            why = s.reason();
        } else {
            Backends.Opened opened = Backends.open(policy);
            if (!opened.available()) {
                out.println("backend " + policy + " unavailable: " + opened.unavailable());
                return Cli.FAILED;
            }
            backend = opened.backend();
            why = opened.description();
        }
        out.println("dilithium-gpu selftest: backend " + backend.name() + " (" + why + ")");
        out.println("vectors: " + dir.map(Path::toString).orElse("none found (-Dkat.dir, " + KatDirectory.FALLBACK
                + " from the repository root, ./" + BUNDLED + "; --kat-dir DIR names them): the known answers"
                + " compiled into the provider only"));

        List<SuiteReport> reports = new ArrayList<>();
        List<String> dataProblems = new ArrayList<>();
        SelfTest.Result known;
        try (Backend b = backend) {
            known = SelfTest.run(b);
            out.println("known answers compiled into the provider: " + known);
            for (KatSuite suite : dir.isPresent() ? KatSuites.all(KatFiles.open(dir.get())) : List.<KatSuite>of()) {
                long start = System.nanoTime();
                try {
                    reports.add(suite.run(b));
                } catch (KatDataException e) {
                    dataProblems.add(suite.name() + ": " + e.getMessage());
                }
                System.err.printf(Locale.ROOT, "[selftest] %s done in %.1f s%n", suite.name(),
                        (System.nanoTime() - start) / 1e9);
            }
        }
        KatReport report = new KatReport(backend.name(), reports);
        if (dir.isPresent()) {
            out.println();
            out.print(report.table());
        }
        List<String> failures = report.failures();
        for (int i = 0; i < Math.min(LISTED_FAILURES, failures.size()); i++) {
            out.println("FAILED " + failures.get(i));
        }
        if (failures.size() > LISTED_FAILURES) {
            out.println("... and " + (failures.size() - LISTED_FAILURES) + " more failures");
        }
        dataProblems.forEach(p -> out.println("NOT RUN " + p));
        if (outDir != null) {
            Path file = outDir.resolve("selftest.csv");
            csv(backend.name(), reports).write(file);
            out.println("wrote " + file);
        }
        boolean ok = known.passed() && failures.isEmpty() && dataProblems.isEmpty();
        String answers = known.checks() + " compiled-in known answers";
        out.println(ok ? "selftest passed: " + (dir.isPresent() ? Format.count(report.cases()) + " vectors and " : "")
                + answers
                : "selftest FAILED: " + known.failures().size() + " of " + answers + ", " + failures.size()
                        + " failed vectors, " + dataProblems.size() + " suites not run");
        return ok ? Cli.OK : Cli.FAILED;
    }

    /**
     * {@link BatchConfig#BACKEND_PROPERTY} when it names auto, cpu or cuda ({@code cuda-required}
     * counts as cuda: an unavailable backend fails the self-test); else a usage error.
     */
    private static String configuredPolicy() throws UsageException {
        String v = System.getProperty(BatchConfig.BACKEND_PROPERTY, BackendPolicy.AUTO.toString()).toLowerCase(Locale.ROOT)
                .strip().replace(BackendPolicy.CUDA_REQUIRED.toString(), "cuda");
        for (BackendChoice c : BackendChoice.values()) {
            if (c.toString().equals(v)) {
                return v;
            }
        }
        throw new UsageException(BatchConfig.BACKEND_PROPERTY + " must be auto, cpu or cuda here: " + v);
    }

    /**
     * The vector directory: {@code --kat-dir}; else {@link KatDirectory#locate()} (the {@code kat.dir}
     * property or {@code ../shared/kat-vectors} from the repository root); else a {@code vectors/}
     * directory in the working directory or beside the jar.
     */
    static Optional<Path> vectorDirectory(Path katDir) throws UsageException {
        if (katDir != null) {
            if (!Files.isRegularFile(katDir.resolve(KatFiles.SUMS))) {
                throw new UsageException("--kat-dir " + katDir + " has no " + KatFiles.SUMS);
            }
            return Optional.of(katDir);
        }
        try {
            return Optional.of(KatDirectory.locate());
        } catch (KatDataException notThere) {
            for (Path candidate : bundledCandidates()) {
                if (Files.isRegularFile(candidate.resolve(KatFiles.SUMS))) {
                    return Optional.of(candidate);
                }
            }
            return Optional.empty();
        }
    }

    /** ./vectors, and vectors/ beside the jar when the classes come from one. */
    private static List<Path> bundledCandidates() {
        List<Path> out = new ArrayList<>(List.of(Path.of(BUNDLED)));
        CodeSource source = SelftestCli.class.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return out;
        }
        try {
            Path code = Path.of(source.getLocation().toURI());
            if (Files.isRegularFile(code) && code.getParent() != null) {
                out.add(code.getParent().resolve(BUNDLED));
            }
        } catch (URISyntaxException | IllegalArgumentException e) {
            return out;
        }
        return out;
    }

    static Csv csv(String backend, List<SuiteReport> reports) {
        Csv csv = new Csv("backend", "suite", "cases", "passed", "rejections", "failed", "acceptable");
        for (SuiteReport r : reports) {
            csv.row(backend, r.suite(), r.cases(), r.passed(), r.rejections(), r.failed(), r.acceptable());
        }
        return csv;
    }
}
