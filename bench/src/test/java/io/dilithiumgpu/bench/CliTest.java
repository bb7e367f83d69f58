package io.dilithiumgpu.bench;

import io.dilithiumgpu.DilithiumGpuProvider;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CliTest {
    private static final List<String> SUBCOMMANDS = List.of("demo", "throughput", "sweep", "jca", "batcher", "driver-calls", "selftest",
            "status", "tls", "accumulate");

    private final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
    private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

    private String out() {
        return outBytes.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return errBytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void demoIsTheDefault() {
        assertArrayEquals(new String[] {"demo"}, Cli.withDefaultSubcommand(new String[0]));
        assertArrayEquals(new String[] {"demo", "--seconds", "2"}, Cli.withDefaultSubcommand(new String[] {"--seconds", "2"}));
        assertArrayEquals(new String[] {"throughput", "--quick"},
                Cli.withDefaultSubcommand(new String[] {"throughput", "--quick"}));
        assertArrayEquals(new String[] {"--version"}, Cli.withDefaultSubcommand(new String[] {"--version"}));
        CommandLine cli = Cli.commandLine(out, err);
        assertInstanceOf(DemoCli.class, cli.parseArgs(Cli.withDefaultSubcommand(new String[] {"--seconds", "2"}))
                .subcommand().commandSpec().userObject());
    }

    @Test
    void overviewListsEverySubcommand() {
        assertEquals(Cli.OK, Cli.run(new String[] {"help"}, out, err));
        assertEquals(Cli.OK, Cli.run(new String[] {"--help"}, out, err));
        for (String name : SUBCOMMANDS) {
            assertTrue(out().contains("  " + name + " "), name + " missing from\n" + out());
        }
        assertEquals(List.copyOf(Cli.commandLine(out, err).getSubcommands().keySet()).subList(0, SUBCOMMANDS.size()),
                SUBCOMMANDS);
    }

    @Test
    void everySubcommandHasHelpAndVersion() {
        for (String name : SUBCOMMANDS) {
            outBytes.reset();
            assertEquals(Cli.OK, Cli.run(new String[] {name, "-h"}, out, err), name);
            assertTrue(out().startsWith("Usage: " + Cli.JAR + " " + name + " "), out());
            assertTrue(out().contains("--version"), out());
        }
        outBytes.reset();
        assertEquals(Cli.OK, Cli.run(new String[] {"sweep", "--version"}, out, err));
        assertTrue(out().startsWith("dilithium-gpu " + new DilithiumGpuProvider().getVersionStr() + " "), out());
    }

    @Test
    void versionIsTheBuildsVersion() {
        assertEquals(Cli.OK, Cli.run(new String[] {"--version"}, out, err));
        String expected = System.getProperty("project.version");
        assertTrue(out().startsWith("dilithium-gpu " + expected + " (provider DilithiumGPU)\n"), out());
    }

    @Test
    void subcommandHelpListsItsOptions() {
        assertEquals(Cli.OK, Cli.run(new String[] {"throughput", "--help"}, out, err));
        for (String option : List.of("--backend=cpu|cuda|all", "--batch=N", "--runs=N", "--warmup=N", "--quick",
                "--out=DIR", "--sets=LIST", "--samples=N")) {
            assertTrue(out().contains(option), option + " missing from\n" + out());
        }
        outBytes.reset();
        assertEquals(Cli.OK, Cli.run(new String[] {"help", "sweep"}, out, err));
        assertTrue(out().contains("--from-csv=FILE"), out());
    }

    @Test
    void badCommandLinesExitWithStatus2BeforeRunningAnything() {
        assertEquals(Cli.USAGE, Cli.run(new String[] {"benchmark"}, out, err));
        assertTrue(err().contains("'benchmark'"), err());

        assertEquals(Cli.USAGE, Cli.run(new String[] {"throughput", "--batchsize", "5"}, out, err));
        assertTrue(err().contains("Unknown options: '--batchsize'"), err());

        assertEquals(Cli.USAGE, Cli.run(new String[] {"throughput", "--batch", "0"}, out, err));
        assertTrue(err().contains("--batch"), err());
        assertEquals(Cli.USAGE, Cli.run(new String[] {"throughput", "--backend", "tpu"}, out, err));
        assertTrue(err().contains("[CPU, CUDA, ALL] (case-insensitive)"), err());
        assertEquals(Cli.USAGE, Cli.run(new String[] {"throughput", "--runs", "3", "--runs", "4"}, out, err));
        assertEquals(Cli.USAGE, Cli.run(new String[] {"throughput", "stray"}, out, err));
        assertEquals(Cli.USAGE, Cli.run(new String[] {"sweep", "--sizes", "100"}, out, err));
        assertTrue(err().contains("Missing required option: '--out=DIR'"), err());
        assertEquals(Cli.USAGE, Cli.run(new String[] {"sweep", "--out", "x", "--sizes", "100,,200"}, out, err));
        assertEquals(Cli.USAGE, Cli.run(new String[] {"sweep", "--out", "x", "--backend", "cpu", "--streams", "2"},
                out, err));
        assertTrue(err().contains("--streams applies to the cuda backend"), err());
        assertEquals(Cli.USAGE, Cli.run(new String[] {"jca", "--ops", "keygen"}, out, err));
        assertEquals(Cli.USAGE, Cli.run(new String[] {"--sets", "ML-DSA-99"}, out, err));
        assertTrue(err().contains("Usage: " + Cli.JAR + " demo "), err());
        assertEquals("", out());
    }
}
