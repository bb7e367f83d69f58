package io.dilithiumgpu.bench;

import io.dilithiumgpu.batch.BatchConfig;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of a second JVM that runs the CLI: this JVM's runtime, options and class path,
 * with the batcher's backend set for it. The provider keeps one batcher per process, chosen when it
 * opens, so measuring another backend takes another process.
 */
final class ChildJvm {
    private ChildJvm() {}

    /**
     * {@code java [this JVM's options] [-Ddilithiumgpu.backend=BACKEND] -cp [class path] Cli ARGS};
     * {@code backend} null leaves the property unset.
     */
    static List<String> command(String backend, List<String> cliArgs) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String option : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            // The backend is the point of the second JVM; a debugger's port can be taken only once.
            if (!option.startsWith("-D" + BatchConfig.BACKEND_PROPERTY + "=") && !option.startsWith("-agentlib:jdwp")) {
                command.add(option);
            }
        }
        // The jar's manifest allows JCuda's native access; a class path launch needs the option.
        if (Runtime.version().feature() >= 22 && command.stream().noneMatch(o -> o.startsWith("--enable-native-access"))) {
            command.add("--enable-native-access=ALL-UNNAMED");
        }
        if (backend != null) {
            command.add("-D" + BatchConfig.BACKEND_PROPERTY + "=" + backend);
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(Cli.class.getName());
        command.addAll(cliArgs);
        return command;
    }
}
