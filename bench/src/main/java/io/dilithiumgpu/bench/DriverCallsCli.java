package io.dilithiumgpu.bench;

import jcuda.Pointer;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUevent;
import jcuda.driver.CUevent_flags;
import jcuda.driver.CUfunction;
import jcuda.driver.CUgraph;
import jcuda.driver.CUgraphExec;
import jcuda.driver.CUmodule;
import jcuda.driver.CUstream;
import jcuda.driver.CUstreamCaptureMode;
import jcuda.driver.CUstream_flags;
import jcuda.driver.JCudaDriver;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CyclicBarrier;

/**
 * {@code driver-calls}: the host time of the CUDA driver calls a chunk is made of, through JCuda, on
 * one thread and on several per GPU at once: what a chunk's launch costs before any of the
 * provider's own work (docs/performance.md, "Ceilings").
 *
 * <p>Each thread has its own stream and buffers on its GPU's primary context and makes each call
 * {@code --calls} times in a row (an empty kernel for the launches, its arguments in native memory
 * as the backend passes them, and once as JCuda objects); the streams are synchronised every 256
 * calls, outside the timing. "chunk" is the ten calls of a verification chunk on registered
 * records (context, three input copies, the upload event and the wait for it, the status marks,
 * the launch, the status copy, the completion event), then its synchronisation, timed apart;
 * "graph" is the same work captured once as a CUDA graph and launched.
 */
@Command(name = "driver-calls", description = "the host time of the CUDA driver calls a chunk makes, through JCuda:"
        + " one thread and several per GPU at once")
final class DriverCallsCli extends Subcommand {

    /** An entry point with a batch kernel's arguments that writes one status byte per block. */
    private static final String PTX = String.join("\n",
            ".version 7.0", ".target sm_52", ".address_size 64",
            ".visible .entry empty(.param .u64 a, .param .u64 b, .param .u64 c, .param .u64 status,",
            "        .param .u32 n, .param .u64 scratch, .param .u64 workspace)",
            "{",
            "    .reg .pred %p<3>; .reg .b32 %r<4>; .reg .b64 %rd<4>; .reg .b16 %rs<2>;",
            "    ld.param.u64 %rd1, [status]; ld.param.u32 %r1, [n];",
            "    mov.u32 %r2, %tid.x; setp.ne.s32 %p1, %r2, 0; setp.lt.s32 %p2, %r1, 1; or.pred %p1, %p1, %p2;",
            "    @%p1 bra DONE;",
            "    cvta.to.global.u64 %rd1, %rd1; mov.u32 %r3, %ctaid.x; cvt.u64.u32 %rd2, %r3; add.s64 %rd1, %rd1, %rd2;",
            "    mov.u16 %rs1, 0; st.global.u8 [%rd1], %rs1;",
            "DONE:",
            "    ret;",
            "}", "") + "\0";

    private static final String[] CALLS = {
        "cuCtxSetCurrent", "cuMemcpyHtoDAsync, 4 KB", "cuEventRecord", "cuStreamWaitEvent",
        "cuMemsetD8Async, 1,111 B", "cuLaunchKernel", "cuLaunchKernel, JCuda argument objects",
        "cuMemcpyDtoHAsync, 1 KB", "cuEventQuery", "chunk: its ten calls", "chunk: synchronize",
        "graph of the chunk: cuGraphLaunch", "graph of the chunk: synchronize"};
    private static final int CHUNK = 9;
    private static final int GRAPH = 11;
    private static final int SYNC_EVERY = 256;
    private static final int IN_BYTES = 4096;
    private static final int STATUS_BYTES = 1111;

    @Option(names = "--threads", paramLabel = "LIST", split = ",", converter = OptionTypes.PositiveCount.class,
            description = "threads per GPU, one column each (default ${DEFAULT-VALUE})")
    List<Integer> threads = List.of(1, 3, 6);

    @Option(names = "--calls", paramLabel = "N", converter = OptionTypes.PositiveCount.class,
            description = "calls of each kind per thread (default ${DEFAULT-VALUE})")
    int calls = 20_000;

    @Option(names = "--all-gpus", description = "the threads of each column on every GPU at once, not on GPU 0 alone")
    boolean allGpus;

