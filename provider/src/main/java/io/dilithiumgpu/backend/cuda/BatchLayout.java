package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;

import java.util.ArrayList;
import java.util.List;

/**
 * Where the arrays of one launch lie in a slot's memory block (the same offsets in pinned host
 * memory and in device memory). The arrays come in the order of the entry point's parameters
 * ({@code batch_abi.h}): inputs first, then outputs, the status bytes last, so that one upload
 * covers {@code [0, inputBytes)} and one download covers {@code [outputOffset, totalBytes)}.
 * Every array starts on a {@value #ALIGNMENT}-byte boundary, the granularity of an L2 request pair
 * (paper §4.4, "Memory Pool").
 *
 * <p>Secret arrays (seeds and private keys of key generation; private keys and ρ′/rnd of signing)
 * are flagged: a slot wipes them in host and device memory after every launch.
 */
final class BatchLayout {

    /** Alignment of every array in the block, in bytes. */
    static final int ALIGNMENT = 256;

    /** One array of fixed-size records. */
    record Region(String name, long offset, int recordBytes, boolean input, boolean secret) {
        /** Bytes of {@code n} records. */
        long bytes(int n) {
            return (long) n * recordBytes;
        }
    }

    private final ParameterSet params;
    private final Operation op;
    private final int tasks;
    private final List<Region> regions;
    private final long inputBytes;
    private final long outputOffset;
    private final long totalBytes;

    private BatchLayout(ParameterSet params, Operation op, int tasks, List<Region> regions) {
        this.params = params;
        this.op = op;
        this.tasks = tasks;
        this.regions = regions;
        Region firstOutput = regions.stream().filter(r -> !r.input()).findFirst().orElseThrow();
        Region lastInput = regions.get(regions.indexOf(firstOutput) - 1);
        this.inputBytes = lastInput.offset() + lastInput.bytes(tasks);
        this.outputOffset = firstOutput.offset();
        Region last = regions.get(regions.size() - 1);
        this.totalBytes = last.offset() + last.bytes(tasks);
    }

    /** The layout of {@code tasks} tasks of {@code op} on {@code params}. */
    static BatchLayout of(ParameterSet params, Operation op, int tasks) {
        if (tasks < 1) {
            throw new IllegalArgumentException("a layout holds at least one task, not " + tasks);
        }
        Builder b = new Builder(tasks);
        switch (op) {
            case KEYGEN -> {
                b.add("seeds", BatchAbi.SEED_BYTES, true, true);
                b.add("publicKeys", params.publicKeyBytes(), false, false);
                b.add("privateKeys", params.privateKeyBytes(), false, true);
            }
            case SIGN -> {
                b.add("privateKeys", params.privateKeyBytes(), true, true);
                b.add("mus", BatchAbi.MU_BYTES, true, false);
                b.add("rnds", params.rndBytes(), true, true);
                b.add("signatures", params.signatureBytes(), false, false);
            }
            case VERIFY -> {
                b.add("publicKeys", params.publicKeyBytes(), true, false);
                b.add("mus", BatchAbi.MU_BYTES, true, false);
                b.add("signatures", params.signatureBytes(), true, false);
            }
        }
        b.add("status", 1, false, false);
        return new BatchLayout(params, op, tasks, List.copyOf(b.regions));
    }

    /**
     * The block size that holds a layout of {@code tasks} tasks for every parameter set and
     * operation, plain or on cached keys ({@link KeyedLayout}): what a slot allocates once.
     */
    static long capacityBytes(int tasks) {
        long max = KeyedLayout.capacityBytes(tasks);
        for (ParameterSet p : ParameterSet.values()) {
            for (Operation op : Operation.values()) {
                max = Math.max(max, of(p, op, tasks).totalBytes());
            }
        }
        return max;
    }

    ParameterSet params() { return params; }
    Operation operation() { return op; }
    int tasks() { return tasks; }
    /** The arrays in kernel-parameter order. */
    List<Region> regions() { return regions; }
    /** Bytes from the block's start to the end of the last input array. */
    long inputBytes() { return inputBytes; }
    /** Offset of the first output array. */
    long outputOffset() { return outputOffset; }
    /** Bytes from the block's start to the end of the status array. */
    long totalBytes() { return totalBytes; }
    /** Bytes of the download: from {@link #outputOffset()} to {@link #totalBytes()}. */
    long outputBytes() { return totalBytes - outputOffset; }
    /** The status array (the last region). */
    Region status() { return regions.get(regions.size() - 1); }
    /** Whether any array holds secrets (then the workspace does too). */
    boolean hasSecrets() { return regions.stream().anyMatch(Region::secret); }

    /** Whether any input array holds secrets: private keys, rnd or seeds. */
    boolean hasSecretInputs() { return regions.stream().anyMatch(r -> r.secret() && r.input()); }

    static long align(long offset) {
        return (offset + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
    }

    private static final class Builder {
        private final int tasks;
        private final ArrayList<Region> regions = new ArrayList<>();
        private long next;

        Builder(int tasks) {
            this.tasks = tasks;
        }

        void add(String name, int recordBytes, boolean input, boolean secret) {
            long offset = align(next);
            regions.add(new Region(name, offset, recordBytes, input, secret));
            next = offset + (long) tasks * recordBytes;
        }
    }
}
