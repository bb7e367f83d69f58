package io.dilithiumgpu.kat;

import java.util.ArrayList;
import java.util.List;

/** The reports of a run of several suites against one backend, and their count table. */
public final class KatReport {
    private final String backend;
    private final List<SuiteReport> suites;

    public KatReport(String backend, List<SuiteReport> suites) {
        this.backend = backend;
        this.suites = List.copyOf(suites);
    }

    public String backend() { return backend; }
    public List<SuiteReport> suites() { return suites; }

    public int cases() { return suites.stream().mapToInt(SuiteReport::cases).sum(); }
    public int failed() { return suites.stream().mapToInt(SuiteReport::failed).sum(); }

    /** Every failure, prefixed with its suite. */
    public List<String> failures() {
        List<String> out = new ArrayList<>();
        for (SuiteReport s : suites) {
            for (SuiteReport.Failure f : s.failures()) {
                out.add(s.suite() + " " + f);
            }
        }
        return out;
    }

    /** The per-suite count table, one line per suite and a total. */
    public String table() {
        return table(backend, suites);
    }

    /** The count table for any list of suite reports. */
    public static String table(String backend, List<SuiteReport> suites) {
        int width = "suite".length();
        for (SuiteReport s : suites) {
            width = Math.max(width, s.suite().length());
        }
        String row = "%-" + width + "s %7s %7s %10s %7s %10s%n";
        StringBuilder sb = new StringBuilder();
        sb.append("Known-answer tests on backend '").append(backend).append("'\n");
        sb.append(String.format(row, "suite", "cases", "passed", "rejections", "failed", "acceptable"));
        int cases = 0, passed = 0, rejections = 0, failed = 0, acceptable = 0;
        for (SuiteReport s : suites) {
            sb.append(String.format(row, s.suite(), s.cases(), s.passed(), s.rejections(),
                    s.failed(), s.acceptable()));
            cases += s.cases();
            passed += s.passed();
            rejections += s.rejections();
            failed += s.failed();
            acceptable += s.acceptable();
        }
        sb.append(String.format(row, "total", cases, passed, rejections, failed, acceptable));
        return sb.toString();
    }
}
