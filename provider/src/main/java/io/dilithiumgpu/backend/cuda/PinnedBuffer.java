package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.BackendException;
import io.dilithiumgpu.backend.HostBuffer;
import jcuda.Pointer;

/**
 * A {@link HostBuffer} of the CUDA backend: native memory the JVM owns, page-locked with
 * {@code cuMemHostRegister} (portable to every context of the process), so that a slot copies a
 * chunk's records straight between it and the device.
 *
 * <p>The registration belongs to the {@link DeviceSet} that made it. When the backend reopens its
 * devices after a failure, the next call registers the buffer with the new set; until then the
 * memory stays valid, since the JVM, not the driver, owns it. {@link #close()} unregisters it from
 * the set that registered it, if that set is still open.
 */
final class PinnedBuffer extends HostBuffer {
    private final CudaBackend owner;
    private final Pointer pointer;
    /** Guarded by this. */
    private DeviceSet registeredIn;

    PinnedBuffer(CudaBackend owner, long bytes) {
        super(bytes);
        this.owner = owner;
        this.pointer = Pointer.to(memory());
    }

    /** Whether {@code backend} made this buffer. */
    boolean ownedBy(CudaBackend backend) {
        return owner == backend;
    }

    /**
     * The buffer's address, registered with {@code set} first if it is not yet.
     *
     * @throws IllegalStateException when the buffer is closed
     * @throws BackendException      when the registration fails
     */
    synchronized Pointer pointerIn(DeviceSet set) {
        if (isClosed()) {
            throw new IllegalStateException("host buffer is closed");
        }
        if (registeredIn != set && bytes() > 0) {
            set.registerHost(pointer, bytes());
            registeredIn = set;
        }
        return pointer;
    }

    @Override
    protected void released() {
        DeviceSet set;
        synchronized (this) {
            set = registeredIn;
            registeredIn = null;
        }
        if (set != null) {
            set.unregisterHost(pointer);
        }
    }
}
