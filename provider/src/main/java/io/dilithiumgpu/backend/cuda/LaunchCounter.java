package io.dilithiumgpu.backend.cuda;

import jcuda.Pointer;
import jcuda.Sizeof;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUmodule;
import jcuda.driver.JCudaDriver;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The host's half of a device's help gate (the kernels' {@code help.cuh}): a count of the
 * launches submitted on the device, in page-locked host memory mapped into it, whose device
 * address the module's {@code dg_help_gate} holds. Each launch is counted before it is
 * submitted; a launch the driver refused is counted out again. The kernels compare the count
 * with the launches that have started: signing warps without a task help other tasks' rejection
 * loops only while every counted launch has started and none has a task left to take, so that a
 * queued launch never waits for a helper's multiprocessor slot.
 *
 * <p>Without a counter (its address in the module stays null), the gate never opens.
 */
final class LaunchCounter implements AutoCloseable {
    /** The module global: {@code struct HelpGate { uint32_t started; int32_t unclaimed; const uint32_t* launched; }}. */
    static final String GATE_SYMBOL = "dg_help_gate";
    static final long GATE_BYTES = 16;
    static final long LAUNCHED_OFFSET = 8;

    private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());

    private final Pointer host;
    private final ByteBuffer word;
    private boolean closed;

    private LaunchCounter(Pointer host, ByteBuffer word) {
        this.host = host;
        this.word = word;
    }

    /**
     * Allocates the mapped count (zero) and stores its device address in {@code module}'s gate.
     * The device's context must be current.
     *
     * @throws jcuda.CudaException or a {@link io.dilithiumgpu.backend.BackendException} from
     *                             {@link CudaCall} when an allocation or copy fails
     */
    static LaunchCounter attach(CUmodule module, String where) {
        CUdeviceptr gate = new CUdeviceptr();
        long[] size = new long[1];
        CudaCall.check("cuModuleGetGlobal(" + GATE_SYMBOL + ", " + where + ")",
                () -> JCudaDriver.cuModuleGetGlobal(gate, size, module, GATE_SYMBOL));
        if (size[0] != GATE_BYTES) {
            throw new IllegalStateException(GATE_SYMBOL + " is " + size[0] + " bytes, not " + GATE_BYTES);
        }
        Pointer host = new Pointer();
        CudaCall.check("cuMemHostAlloc(launch count, " + where + ")",
                () -> JCudaDriver.cuMemHostAlloc(host, Integer.BYTES,
                        JCudaDriver.CU_MEMHOSTALLOC_DEVICEMAP | JCudaDriver.CU_MEMHOSTALLOC_PORTABLE));
        boolean done = false;
        try {
            ByteBuffer word = host.getByteBuffer(0, Integer.BYTES).order(ByteOrder.nativeOrder());
            INT.setVolatile(word, 0, 0);
            CUdeviceptr mapped = new CUdeviceptr();
            CudaCall.check("cuMemHostGetDevicePointer(launch count, " + where + ")",
                    () -> JCudaDriver.cuMemHostGetDevicePointer(mapped, host, 0));
            // The device address itself (a pointer to pointers: JCuda copies their native values).
            CudaCall.check("cuMemcpyHtoD(" + GATE_SYMBOL + ".launched, " + where + ")",
                    () -> JCudaDriver.cuMemcpyHtoD(gate.withByteOffset(LAUNCHED_OFFSET),
                            Pointer.to(new CUdeviceptr[] {mapped}), Sizeof.POINTER));
            done = true;
            return new LaunchCounter(host, word);
        } finally {
            if (!done) {
                JCudaDriver.cuMemFreeHost(host);
            }
        }
    }

    /** Counts a launch about to be submitted. */
    void submitting() {
        INT.getAndAdd(word, 0, 1);
    }

    /** Counts out a launch the driver refused. */
    void refused() {
        INT.getAndAdd(word, 0, -1);
    }

    /** Launches counted so far. */
    int count() {
        return (int) INT.getVolatile(word, 0);
    }

    /** Frees the count; the module's gate must not be used afterwards (unload the module first). */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            JCudaDriver.cuMemFreeHost(host);
        }
    }
}
