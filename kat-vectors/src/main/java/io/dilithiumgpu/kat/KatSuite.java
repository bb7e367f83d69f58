package io.dilithiumgpu.kat;

import io.dilithiumgpu.backend.Backend;

import java.util.function.Function;

/**
 * One known-answer suite: a vector file (or ACVP folder), the exact number of vectors it holds,
 * and how to run it against a backend. The files are read, and checked against
 * {@code SHA256SUMS}, when the suite runs.
 */
public final class KatSuite {
    private final String name;
    private final int expectedCases;
    private final Function<Backend, SuiteReport> runner;

    KatSuite(String name, int expectedCases, Function<Backend, SuiteReport> runner) {
        this.name = name;
        this.expectedCases = expectedCases;
        this.runner = runner;
    }

    /** The suite's name: its folder and file, e.g. {@code wycheproof/mldsa_44_verify}. */
    public String name() {
        return name;
    }

    /** How many vectors the suite holds; all of them run, none is skipped. */
    public int expectedCases() {
        return expectedCases;
    }

    /**
     * Runs every vector against the backend.
     *
     * @throws KatDataException if a file is missing, altered, or holds a different number of
     *                          vectors than {@link #expectedCases()}
     */
    public SuiteReport run(Backend backend) {
        SuiteReport report = runner.apply(backend);
        if (report.cases() != expectedCases) {
            throw new KatDataException(name + " ran " + report.cases() + " vectors, expected "
                    + expectedCases);
        }
        return report;
    }

    @Override
    public String toString() {
        return name + " (" + expectedCases + " vectors)";
    }
}
