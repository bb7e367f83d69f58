package io.dilithiumgpu.bench;

import java.io.PrintStream;
import java.util.concurrent.Callable;

/**
 * One subcommand of {@link Cli}: a picocli {@code @Command} whose {@code @Option} fields hold its
 * parsed options. A new subcommand is such a class plus one line in {@link Cli}'s list; it inherits
 * {@code -h}/{@code --help} and {@code -V}/{@code --version}.
 */
abstract class Subcommand implements Callable<Integer> {
    private PrintStream out = System.out;

    /** Where {@link #run} writes its report; {@link Cli} sets it before running the command. */
    final void printTo(PrintStream out) {
        this.out = out;
    }

    @Override
    public final Integer call() throws Exception {
        return run(out);
    }

    /**
     * Runs the subcommand on its parsed options, writing its report to {@code out}.
     *
     * @return the exit status: {@link Cli#OK} when everything ran and checked out, {@link Cli#FAILED}
     *         when something failed
     * @throws UsageException when the options, valid one by one, cannot run together
     */
    abstract int run(PrintStream out) throws Exception;
}
