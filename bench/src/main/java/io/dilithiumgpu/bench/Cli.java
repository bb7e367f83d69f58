package io.dilithiumgpu.bench;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The command line of {@code dilithium-gpu-bench.jar}: {@code demo} (the default), {@code
 * throughput}, {@code sweep}, {@code jca} and {@code selftest}.
 *
 * <p>Exit status: 0 when everything ran and every result checked out; 1 when a result was wrong,
 * a known-answer test failed or a backend failed; 2 for a command line that cannot run.
 */
public final class Cli {
    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE = 2;

    static final String JAR = "java -jar bench/target/dilithium-gpu-bench.jar";

    private static final List<Subcommand> SUBCOMMANDS = List.of(
            new DemoCli(), new ThroughputCli(), new SweepCli(), new JcaCli(), new BatcherCli(), new SelftestCli());

    private Cli() {}

    public static void main(String[] argv) {
        System.exit(run(argv, System.out, System.err));
    }

    /** Runs one command line; returns its exit status. */
    static int run(String[] argv, PrintStream out, PrintStream err) {
        if (argv.length == 1 && (argv[0].equals("help") || argv[0].equals("--help") || argv[0].equals("-h"))) {
            out.print(overview());
            return OK;
        }
        Subcommand command;
        try {
            command = select(argv);
        } catch (UsageException e) {
            err.println("error: " + e.getMessage());
            err.print(overview());
            return USAGE;
        }
        boolean named = argv.length > 0 && !argv[0].startsWith("--");
        return run(command, Arrays.asList(argv).subList(named ? 1 : 0, argv.length), out, err);
    }

    /** Runs a subcommand on its own arguments; the entry point of each subcommand's {@code main}. */
    static int run(Subcommand command, List<String> argv, PrintStream out, PrintStream err) {
        Args args;
        try {
            args = parse(command, argv);
        } catch (UsageException e) {
            err.println("error: " + e.getMessage());
            err.print(usage(command));
            return USAGE;
        }
        if (args.flag("help")) {
            out.print(usage(command));
            return OK;
        }
        try {
            return command.run(args, out);
        } catch (UsageException e) {
            err.println("error: " + e.getMessage());
            err.print(usage(command));
            return USAGE;
        } catch (Exception e) {
            err.println(command.name() + " failed: " + e);
            for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
                err.println("  caused by: " + c);
            }
            return FAILED;
        }
    }

    /**
     * The subcommand a command line selects: its first word, or {@code demo} when there is none
     * or the line starts with an option.
     */
    static Subcommand select(String[] argv) throws UsageException {
        if (argv.length == 0 || argv[0].startsWith("--")) {
            return SUBCOMMANDS.get(0);
        }
        for (Subcommand s : SUBCOMMANDS) {
            if (s.name().equals(argv[0])) {
                return s;
            }
        }
        throw new UsageException("unknown subcommand: " + argv[0]);
    }

    static Args parse(Subcommand command, List<String> argv) throws UsageException {
        Set<String> valued = new HashSet<>();
        Set<String> flags = new HashSet<>();
        flags.add("help");
        for (Subcommand.Option o : command.options()) {
            (o.isFlag() ? flags : valued).add(o.name());
        }
        return Args.parse(argv, valued, flags);
    }

    static String overview() {
        StringBuilder sb = new StringBuilder("usage: " + JAR + " [subcommand] [options]\n\nsubcommands:\n");
        int width = SUBCOMMANDS.stream().mapToInt(s -> s.name().length()).max().orElse(0);
        for (Subcommand s : SUBCOMMANDS) {
            sb.append("  ").append(pad(s.name(), width)).append("  ").append(s.summary()).append('\n');
        }
        sb.append("\n'demo' runs when no subcommand is given; '<subcommand> --help' lists its options.\n");
        return sb.toString();
    }

    static String usage(Subcommand command) {
        StringBuilder sb = new StringBuilder("usage: " + JAR + " " + command.name() + " [options]\n");
        sb.append(command.summary()).append("\n\noptions:\n");
        int width = 0;
        for (Subcommand.Option o : command.options()) {
            width = Math.max(width, optionSyntax(o).length());
        }
        for (Subcommand.Option o : command.options()) {
            sb.append("  ").append(pad(optionSyntax(o), width)).append("  ").append(o.help()).append('\n');
        }
        return sb.toString();
    }

    private static String optionSyntax(Subcommand.Option o) {
        return "--" + o.name() + (o.isFlag() ? "" : " " + o.value());
    }

    private static String pad(String s, int width) {
        return s + " ".repeat(Math.max(0, width - s.length()));
    }
}
