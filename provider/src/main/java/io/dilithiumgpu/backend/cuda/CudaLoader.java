package io.dilithiumgpu.backend.cuda;

import jcuda.CudaException;
import jcuda.Pointer;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;
import jcuda.driver.CUresult;
import jcuda.driver.JCudaDriver;

import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;

/**
 * Everything that can make CUDA unavailable, in one place: loading JCuda's native library,
 * initialising the driver, counting devices, reading the fatbin resource and loading it as a
 * module. Each failure is reported as an {@link Unavailable} carrying a {@link Reason} and a
 * sentence that says what is missing, so that a host without a GPU tells its operator why.
 *
 * <p>This class depends on JCuda and the JDK only. After the first call, JCuda's exceptions are
 * enabled process-wide ({@code JCudaDriver.setExceptionsEnabled(true)}): every failing driver call
 * throws {@link CudaException} whose message is the {@code CUresult} name.
 *
 * <p>Thread safety: {@link #initDriver()} is synchronised and remembers its outcome, so a failed
 * native load is reported with the same reason on every later call (the JVM itself would answer
 * later attempts with a bare {@code NoClassDefFoundError}). The module methods act on the CUDA
 * context current on the calling thread.
 */
public final class CudaLoader {

    /** Classpath resource of the kernels' fatbin, shipped in the kernels-cuda jar. */
    public static final String FATBIN_RESOURCE = "io/dilithiumgpu/kernels/dilithium.fatbin";

    /** Why CUDA cannot be used. */
    public enum Reason {
        /** JCuda's JNI library could not be loaded (missing natives jar, wrong platform). */
        NATIVES,
        /** The NVIDIA driver (libcuda.so.1) is absent, or cuInit failed. */
        DRIVER,
        /** The driver works but reports no CUDA device. */
        NO_DEVICE,
        /** The fatbin resource is not on the classpath. */
        FATBIN_MISSING,
        /** The fatbin did not load on a device, or lacks an entry point or its configuration. */
        MODULE_LOAD
    }

    /** CUDA cannot be used, and why. */
    public static final class Unavailable extends Exception {
        private static final long serialVersionUID = 1L;
        private final Reason reason;

        Unavailable(Reason reason, String message, Throwable cause) {
            super(message, cause);
            this.reason = reason;
        }

        public Reason reason() {
            return reason;
        }
    }

    /** A kernel entry point and the launch-configuration words of its {@code <entry>_cfg} global. */
    public record Entry(String name, CUfunction function, int[] cfg) {}

    private static final String DRIVER_LIBRARY = "libcuda.so";

    /** The environment variable that sets a device's hardware work queues (the driver's default is 8, its maximum 32). */
    static final String CONNECTIONS_VARIABLE = "CUDA_DEVICE_MAX_CONNECTIONS";
    static final int MAX_CONNECTIONS = 32;

    private static boolean initialised;
    private static Unavailable initFailure;
    private static int deviceCount;
    private static int connectionsWanted;
    private static String connections = "unknown";

    private CudaLoader() {}

    /**
     * Asks for {@code n} hardware work queues per device (at most 32), so that as many streams run
     * their kernels side by side instead of some sharing a queue, where a kernel waits for the one
     * before it: {@value #CONNECTIONS_VARIABLE} is set in the process environment before
     * {@code cuInit}, unless it is set already (the operator's value stands) or the driver is
     * already initialised (the first request wins). Needs JDK 22 or later
     * ({@link ProcessEnvironment}); {@link #connections()} says what happened.
     */
    static synchronized void requestConnections(int n) {
        if (!initialised) {
            connectionsWanted = Math.max(connectionsWanted, Math.min(MAX_CONNECTIONS, n));
        }
    }

    /** The work queues per device in effect, and why: for the backend's description. */
    static synchronized String connections() {
        return connections;
    }

    /**
     * Loads the natives, enables JCuda exceptions, runs {@code cuInit(0)} and counts the devices.
     * The outcome is remembered: later calls return or throw the same without touching the driver.
     *
     * @return the number of CUDA devices, at least 1
     * @throws Unavailable with {@link Reason#NATIVES}, {@link Reason#DRIVER} or {@link Reason#NO_DEVICE}
     */
    public static synchronized int initDriver() throws Unavailable {
        if (!initialised) {
            initialised = true;
            try {
                deviceCount = probeDriver();
            } catch (Unavailable e) {
                initFailure = e;
            }
        }
        if (initFailure != null) {
            throw initFailure;
        }
        return deviceCount;
    }

    private static int probeDriver() throws Unavailable {
        try {
            JCudaDriver.setExceptionsEnabled(true);
        } catch (LinkageError e) {
            throw nativeLoadFailure(e);
        }
        if (connectionsWanted > 8) {
            String refused = ProcessEnvironment.setIfAbsent(CONNECTIONS_VARIABLE, Integer.toString(connectionsWanted));
            connections = refused == null ? connectionsWanted + " work queues per device (" + CONNECTIONS_VARIABLE
                    + " set)" : "work queues per device as the driver sets them: " + refused;
        } else {
            connections = "work queues per device as the driver sets them";
        }
        try {
            JCudaDriver.cuInit(0);
        } catch (CudaException e) {
            if (e.getMessage() != null && e.getMessage().equals(CUresult.stringFor(CUresult.CUDA_ERROR_NO_DEVICE))) {
                throw new Unavailable(Reason.NO_DEVICE, "the NVIDIA driver reports no CUDA device (cuInit: "
                        + e.getMessage() + ")", e);
            }
            throw new Unavailable(Reason.DRIVER, "the NVIDIA driver failed to initialise (cuInit: "
                    + e.getMessage() + ")", e);
        }
        int[] count = new int[1];
        try {
            JCudaDriver.cuDeviceGetCount(count);
        } catch (CudaException e) {
            throw new Unavailable(Reason.DRIVER, "cuDeviceGetCount failed: " + e.getMessage(), e);
        }
        if (count[0] < 1) {
            throw new Unavailable(Reason.NO_DEVICE, "the NVIDIA driver is loaded but reports no CUDA device", null);
        }
        return count[0];
    }

