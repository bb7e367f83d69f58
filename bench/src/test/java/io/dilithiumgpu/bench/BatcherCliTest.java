package io.dilithiumgpu.bench;

import io.dilithiumgpu.batch.Engines;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

@Timeout(120)
class BatcherCliTest {
    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
    private final PrintStream err = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

    /** The CLI's output with {@code args} in a JVM of its own (the provider's batcher unopened), which exits OK. */
    private static String inFreshJvm(String... args) throws Exception {
        Process p = new ProcessBuilder(ChildJvm.command(null, List.of(args))).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(Cli.OK, p.waitFor(), text);
        return text;
    }

    @Test
    void theStandInRunReportsEveryStageAndTheCpu() {
        assertEquals(Cli.OK, Cli.run(new String[] {"batcher", "--callers", "8", "--batch-micros", "500",
                "--seconds", "0.3", "--warmup-seconds", "0.1"}, out, err));
        String text = outBytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("stand-in backend 500 µs per batch"), text);
        assertTrue(text.contains("8 callers: "), text);
        assertTrue(text.contains("per batch: hand-off "), text);
        assertTrue(text.contains("cpu: "), text);
    }

    @Test
    void withoutABatcherTheHandOffAloneIsMeasured() {
        assertEquals(Cli.OK, Cli.run(new String[] {"batcher", "--backend", "none", "--callers", "16,64",
                "--batch-micros", "200", "--completers", "3", "--seconds", "0.3", "--warmup-seconds", "0.1"}, out, err));
        String text = outBytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("no batcher: 3 platform threads complete every waiting future once per 200 µs"),
                text);
        java.util.regex.Matcher m = java.util.regex.Pattern
                .compile("64 callers: ([0-9,]+) ops/s; ([0-9.,]+) futures per completion round").matcher(text);
        assertTrue(m.find(), text);
        assertTrue(Long.parseLong(m.group(1).replace(",", "")) > 0, text);
        assertTrue(Double.parseDouble(m.group(2).replace(",", "")) >= 1, "rounds complete at least one future: " + text);
    }

    /**
     * {@code --via jca} opens the provider's shared batcher over the stand-in, so it runs in a JVM of
     * its own: every operation and style, each with its CPU and garbage per call.
     */
    @Test
    void throughJcaEveryStyleIsMeasuredInAFreshJvm() throws Exception {
        String text = inFreshJvm("batcher", "--via", "jca", "--callers", "8",
                "--batch-micros", "500", "--seconds", "0.2", "--warmup-seconds", "0.1");
        for (String run : List.of("sign reuse", "sign getInstance", "verify reuse", "verify getInstance")) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile(run + ", 8 callers: ([0-9,]+) ops/s; .*cpu: .*"
                    + "per call [0-9.]+ µs.*; ([0-9,]+) bytes allocated per call").matcher(text);
            assertTrue(m.find(), run + ":\n" + text);
            assertTrue(Long.parseLong(m.group(1).replace(",", "")) > 0, text);
        }
    }

    /** {@code --rate}: the JCA path over the stand-in under open-loop arrivals, its percentiles and windows. */
    @Test
    void throughJcaAtARateTheOpenLoopIsMeasuredInAFreshJvm() throws Exception {
        String text = inFreshJvm("batcher", "--via", "jca", "--rate", "2000",
                "--ops", "verify", "--style", "reuse", "--batch-micros", "500", "--seconds", "0.1",
                "--warmup-seconds", "0.05", "--jit-quiet-seconds", "0.1");
        assertTrue(text.contains("JCA calls arriving at 2,000 per second (0.05 s or more unmeasured, until the JIT is"
                + " quiet, then 0.1 s)"), text);
        assertTrue(text.matches("(?s).*\nverify reuse at 2,000/s \\(CPU, bytes and collections of the lead-in too\\):"
                + " p50 [0-9.]+ ms, p99 [0-9.]+ ms, p99\\.9 [0-9.]+ ms, max [0-9.]+ ms; [0-9]+ batches of .*"), text);
        assertTrue(text.contains("\n  50 ms windows: ") && text.contains(" of 2 slow (a call over 10 ms), ")
                && text.contains(" in the lead-in; slowest at +"), text);
    }

    @Test
    void aRateNeedsTheJcaPath() {
        assertEquals(Cli.USAGE, Cli.run(new String[] {"batcher", "--rate", "1000"}, out, err));
    }

    @Test
    void throughJcaIsRefusedOnceTheProviderHasOpenedItsBatcher() {
        Engines.sharedBatcher();
        assertEquals(Cli.FAILED, Cli.run(new String[] {"batcher", "--via", "jca", "--callers", "4", "--seconds", "0.1"},
                out, err));
        assertTrue(outBytes.toString(StandardCharsets.UTF_8).contains("needs a JVM whose provider has not opened its"
                + " batcher yet"), outBytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theSigningLoopsAreModelledThroughJcaOnly() {
        assertEquals(Cli.USAGE, Cli.run(new String[] {"batcher", "--attempt-micros", "100", "--callers", "4"}, out, err));
        assertEquals(Cli.USAGE, Cli.run(new String[] {"batcher", "--untold", "--callers", "4"}, out, err));
        assertEquals(Cli.USAGE, Cli.run(new String[] {"batcher", "--via", "jca", "--attempt-micros", "100",
                "--mean-attempts", "0.5"}, out, err));
    }

    /** {@code --attempt-micros}: signing callers over the stand-in's rejection loops, each told as its task ends. */
    @Test
    void throughJcaTheSigningLoopsTellTheirCallersEarly() throws Exception {
        String text = inFreshJvm("batcher", "--via", "jca", "--ops", "sign",
                "--style", "reuse", "--callers", "8", "--batch-micros", "100", "--attempt-micros", "50",
                "--seconds", "0.2", "--warmup-seconds", "0.1");
        assertTrue(text.contains("signing 4.25 attempts of 50 µs on average after it, each caller told as its task"
                + " ends"), text);
        assertTrue(text.contains("sign reuse, 8 callers: "), text);
    }

    @Test
    void anUnknownBackendIsAUsageError() {
        assertEquals(Cli.USAGE, Cli.run(new String[] {"batcher", "--backend", "fpga"}, out, err));
    }

    @Test
    void withoutAGpuTheCudaRunSaysWhyAndFails() {
        assumeFalse(new java.io.File("/dev/nvidia0").exists(), "an NVIDIA device node exists");
        assertEquals(Cli.FAILED, Cli.run(new String[] {"batcher", "--backend", "cuda", "--callers", "4",
                "--seconds", "0.1"}, out, err));
        assertTrue(outBytes.toString(StandardCharsets.UTF_8).contains("CUDA backend unavailable"),
                outBytes.toString(StandardCharsets.UTF_8));
    }
}