    @Override
    int run(PrintStream out) throws Exception {
        List<Device> devices;
        try {
            JCudaDriver.setExceptionsEnabled(true);
            JCudaDriver.cuInit(0);
            int[] count = {0};
            JCudaDriver.cuDeviceGetCount(count);
            devices = new ArrayList<>();
            for (int d = 0; d < (allGpus ? count[0] : Math.min(1, count[0])); d++) {
                devices.add(new Device(d));
            }
            if (devices.isEmpty()) {
                throw new IllegalStateException("the driver reports no device");
            }
        } catch (Throwable t) {  // a missing driver library is an Error from JCuda's loader
            out.println("driver-calls: no CUDA device to measure: " + t.getMessage());
            return Cli.FAILED;
        }
        List<String> headers = new ArrayList<>(List.of("µs per call"));
        double[][] columns = new double[threads.size()][];
        for (int i = 0; i < threads.size(); i++) {
            int t = threads.get(i);
            headers.add(t + (t == 1 ? " thread" : " threads") + (devices.size() > 1 ? " × " + devices.size() + " GPUs" : ""));
            columns[i] = measure(devices, t);
        }
        TextTable table = new TextTable(headers.toArray(String[]::new));
        for (int k = 0; k < CALLS.length; k++) {
            String[] row = new String[threads.size() + 1];
            row[0] = CALLS[k];
            for (int i = 0; i < threads.size(); i++) {
                row[i + 1] = String.format(Locale.ROOT, "%.2f", columns[i][k]);
            }
            table.row(row);
        }
        out.printf(Locale.ROOT, "dilithium-gpu driver-calls: %s, %,d calls of each kind per thread; the mean over the"
                + " threads%n", devices.size() == 1 ? devices.get(0).name : devices.size() + " GPUs", calls);
        out.print(table.render());
        return Cli.OK;
    }