    /**
     * Tells a missing driver (JCuda's library is there but cannot link against libcuda.so.1) from
     * missing natives (no JCuda library for this platform at all).
     */
    private static Unavailable nativeLoadFailure(LinkageError e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = t.getMessage();
            if (m != null && m.contains(DRIVER_LIBRARY)) {
                return new Unavailable(Reason.DRIVER, "no NVIDIA driver: " + DRIVER_LIBRARY
                        + ".1 cannot be loaded, so JCuda's driver bindings cannot link", e);
            }
        }
        String platform = System.getProperty("os.name") + "/" + System.getProperty("os.arch");
        return new Unavailable(Reason.NATIVES, "JCuda's native driver library did not load on " + platform
                + " (is jcuda-natives for this platform on the classpath?): " + firstLine(e.getMessage()), e);
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "no detail";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }

    /**
     * Reads the fatbin bytes from the classpath.
     *
     * @throws Unavailable with {@link Reason#FATBIN_MISSING} when the resource is absent or unreadable
     */
    public static byte[] readFatbin(ClassLoader loader, String resource) throws Unavailable {
        try (InputStream in = loader.getResourceAsStream(resource)) {
            if (in == null) {
                throw new Unavailable(Reason.FATBIN_MISSING, "the kernel fatbin " + resource
                        + " is not on the classpath (is the dilithium-gpu-kernels jar there?)", null);
            }
            byte[] image = in.readAllBytes();
            if (image.length == 0) {
                throw new Unavailable(Reason.FATBIN_MISSING, "the kernel fatbin " + resource + " is empty", null);
            }
            return image;
        } catch (IOException e) {
            throw new Unavailable(Reason.FATBIN_MISSING, "the kernel fatbin " + resource + " cannot be read: "
                    + e.getMessage(), e);
        }
    }

    /** Reads {@link #FATBIN_RESOURCE} with this class's loader. */
    public static byte[] readFatbin() throws Unavailable {
        return readFatbin(CudaLoader.class.getClassLoader(), FATBIN_RESOURCE);
    }

    /**
     * Loads a fatbin into the context current on this thread.
     *
     * @throws Unavailable with {@link Reason#MODULE_LOAD}, naming the CUresult (for example
     *                     CUDA_ERROR_NO_BINARY_FOR_GPU when the fatbin has no code for this device)
     */
    public static CUmodule loadModule(byte[] image, CUdevice device) throws Unavailable {
        CUmodule module = new CUmodule();
        try {
            JCudaDriver.cuModuleLoadData(module, image);
            return module;
        } catch (CudaException e) {
            throw new Unavailable(Reason.MODULE_LOAD, "cuModuleLoadData failed with " + e.getMessage()
                    + " on a device of compute capability " + computeCapability(device), e);
        }
    }

    /**
     * Resolves {@code name} and reads its {@code name_cfg} global ({@code words} 32-bit integers).
     *
     * @throws Unavailable with {@link Reason#MODULE_LOAD} when either is missing or of another size
     */
    public static Entry entry(CUmodule module, String name, int words) throws Unavailable {
        CUfunction function = new CUfunction();
        try {
            JCudaDriver.cuModuleGetFunction(function, module, name);
        } catch (CudaException e) {
            throw new Unavailable(Reason.MODULE_LOAD, "the fatbin has no entry point " + name
                    + " (cuModuleGetFunction: " + e.getMessage() + ")", e);
        }
        String global = name + "_cfg";
        CUdeviceptr address = new CUdeviceptr();
        long[] size = new long[1];
        int[] cfg = new int[words];
        try {
            JCudaDriver.cuModuleGetGlobal(address, size, module, global);
            if (size[0] != 4L * words) {
                throw new Unavailable(Reason.MODULE_LOAD, "the fatbin's " + global + " holds " + size[0]
                        + " bytes, the ABI expects " + 4L * words, null);
            }
            JCudaDriver.cuMemcpyDtoH(Pointer.to(cfg), address, 4L * words);
        } catch (CudaException e) {
            throw new Unavailable(Reason.MODULE_LOAD, "the fatbin's launch configuration " + global
                    + " cannot be read (" + e.getMessage() + ")", e);
        }
        return new Entry(name, function, cfg);
    }

    /** "major.minor", or "unknown" when the driver cannot say. */
    public static String computeCapability(CUdevice device) {
        int[] major = new int[1];
        int[] minor = new int[1];
        try {
            JCudaDriver.cuDeviceGetAttribute(major, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
            JCudaDriver.cuDeviceGetAttribute(minor, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
            return String.format(Locale.ROOT, "%d.%d", major[0], minor[0]);
        } catch (CudaException e) {
            return "unknown";
        }
    }
}
