package io.dilithiumgpu.kat;

import java.util.ArrayList;
import java.util.List;

/**
 * The outcome of one suite (one vector file, or one ACVP folder) against one backend. Every
 * vector counts exactly once: {@code cases = passed + failed + acceptable}; {@code rejections}
 * is the part of {@code passed} whose expected answer was a refusal.
 */
public final class SuiteReport {

    /** One vector that did not get its expected answer. */
    public record Failure(String caseId, String reason) {
        @Override
        public String toString() {
            return caseId + ": " + reason;
        }
    }

    private final String suite;
    private final int passed;
    private final int rejections;
    private final int acceptable;
    private final List<Failure> failures;
    private final List<String> acceptableOutcomes;

    private SuiteReport(Builder b) {
        this.suite = b.suite;
        this.passed = b.passed;
        this.rejections = b.rejections;
        this.acceptable = b.acceptableOutcomes.size();
        this.failures = List.copyOf(b.failures);
        this.acceptableOutcomes = List.copyOf(b.acceptableOutcomes);
    }

    public String suite() { return suite; }
    public int cases() { return passed + failures.size() + acceptable; }
    public int passed() { return passed; }
    /** Passed vectors whose expected answer was a refusal (invalid inputs caught). */
    public int rejections() { return rejections; }
    public int failed() { return failures.size(); }
    public int acceptable() { return acceptable; }
    public List<Failure> failures() { return failures; }
    /** For each acceptable vector, what the provider did with it. */
    public List<String> acceptableOutcomes() { return acceptableOutcomes; }

    @Override
    public String toString() {
        return suite + ": " + cases() + " cases, " + passed + " passed (" + rejections
                + " rejections), " + failed() + " failed, " + acceptable + " acceptable";
    }

    /** Accumulates case results; single-threaded. */
    static final class Builder {
        private final String suite;
        private int passed;
        private int rejections;
        private final List<Failure> failures = new ArrayList<>();
        private final List<String> acceptableOutcomes = new ArrayList<>();

        Builder(String suite) {
            this.suite = suite;
        }

        /**
         * Scores one vector: a VALID vector passes when nothing was refused and nothing differs;
         * an INVALID one passes when it was refused; an ACCEPTABLE one is counted apart with
         * its outcome noted.
         */
        Builder add(CaseResult r) {
            switch (r.expected) {
                case VALID:
                    if (r.refused()) {
                        failures.add(new Failure(r.id, "refused a valid vector: " + r.refusal()));
                    } else if (!r.mismatches().isEmpty()) {
                        failures.add(new Failure(r.id, String.join("; ", r.mismatches())));
                    } else {
                        passed++;
                    }
                    break;
                case INVALID:
                    if (r.refused()) {
                        passed++;
                        rejections++;
                    } else {
                        failures.add(new Failure(r.id, "accepted an invalid vector"
                                + (r.mismatches().isEmpty() ? "" : " (" + String.join("; ", r.mismatches()) + ")")));
                    }
                    break;
                case ACCEPTABLE:
                    acceptableOutcomes.add(r.id + ": " + (r.refused() ? "refused: " + r.refusal()
                            : r.mismatches().isEmpty() ? "accepted" : "accepted; " + String.join("; ", r.mismatches())));
                    break;
                default:
                    throw new AssertionError(r.expected);
            }
            return this;
        }

        SuiteReport build() {
            return new SuiteReport(this);
        }
    }
}