    /** The mean µs per call of each kind over {@code perDevice} threads on each device. */
    private double[] measure(List<Device> devices, int perDevice) throws InterruptedException {
        int n = perDevice * devices.size();
        double[][] us = new double[n][];
        Throwable[] failure = new Throwable[1];
        CyclicBarrier barrier = new CyclicBarrier(n);
        List<Thread> started = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int id = i;
            Device d = devices.get(i % devices.size());
            Thread t = new Thread(() -> {
                try {
                    us[id] = new Caller(d).run(calls, barrier);
                } catch (Throwable e) {
                    synchronized (failure) {
                        failure[0] = e;
                    }
                    barrier.reset();
                }
            }, "driver-calls-" + i);
            t.start();
            started.add(t);
        }
        for (Thread thread : started) {
            thread.join();
        }
        if (failure[0] != null) {
            throw new IllegalStateException("a measuring thread failed: " + failure[0], failure[0]);
        }
        double[] mean = new double[CALLS.length];
        for (double[] u : us) {
            for (int k = 0; k < mean.length; k++) {
                mean[k] += u[k] / n;
            }
        }
        return mean;
    }

    /** One GPU's primary context and the empty kernel loaded there. */
    private static final class Device {
        final CUcontext context = new CUcontext();
        final CUfunction empty = new CUfunction();
        final String name;

        Device(int ordinal) {
            CUdevice device = new CUdevice();
            JCudaDriver.cuDeviceGet(device, ordinal);
            byte[] name = new byte[256];
            JCudaDriver.cuDeviceGetName(name, name.length, device);
            this.name = new String(name, StandardCharsets.UTF_8).trim().replace("\0", "");
            JCudaDriver.cuDevicePrimaryCtxRetain(context, device);
            JCudaDriver.cuCtxSetCurrent(context);
            CUmodule module = new CUmodule();
            JCudaDriver.cuModuleLoadData(module, PTX.getBytes(StandardCharsets.US_ASCII));
            JCudaDriver.cuModuleGetFunction(empty, module, "empty");
        }
    }

    /** One measuring thread: its stream, buffers, events and the chunk's graph. */
    private static final class Caller {
        private final Device d;
        private final CUstream stream = new CUstream();
        private final Pointer host = new Pointer();
        /** The launch arguments' block, an allocation of its own as the backend's {@code KernelParams} has. */
        private final Pointer args = new Pointer();
        private final CUdeviceptr block = new CUdeviceptr();
        private final CUdeviceptr status;
        private final CUevent uploaded = new CUevent();
        private final CUevent done = new CUevent();
        private final Pointer nativeArgs;
        private final Pointer objectArgs;
        private final CUgraphExec graph = new CUgraphExec();

        Caller(Device d) {
            this.d = d;
            JCudaDriver.cuCtxSetCurrent(d.context);
            JCudaDriver.cuStreamCreate(stream, CUstream_flags.CU_STREAM_NON_BLOCKING);
            JCudaDriver.cuMemHostAlloc(host, 1 << 16, JCudaDriver.CU_MEMHOSTALLOC_PORTABLE);
            JCudaDriver.cuMemAlloc(block, 1 << 16);
            status = block.withByteOffset(3 * IN_BYTES);
            JCudaDriver.cuEventCreate(uploaded, CUevent_flags.CU_EVENT_DISABLE_TIMING);
            JCudaDriver.cuEventCreate(done, CUevent_flags.CU_EVENT_DISABLE_TIMING);
            JCudaDriver.cuEventRecord(done, stream);
            // The arguments as the backend passes them: values and the array of their addresses in
            // native memory (KernelParams), and as JCuda marshals objects per launch.
            JCudaDriver.cuMemHostAlloc(args, 256, JCudaDriver.CU_MEMHOSTALLOC_PORTABLE);
            ByteBuffer values = args.getByteBuffer(0, 256).order(ByteOrder.nativeOrder());
            long base = Address.of(block);
            long[] v = {base, base + IN_BYTES, base + 2 * IN_BYTES, base + 3 * IN_BYTES, 0, base + 16_384, base + 20_480};
            long at = Address.of(args);
            for (int i = 0; i < v.length; i++) {
                values.putLong(i * 8, v[i]);
                values.putLong(128 + i * 8, at + i * 8L);
            }
            nativeArgs = args.withByteOffset(128);
            objectArgs = Pointer.to(Pointer.to(block), Pointer.to(block.withByteOffset(IN_BYTES)),
                    Pointer.to(block.withByteOffset(2 * IN_BYTES)), Pointer.to(status), Pointer.to(new int[] {0}),
                    Pointer.to(block.withByteOffset(16_384)), Pointer.to(block.withByteOffset(20_480)));
            CUgraph captured = new CUgraph();
            JCudaDriver.cuStreamBeginCapture(stream, CUstreamCaptureMode.CU_STREAM_CAPTURE_MODE_THREAD_LOCAL);
            copiesAndLaunch();
            JCudaDriver.cuStreamEndCapture(stream, captured);
            JCudaDriver.cuGraphInstantiate(graph, captured, 0);
            JCudaDriver.cuGraphDestroy(captured);
        }

        private void copiesAndLaunch() {
            for (int i = 0; i < 3; i++) {
                JCudaDriver.cuMemcpyHtoDAsync(block.withByteOffset((long) i * IN_BYTES),
                        host.withByteOffset((long) i * IN_BYTES), IN_BYTES, stream);
            }
            JCudaDriver.cuMemsetD8Async(status, (byte) 0xFF, STATUS_BYTES, stream);
            JCudaDriver.cuLaunchKernel(d.empty, 1, 1, 1, 32, 1, 1, 0, stream, nativeArgs, null);
            JCudaDriver.cuMemcpyDtoHAsync(host.withByteOffset(3 * IN_BYTES), status, 1024, stream);
        }

        /** Each kind's µs per call: a warm-up pass, then the measured one, both threads of a column in step. */
        double[] run(int calls, CyclicBarrier barrier) throws Exception {
            JCudaDriver.cuCtxSetCurrent(d.context);
            double[] us = new double[CALLS.length];
            try {
                for (int pass = 0; pass < 2; pass++) {
                    for (int k = 0; k < CALLS.length; k++) {
                        if (k == CHUNK + 1 || k == GRAPH + 1) {
                            continue;  // timed inside the call before it
                        }
                        barrier.await();
                        long waited = 0;
                        long start = System.nanoTime();
                        for (int i = 0; i < calls; i++) {
                            try {
                                waited += call(k);
                            } catch (RuntimeException e) {
                                throw new IllegalStateException(CALLS[k] + ": " + e.getMessage(), e);
                            }
                            if (k < CHUNK && i % SYNC_EVERY == SYNC_EVERY - 1) {
                                long t = System.nanoTime();
                                JCudaDriver.cuStreamSynchronize(stream);
                                waited += System.nanoTime() - t;
                            }
                        }
                        long total = System.nanoTime() - start;
                        JCudaDriver.cuStreamSynchronize(stream);
                        if (pass == 1) {
                            us[k] = (total - waited) / 1e3 / calls;
                            if (k == CHUNK || k == GRAPH) {
                                us[k + 1] = waited / 1e3 / calls;
                            }
                        }
                    }
                }
            } finally {
                JCudaDriver.cuGraphExecDestroy(graph);
                JCudaDriver.cuEventDestroy(uploaded);
                JCudaDriver.cuEventDestroy(done);
                JCudaDriver.cuMemFree(block);
                JCudaDriver.cuMemFreeHost(host);
                JCudaDriver.cuMemFreeHost(args);
                JCudaDriver.cuStreamDestroy(stream);
            }
            return us;
        }

        /** Makes call {@code k}; returns the nanoseconds spent synchronising in it. */
        private long call(int k) {
            switch (k) {
                case 0 -> JCudaDriver.cuCtxSetCurrent(d.context);
                case 1 -> JCudaDriver.cuMemcpyHtoDAsync(block, host, IN_BYTES, stream);
                case 2 -> JCudaDriver.cuEventRecord(uploaded, stream);
                case 3 -> JCudaDriver.cuStreamWaitEvent(stream, done, 0);
                case 4 -> JCudaDriver.cuMemsetD8Async(status, (byte) 0xFF, STATUS_BYTES, stream);
                case 5 -> JCudaDriver.cuLaunchKernel(d.empty, 1, 1, 1, 32, 1, 1, 0, stream, nativeArgs, null);
                case 6 -> JCudaDriver.cuLaunchKernel(d.empty, 1, 1, 1, 32, 1, 1, 0, stream, objectArgs, null);
                case 7 -> JCudaDriver.cuMemcpyDtoHAsync(host.withByteOffset(3 * IN_BYTES), status, 1024, stream);
                case 8 -> JCudaDriver.cuEventQuery(done);
                case CHUNK -> {
                    JCudaDriver.cuCtxSetCurrent(d.context);
                    for (int i = 0; i < 3; i++) {
                        JCudaDriver.cuMemcpyHtoDAsync(block.withByteOffset((long) i * IN_BYTES),
                                host.withByteOffset((long) i * IN_BYTES), IN_BYTES, stream);
                    }
                    JCudaDriver.cuEventRecord(uploaded, stream);
                    JCudaDriver.cuStreamWaitEvent(stream, uploaded, 0);
                    JCudaDriver.cuMemsetD8Async(status, (byte) 0xFF, STATUS_BYTES, stream);
                    JCudaDriver.cuLaunchKernel(d.empty, 1, 1, 1, 32, 1, 1, 0, stream, nativeArgs, null);
                    JCudaDriver.cuMemcpyDtoHAsync(host.withByteOffset(3 * IN_BYTES), status, 1024, stream);
                    JCudaDriver.cuEventRecord(done, stream);
                    return synchronize();
                }
                case GRAPH -> {
                    JCudaDriver.cuGraphLaunch(graph, stream);
                    return synchronize();
                }
                default -> throw new IllegalArgumentException("call " + k);
            }
            return 0;
        }

        private long synchronize() {
            long t = System.nanoTime();
            JCudaDriver.cuStreamSynchronize(stream);
            return System.nanoTime() - t;
        }
    }

    /**
     * The address a JCuda pointer stands for, through the accessors JCuda leaves to subclasses (as
     * the backend's package-private {@code KernelParams} reads it).
     */
    private static final class Address extends Pointer {
        private Address(Pointer p) {
            super(p);
        }

        static long of(Pointer p) {
            Address a = new Address(p);
            return a.getNativePointer() + a.getByteOffset();
        }
    }
}
