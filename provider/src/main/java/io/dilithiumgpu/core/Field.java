package io.dilithiumgpu.core;

/** Arithmetic in Z_q, q = 2^23 − 2^13 + 1 (skeleton: constants only; completed by the core). */
public final class Field {
    /** The modulus q = 8380417. */
    public static final int Q = 8380417;

    private Field() {}
}
