package io.dilithiumgpu.batch;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Virtual threads where the JDK has them (21 and later), reached by reflection: the provider
 * compiles for release 17.
 */
final class VirtualThreads {
    private static final Method NEW_PER_TASK_EXECUTOR = find(Executors.class, "newVirtualThreadPerTaskExecutor");
    private static final Method IS_VIRTUAL = find(Thread.class, "isVirtual");

    private VirtualThreads() {}

    private static Method find(Class<?> type, String name) {
        try {
            return type.getMethod(name);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /** Whether this JDK has virtual threads. */
    static boolean available() {
        return NEW_PER_TASK_EXECUTOR != null;
    }

    /** An executor that starts a virtual thread per task; null where the JDK has none. */
    static ExecutorService newPerTaskExecutor() {
        return NEW_PER_TASK_EXECUTOR == null ? null : (ExecutorService) invoke(NEW_PER_TASK_EXECUTOR, null);
    }

    /** Whether {@code t} is a virtual thread (false where the JDK has none). */
    static boolean isVirtual(Thread t) {
        return IS_VIRTUAL != null && (Boolean) invoke(IS_VIRTUAL, t);
    }

    private static Object invoke(Method m, Object target) {
        try {
            return m.invoke(target);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException(m.getDeclaringClass().getSimpleName() + "." + m.getName() + " failed", e);
        }
    }
}
