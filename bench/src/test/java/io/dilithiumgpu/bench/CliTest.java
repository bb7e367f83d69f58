package io.dilithiumgpu.bench;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CliTest {
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
    void demoIsTheDefault() throws UsageException {
        assertInstanceOf(DemoCli.class, Cli.select(new String[0]));
        assertInstanceOf(DemoCli.class, Cli.select(new String[] {"--seconds", "2"}));
        assertInstanceOf(ThroughputCli.class, Cli.select(new String[] {"throughput", "--quick"}));
        assertInstanceOf(SweepCli.class, Cli.select(new String[] {"sweep"}));
        assertInstanceOf(JcaCli.class, Cli.select(new String[] {"jca"}));
        assertInstanceOf(SelftestCli.class, Cli.select(new String[] {"selftest"}));
        assertThrows(UsageException.class, () -> Cli.select(new String[] {"benchmark"}));
    }

    @Test
    void overviewListsEverySubcommand() {
        assertEquals(Cli.OK, Cli.run(new String[] {"help"}, out, err));
        for (String name : List.of("demo", "throughput", "sweep", "jca", "selftest")) {
            assertTrue(out().contains("  " + name + " "), out());
        }
    }

    @Test
    void subcommandHelpListsItsOptions() {
        assertEquals(Cli.OK, Cli.run(new String[] {"throughput", "--help"}, out, err));
        assertTrue(out().startsWith("usage: " + Cli.JAR + " throughput [options]\n"), out());
        for (String option : List.of("--backend cpu|cuda|all", "--batch N", "--runs N", "--warmup N", "--quick",
                "--out DIR", "--sets LIST", "--samples N")) {
            assertTrue(out().contains(option), option + " missing from\n" + out());
        }
    }

    @Test
    void badCommandLinesExitWithStatus2BeforeRunningAnything() {
        assertEquals(Cli.USAGE, Cli.run(new String[] {"benchmark"}, out, err));
        assertTrue(err().contains("unknown subcommand: benchmark"), err());

        assertEquals(Cli.USAGE, Cli.run(new String[] {"throughput", "--batchsize", "5"}, out, err));
        assertTrue(err().contains("unknown option: --batchsize"), err());

        assertEquals(Cli.USAGE, Cli.run(new String[] {"throughput", "--batch", "0"}, out, err));
        assertEquals(Cli.USAGE, Cli.run(new String[] {"throughput", "--backend", "tpu"}, out, err));
        assertEquals(Cli.USAGE, Cli.run(new String[] {"sweep", "--sizes", "100"}, out, err));
        assertTrue(err().contains("--out DIR is required"), err());
        assertEquals(Cli.USAGE, Cli.run(new String[] {"jca", "--ops", "keygen"}, out, err));
        assertEquals(Cli.USAGE, Cli.run(new String[] {"--sets", "ML-DSA-99"}, out, err));
        assertEquals("", out());
    }

    @Test
    void everyOptionIsDeclaredOnce() {
        for (Subcommand s : List.of(new DemoCli(), new ThroughputCli(), new SweepCli(), new JcaCli(), new SelftestCli())) {
            long distinct = s.options().stream().map(Subcommand.Option::name).distinct().count();
            assertEquals(s.options().size(), distinct, s.name());
            assertTrue(s.options().stream().noneMatch(o -> o.name().equals("help")), s.name());
        }
    }
}
