package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.cuda.CudaConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The GPU counts {@code throughput --gpus} compares, in the order given: each the host's first n
 * GPUs (ordinals 0 to n − 1, as the process sees them), or {@link #ALL} of them.
 *
 * @param counts each a count ≥ 1, or {@link #ALL}; distinct
 */
record GpuCounts(List<Integer> counts) {
    /** Every GPU the driver reports. */
    static final int ALL = 0;

    GpuCounts {
        counts = List.copyOf(counts);
        if (counts.isEmpty() || counts.stream().anyMatch(n -> n < 0)
                || counts.stream().distinct().count() != counts.size()) {
            throw new IllegalArgumentException("GPU counts must be distinct, each ≥ 1 or all: " + counts);
        }
    }

    /**
     * Parses {@code 1,all}, {@code 1,2,4}: counts and {@code all}, comma-separated.
     *
     * @throws IllegalArgumentException naming what does not parse
     */
    static GpuCounts parse(String text) {
        List<Integer> counts = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            String p = part.trim();
            if (p.equalsIgnoreCase("all")) {
                counts.add(ALL);
            } else if (!p.isEmpty() && p.length() <= 4 && p.chars().allMatch(c -> c >= '0' && c <= '9')
                    && Integer.parseInt(p) >= 1) {
                counts.add(Integer.parseInt(p));
            } else {
                throw new IllegalArgumentException("not a GPU count (1, 2, ... or all): '" + p + "'");
            }
        }
        if (counts.stream().distinct().count() != counts.size()) {
            throw new IllegalArgumentException("a GPU count given twice: " + text);
        }
        return new GpuCounts(counts);
    }

    /** {@code base} restricted to count {@code i}'s GPUs. */
    CudaConfig config(int i, CudaConfig base) {
        int n = counts.get(i);
        return base.toBuilder().devices(n == ALL ? List.of() : IntStream.range(0, n).boxed().toList()).build();
    }

    /** {@code 1 GPU}, {@code 2 GPUs}: a column's name once it is known how many opened. */
    static String label(int gpus) {
        return gpus + (gpus == 1 ? " GPU" : " GPUs");
    }

    @Override
    public String toString() {
        return String.join(",", counts.stream().map(n -> n == ALL ? "all" : n.toString()).toList());
    }
}
