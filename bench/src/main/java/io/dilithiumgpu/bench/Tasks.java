package io.dilithiumgpu.bench;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** The process's OS threads as Linux shows them under {@code /proc/self/task}: name, run and wait times. */
final class Tasks {
    private Tasks() {}

    /**
     * One thread.
     *
     * @param name      its name, which Linux keeps to 15 characters
     * @param runNanos  its time on a CPU so far
     * @param waitNanos its time runnable but waiting for a CPU so far
     */
    record Task(String name, long runNanos, long waitNanos) {}

    /** Every thread by task id; empty where there is no such directory (not Linux) or no schedstat. */
    static Map<Long, Task> read() {
        Map<Long, Task> out = new HashMap<>();
        File[] tasks = new File("/proc/self/task").listFiles();
        if (tasks == null) {
            return out;
        }
        for (File t : tasks) {
            try {
                String name = Files.readString(t.toPath().resolve("comm")).trim();
                String[] f = Files.readString(t.toPath().resolve("schedstat")).trim().split("\\s+");
                out.put(Long.parseLong(t.getName()), new Task(name, Long.parseLong(f[0]), Long.parseLong(f[1])));
            } catch (IOException | RuntimeException e) {
                // The thread ended meanwhile, or the kernel has no schedstat: skip it.
            }
        }
        return out;
    }

    /** The run time so far of one thread of this process by task id, or -1 where it has ended or Linux shows none. */
    static long runNanos(long tid) {
        try {
            String stat = Files.readString(Path.of("/proc/self/task/" + tid + "/schedstat")).trim();
            int space = stat.indexOf(' ');
            return Long.parseLong(space < 0 ? stat : stat.substring(0, space));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
