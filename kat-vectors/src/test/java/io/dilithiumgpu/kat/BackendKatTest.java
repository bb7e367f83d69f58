package io.dilithiumgpu.kat;

import io.dilithiumgpu.backend.Backend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * Every known-answer suite against one backend, one JUnit test per suite so that the test
 * reports carry the counts. A subclass supplies the backend; the vectors come from
 * {@link KatDirectory#locate()}, and their absence fails every test (it never skips).
 *
 * <p>Each suite must report zero failures, its exact vector count, and every vector either
 * passed or (Wycheproof) acceptable. The per-suite count table is printed when the class ends.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class BackendKatTest {
    private static final Duration SUITE_LIMIT = Duration.ofMinutes(10);

    private Backend backend;
    private KatFiles files;
    private final List<SuiteReport> reports = Collections.synchronizedList(new ArrayList<>());

    /** The backend under test; closed by this class after the last suite. */
    protected abstract Backend createBackend();

    @BeforeAll
    void openVectorsAndBackend() {
        files = KatFiles.open(KatDirectory.locate());
        backend = createBackend();
    }

    @AfterAll
    void closeAndPrintTable() {
        if (backend != null) {
            System.out.print(KatReport.table(backend.name(), reports));
            backend.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> everySuite() {
        return KatSuites.all(files).stream().map(suite -> dynamicTest(suite.toString(), () -> {
            // A batch whose task the backend lost would wait forever; @Timeout does not reach dynamic tests.
            SuiteReport report = assertTimeoutPreemptively(SUITE_LIMIT, () -> suite.run(backend), suite.name());
            reports.add(report);
            System.out.println(report);
            List<String> details = new ArrayList<>();
            report.failures().forEach(f -> details.add(f.toString()));
            assertEquals(List.of(), details, suite.name() + ": " + report);
            assertEquals(suite.expectedCases(), report.cases(), suite.name() + " vector count");
            assertEquals(report.cases(), report.passed() + report.acceptable(), suite.name());
        }));
    }
}
