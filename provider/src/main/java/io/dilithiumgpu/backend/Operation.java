package io.dilithiumgpu.backend;

/** The three batched operations. */
public enum Operation {
    KEYGEN, SIGN, VERIFY
}
