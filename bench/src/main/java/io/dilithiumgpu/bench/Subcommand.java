package io.dilithiumgpu.bench;

import java.io.PrintStream;
import java.util.List;

/**
 * One subcommand of {@link Cli}. Its options are declared up front, so the usage text and the
 * parser agree and an unknown option is an error.
 */
interface Subcommand {

    /** An option: a flag when {@code value} is null, else {@code --name VALUE}. */
    record Option(String name, String value, String help) {
        static Option flag(String name, String help) {
            return new Option(name, null, help);
        }

        static Option valued(String name, String value, String help) {
            return new Option(name, value, help);
        }

        boolean isFlag() {
            return value == null;
        }
    }

    /** The word that selects it on the command line. */
    String name();

    /** One line for the list of subcommands. */
    String summary();

    List<Option> options();

    /**
     * Runs the subcommand, writing its report to {@code out}.
     *
     * @return the exit status: 0 when everything ran and checked out, 1 when something failed
     */
    int run(Args args, PrintStream out) throws Exception;
}
