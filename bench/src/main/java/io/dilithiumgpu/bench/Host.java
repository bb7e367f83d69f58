package io.dilithiumgpu.bench;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** One line about the machine and JVM a report was made on. */
final class Host {
    private Host() {}

    /** The machine's host name, or {@code unknown}. */
    static String name() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            String env = System.getenv("HOSTNAME");
            return env == null || env.isBlank() ? "unknown" : env;
        }
    }

    static String describe() {
        return "JVM " + System.getProperty("java.vm.name") + " " + Runtime.version()
                + ", " + Runtime.getRuntime().availableProcessors() + " CPU threads, "
                + System.getProperty("os.name") + " " + System.getProperty("os.arch");
    }
}
