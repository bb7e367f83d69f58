package io.dilithiumgpu.bench;

import io.dilithiumgpu.DilithiumGpu;
import io.dilithiumgpu.Status;
import io.dilithiumgpu.batch.SelfTest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;

/**
 * {@code status}: what {@link DilithiumGpu#status()} reports (the backend the provider's operations
 * run on, the GPUs, why CUDA is not used), then the compiled-in self-test on that backend.
 */
@Command(name = "status", description = "the backend in use, the GPUs and why CUDA is not used"
        + " (DilithiumGpu.status()), then the compiled-in self-test on it")
final class StatusCli extends Subcommand {

    @Option(names = "--no-self-test", description = "print the status only")
    boolean noSelfTest;

    @Override
    int run(PrintStream out) throws Exception {
        Status s = DilithiumGpu.status();
        out.print(s);
        if (noSelfTest || s.backend().equals("none")) {
            return s.backend().equals("none") ? Cli.FAILED : Cli.OK;
        }
        SelfTest.Result r = DilithiumGpu.selfTest();
        out.println(r);
        return r.passed() ? Cli.OK : Cli.FAILED;
    }
}
