package io.dilithiumgpu.bench;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.util.Set;

/**
 * The command line of {@code dilithium-gpu-bench.jar} (picocli): one {@link Subcommand} class per
 * subcommand, listed below; {@code demo} runs when no subcommand is named.
 *
 * <p>Exit status: 0 when everything ran and every result checked out; 1 when a result was wrong,
 * a known-answer test failed or a backend failed; 2 for a command line that cannot run.
 */
@Command(name = Cli.JAR, mixinStandardHelpOptions = true, scope = ScopeType.INHERIT,
        versionProvider = CliVersion.class, sortOptions = false, usageHelpAutoWidth = true,
        description = {"Benchmarks, demo and self-test of the dilithium-gpu JCA provider.",
                "'demo' runs when no subcommand is given; '<subcommand> --help' lists its options."},
        subcommands = {
                DemoCli.class,
                ThroughputCli.class,
                SweepCli.class,
                JcaCli.class,
                BatcherCli.class,
                DriverCallsCli.class,
                SelftestCli.class,
                StatusCli.class,
                TlsCli.class,
                AccumulateCli.class,
                HelpCommand.class,
        })
public final class Cli {
    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE = 2;

    static final String JAR = "java -jar bench/target/dilithium-gpu-bench.jar";
    static final String DEFAULT_SUBCOMMAND = "demo";

    /** The options the top level itself takes; any other leading option goes to {@code demo}. */
    private static final Set<String> OWN_OPTIONS = Set.of("-h", "--help", "-V", "--version");

    public static void main(String[] argv) {
        System.exit(run(argv, System.out, System.err));
    }

    /** Runs one command line; returns its exit status. */
    static int run(String[] argv, PrintStream out, PrintStream err) {
        return commandLine(out, err).execute(withDefaultSubcommand(argv));
    }

    /** {@code argv}, with {@code demo} in front when it names no subcommand. */
    static String[] withDefaultSubcommand(String[] argv) {
        if (argv.length > 0 && (!argv[0].startsWith("-") || OWN_OPTIONS.contains(argv[0]))) {
            return argv;
        }
        String[] withDemo = new String[argv.length + 1];
        withDemo[0] = DEFAULT_SUBCOMMAND;
        System.arraycopy(argv, 0, withDemo, 1, argv.length);
        return withDemo;
    }

    /** The command line over every subcommand, reporting to {@code out} and {@code err}. */
    static CommandLine commandLine(PrintStream out, PrintStream err) {
        CommandLine cli = new CommandLine(new Cli());
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        cli.setOut(writer(out));
        cli.setErr(writer(err));
        cli.setExecutionStrategy(parsed -> {
            for (ParseResult p = parsed; p != null; p = p.subcommand()) {
                if (p.commandSpec().userObject() instanceof Subcommand s) {
                    s.printTo(out);
                }
            }
            return new CommandLine.RunLast().execute(parsed);
        });
        cli.setParameterExceptionHandler((e, args) -> usageError(e.getMessage(), e.getCommandLine(), err));
        cli.setExecutionExceptionHandler((e, command, parsed) -> {
            if (e instanceof UsageException) {
                return usageError(e.getMessage(), command, err);
            }
            err.println(command.getCommandName() + " failed: " + e);
            for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
                err.println("  caused by: " + c);
            }
            return FAILED;
        });
        return cli;
    }

    /**
     * Parses {@code argv} into {@code command}'s option fields alone, running nothing.
     *
     * @throws CommandLine.ParameterException when the command line is not valid
     */
    static <T extends Subcommand> T parse(T command, String... argv) {
        new CommandLine(command).setCaseInsensitiveEnumValuesAllowed(true).parseArgs(argv);
        return command;
    }

    private static int usageError(String message, CommandLine command, PrintStream err) {
        err.println("error: " + message);
        command.usage(err);
        return USAGE;
    }

    /** A writer onto {@code stream} that keeps the stream's own character encoding. */
    private static PrintWriter writer(PrintStream stream) {
        return new PrintWriter(new Writer() {
            @Override
            public void write(char[] chars, int offset, int length) {
                stream.print(new String(chars, offset, length));
            }

            @Override
            public void flush() {
                stream.flush();
            }

            @Override
            public void close() {
                stream.flush();
            }
        }, true);
    }
}
