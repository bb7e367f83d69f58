package io.dilithiumgpu.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class DriverCallsCliTest {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    private static boolean gpu() {
        return new java.io.File("/dev/nvidia0").exists();
    }

    @Test
    @Timeout(60)
    void withoutAGpuItSaysWhyAndFails() {
        assumeFalse(gpu(), "an NVIDIA device node exists");
        assertEquals(Cli.FAILED, Cli.run(new String[] {"driver-calls", "--calls", "10"}, out, out));
        assertTrue(bytes.toString(StandardCharsets.UTF_8).startsWith("driver-calls: no CUDA device to measure: "),
                bytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    @Timeout(120)
    void onAGpuItPrintsEveryCallForEachColumn() {
        assumeTrue(gpu(), "no NVIDIA device node");
        assertEquals(Cli.OK, Cli.run(new String[] {"driver-calls", "--calls", "300", "--threads", "1,2"}, out, out));
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("µs per call  1 thread  2 threads"), text);
        for (String call : new String[] {"cuCtxSetCurrent", "cuLaunchKernel, JCuda argument objects",
                "chunk: its ten calls", "graph of the chunk: synchronize"}) {
            assertTrue(text.contains("\n" + call + " "), call + " in\n" + text);
        }
    }

    @Test
    void aThreadCountBelowOneIsAUsageError() {
        assertEquals(Cli.USAGE, Cli.run(new String[] {"driver-calls", "--threads", "0"}, out, out));
    }
}
