package io.dilithiumgpu.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** {@code accumulate}: CCTV's 100 iterations on the CPU, in one go and in pieces through a checkpoint. */
@Timeout(300)
class AccumulateCliTest {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    private int run(String... argv) {
        bytes.reset();
        return Cli.run(argv, out, out);
    }

    private String text() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void hundredIterationsOnTheCpuMatchCctv() {
        assertEquals(Cli.OK, run("accumulate", "--iterations", "100", "--backend", "cpu", "--batch", "50"), text());
        assertTrue(text().contains("ML-DSA-44, 100 iterations: accumulated hash "
                + "d51148e1f9f4fa1a723a6cf42e25f2a99eb5c1b378b3d2dbbd561b1203beeae4"), text());
        assertTrue(text().endsWith(": match\n"), text());
    }

    @Test
    void aRunStoppedByItsTimeLimitGoesOnFromItsCheckpoint(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("run.checkpoint");
        String[] argv = {"accumulate", "--set", "ML-DSA-65", "--iterations", "100", "--batch", "5",
                "--checkpoint", file.toString(), "--max-seconds", "0.001"};
        assertEquals(AccumulateCli.PAUSED, run(argv), text());
        // The first batch, and the one under way when time ran out.
        assertTrue(text().contains("paused at 10 of 100"), text());
        assertTrue(Files.readString(file).contains("done 10\n"));
        assertEquals(Cli.OK, run("accumulate", "--set", "ML-DSA-65", "--iterations", "100", "--batch", "5",
                "--checkpoint", file.toString()), text());
        assertTrue(text().contains("resumed from " + file + " at 10"), text());
        assertTrue(text().contains("8358a1843220194417cadbc2651295cd8fc65125b5a5c1a239a16dc8b57ca199: match"), text());
    }

    @Test
    void optionsThatCannotRunAreUsageErrors(@TempDir Path dir) throws Exception {
        assertEquals(Cli.USAGE, run("accumulate", "--set", "Dilithium2"));
        assertEquals(Cli.USAGE, run("accumulate", "--iterations", "0"));
        assertEquals(Cli.USAGE, run("accumulate", "--max-seconds", "10"));
        Path file = dir.resolve("run.checkpoint");
        assertEquals(AccumulateCli.PAUSED, run("accumulate", "--iterations", "100", "--batch", "10",
                "--checkpoint", file.toString(), "--max-seconds", "0.001"));
        assertEquals(Cli.USAGE, run("accumulate", "--iterations", "10000", "--checkpoint", file.toString()), text());
    }
}
