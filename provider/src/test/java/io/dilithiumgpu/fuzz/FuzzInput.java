package io.dilithiumgpu.fuzz;

import java.util.Arrays;
import java.util.List;

/**
 * The fuzzer's bytes read from the front as choices and fields, so that a seed file is easy to
 * write by hand: each {@link #choose} takes one byte, each {@link #field} a one-byte length then
 * that many bytes, and {@link #rest} what is left. Reading past the end gives zeros and empty
 * fields, never an exception.
 */
final class FuzzInput {
    private final byte[] data;
    private int pos;

    FuzzInput(byte[] data) {
        this.data = data;
    }

    /** One of {@code n} choices (0 when the input is used up). */
    int choose(int n) {
        return pos < data.length ? (data[pos++] & 0xFF) % n : 0;
    }

    <T> T choose(List<T> options) {
        return options.get(choose(options.size()));
    }

    boolean flag() {
        return choose(2) == 1;
    }

    /** A field of 0 to 255 bytes: its length byte, then its bytes (fewer when the input ends). */
    byte[] field() {
        int n = choose(256);
        int end = Math.min(data.length, pos + n);
        byte[] out = Arrays.copyOfRange(data, pos, end);
        pos = end;
        return out;
    }

    /** A field of up to 65,535 bytes, its length in two bytes. */
    byte[] longField() {
        int n = choose(256) << 8 | choose(256);
        int end = Math.min(data.length, pos + n);
        byte[] out = Arrays.copyOfRange(data, pos, end);
        pos = end;
        return out;
    }

    /** Everything not read yet. */
    byte[] rest() {
        byte[] out = Arrays.copyOfRange(data, pos, data.length);
        pos = data.length;
        return out;
    }
}
