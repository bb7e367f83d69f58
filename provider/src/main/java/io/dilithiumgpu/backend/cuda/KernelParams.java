package io.dilithiumgpu.backend.cuda;

import jcuda.Pointer;
import jcuda.driver.CUdeviceptr;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A slot's kernel arguments, laid out in native memory as {@code cuLaunchKernel} reads them: a
 * value of 8 bytes per argument, then the array of pointers to those values, written once. A
 * launch writes its values and passes the array's address, so JCuda hands the driver a plain
 * pointer instead of marshalling an object per argument on every launch.
 *
 * <p>Ownership: the slot's, used by the thread that holds it; the driver copies the arguments
 * during {@code cuLaunchKernel}, so the next launch may overwrite them.
 */
final class KernelParams {
    /** The most arguments of an entry point ({@code batch_abi.h}: the arrays, the task count, scratch and workspace). */
    static final int MAX_ARGS = 16;
    /** Bytes of native memory the arguments take. */
    static final long BYTES = 2L * MAX_ARGS * Long.BYTES;

    private final ByteBuffer values;
    private final Pointer array;

    /** Over {@code block}: {@link #BYTES} of host memory allocated by the driver, at an address that does not move. */
    KernelParams(Pointer block) {
        this.values = block.getByteBuffer(0, BYTES).order(ByteOrder.nativeOrder());
        long base = Address.of(block);
        for (int i = 0; i < MAX_ARGS; i++) {
            values.putLong((MAX_ARGS + i) * Long.BYTES, base + (long) i * Long.BYTES);
        }
        this.array = block.withByteOffset((long) MAX_ARGS * Long.BYTES);
    }

    /**
     * Writes the arguments of an entry point of {@code batch_abi.h}: the device addresses of
     * {@code arrays} (a null device pointer as 0), then {@code tasks}, {@code scratch} and
     * {@code workspace}; returns the {@code kernelParams} to launch with.
     */
    Pointer set(CUdeviceptr[] arrays, int tasks, CUdeviceptr scratch, CUdeviceptr workspace) {
        int n = arrays.length;
        if (n + 3 > MAX_ARGS) {
            throw new IllegalArgumentException(n + " arrays: more arguments than " + MAX_ARGS);
        }
        for (int r = 0; r < n; r++) {
            values.putLong(r * Long.BYTES, Address.of(arrays[r]));
        }
        values.putLong(n * Long.BYTES, 0);
        values.putInt(n * Long.BYTES, tasks);
        values.putLong((n + 1) * Long.BYTES, Address.of(scratch));
        values.putLong((n + 2) * Long.BYTES, Address.of(workspace));
        return array;
    }

    /** The address a JCuda pointer to native or device memory stands for, through the accessors JCuda leaves to subclasses. */
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
