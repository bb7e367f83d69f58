package io.dilithiumgpu.bench;

/** One line about the machine and JVM a report was made on. */
final class Host {
    private Host() {}

    static String describe() {
        return "JVM " + System.getProperty("java.vm.name") + " " + Runtime.version()
                + ", " + Runtime.getRuntime().availableProcessors() + " CPU threads, "
                + System.getProperty("os.name") + " " + System.getProperty("os.arch");
    }
}
