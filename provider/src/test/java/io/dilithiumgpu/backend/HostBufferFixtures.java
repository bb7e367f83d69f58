package io.dilithiumgpu.backend;

import java.util.function.LongFunction;

/** Host buffers filled from, and read back into, heap arrays: for tests of the host-buffer forms. */
public final class HostBufferFixtures {
    private HostBufferFixtures() {}

    /** A buffer from {@code allocate} holding exactly {@code records}. */
    public static HostBuffer filled(LongFunction<HostBuffer> allocate, byte[] records) {
        HostBuffer b = allocate.apply(records.length);
        b.buffer().put(0, records);
        return b;
    }

    /** The whole buffer, copied. */
    public static byte[] contents(HostBuffer b) {
        byte[] a = new byte[Math.toIntExact(b.bytes())];
        b.buffer().get(0, a);
        return a;
    }
}
