package io.dilithiumgpu.backend.cuda;

import java.lang.invoke.MethodHandle;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Optional;

/**
 * This process's C environment, where the CUDA driver reads its settings
 * ({@code CUDA_DEVICE_MAX_CONNECTIONS}), as opposed to {@link System#getenv}, the JVM's copy taken
 * at start-up. {@code setenv(3)} and {@code getenv(3)} are called through the foreign function API
 * of JDK 22 and later, reached by reflection because the provider compiles for release 17. On an
 * older JDK, or when native access is denied, nothing is set and the caller is told why.
 *
 * <p>{@code setenv} is not safe against a concurrent {@code getenv} in native code: call
 * {@link #setIfAbsent} before any CUDA call, as {@link CudaLoader} does, and only for a variable
 * nobody has set.
 */
final class ProcessEnvironment {
    private ProcessEnvironment() {}

    /**
     * Sets {@code name} to {@code value} unless the process environment has it already.
     *
     * @return why nothing was set, or null when it was set now
     */
    static String setIfAbsent(String name, String value) {
        try {
            String present = get(name);
            if (present != null) {
                return name + " is already " + present;
            }
            int rc = (int) libc("setenv", "JAVA_INT", "ADDRESS", "ADDRESS", "JAVA_INT")
                    .invokeWithArguments(cString(name), cString(value), 1);
            return rc == 0 ? null : "setenv(" + name + ") returned " + rc;
        } catch (ClassNotFoundException e) {
            return "JDK " + Runtime.version().feature() + " has no foreign function API (JDK 22 and later do)";
        } catch (InvocationTargetException e) {
            return "setenv(" + name + ") failed: " + e.getCause();
        } catch (Throwable e) {
            return "setenv(" + name + ") failed: " + e;
        }
    }

    /**
     * {@code getenv(name)} of the C library.
     *
     * @throws ClassNotFoundException before JDK 22
     */
    static String get(String name) throws Throwable {
        Object found = libc("getenv", "ADDRESS", "ADDRESS").invokeWithArguments(cString(name));
        Class<?> segment = Class.forName("java.lang.foreign.MemorySegment");
        if ((long) segment.getMethod("address").invoke(found) == 0) {
            return null;
        }
        Object whole = segment.getMethod("reinterpret", long.class).invoke(found, Long.MAX_VALUE);
        return (String) segment.getMethod("getString", long.class).invoke(whole, 0L);
    }

    /** A NUL-terminated copy of {@code s} in memory that lives until the JVM collects it. */
    private static Object cString(String s) throws ReflectiveOperationException {
        Class<?> arena = Class.forName("java.lang.foreign.Arena");
        Object auto = arena.getMethod("ofAuto").invoke(null);
        Method from = Class.forName("java.lang.foreign.SegmentAllocator").getMethod("allocateFrom", String.class);
        return from.invoke(auto, s);
    }

    /**
     * A method handle on C function {@code name} of the default library, returning
     * {@code returns} (a {@code ValueLayout} constant's name) and taking {@code takes}.
     */
    private static MethodHandle libc(String name, String returns, String... takes)
            throws ReflectiveOperationException {
        Class<?> linkerClass = Class.forName("java.lang.foreign.Linker");
        Class<?> layoutClass = Class.forName("java.lang.foreign.MemoryLayout");
        Class<?> valueLayouts = Class.forName("java.lang.foreign.ValueLayout");
        Class<?> descriptorClass = Class.forName("java.lang.foreign.FunctionDescriptor");
        Class<?> optionClass = Class.forName("java.lang.foreign.Linker$Option");
        Object linker = linkerClass.getMethod("nativeLinker").invoke(null);
        Object lookup = linkerClass.getMethod("defaultLookup").invoke(linker);
        Optional<?> symbol = (Optional<?>) Class.forName("java.lang.foreign.SymbolLookup")
                .getMethod("find", String.class).invoke(lookup, name);
        if (symbol.isEmpty()) {
            throw new UnsupportedOperationException("the C library has no " + name);
        }
        Object arguments = Array.newInstance(layoutClass, takes.length);
        for (int i = 0; i < takes.length; i++) {
            Array.set(arguments, i, valueLayouts.getField(takes[i]).get(null));
        }
        Object descriptor = descriptorClass.getMethod("of", layoutClass, arguments.getClass())
                .invoke(null, valueLayouts.getField(returns).get(null), arguments);
        Object noOptions = Array.newInstance(optionClass, 0);
        return (MethodHandle) linkerClass.getMethod("downcallHandle",
                        Class.forName("java.lang.foreign.MemorySegment"), descriptorClass, noOptions.getClass())
                .invoke(linker, symbol.get(), descriptor, noOptions);
    }
}
