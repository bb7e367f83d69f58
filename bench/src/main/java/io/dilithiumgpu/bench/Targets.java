package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.Operation;

/**
 * The reference points printed beside measured throughputs, in operations per second on one NVIDIA
 * H100, by NIST security level (2, 3, 5).
 *
 * <ul>
 *   <li>{@link #target}: this project's goals.</li>
 *   <li>{@link #paper}: the code of "High-Throughput GPU Implementation of Dilithium" (Shen et al.)
 *       measured on the same H100, for round-3 Dilithium2/3/5 (the ML-DSA sets of the same level
 *       do the same lattice work, so the figure is the nearest comparison for them too).</li>
 * </ul>
 */
final class Targets {
    private Targets() {}

    /** Project targets: keygen, sign, verify at levels 2, 3, 5. */
    private static final double[][] TARGET = {
            {7_500_000, 3_500_000, 2_800_000},
            {2_000_000, 1_150_000, 900_000},
            {6_500_000, 3_500_000, 2_500_000},
    };

    /** The paper's code on an H100: keygen, sign, verify for Dilithium2, 3, 5. */
    private static final double[][] PAPER = {
            {3_250_000, 1_870_000, 1_090_000},
            {1_130_000, 753_000, 585_000},
            {3_660_000, 2_120_000, 1_220_000},
    };

    static double target(Operation op, int level) {
        return TARGET[op.ordinal()][levelIndex(level)];
    }

    static double paper(Operation op, int level) {
        return PAPER[op.ordinal()][levelIndex(level)];
    }

    private static int levelIndex(int level) {
        return switch (level) {
            case 2 -> 0;
            case 3 -> 1;
            case 5 -> 2;
            default -> throw new IllegalArgumentException("NIST level is 2, 3 or 5: " + level);
        };
    }
}
