package io.dilithiumgpu.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The order in which {@code jca} measures one set, operation and call style: level by level, every
 * provider's cell of a level right after another's, so that the two numbers of a ratio are seconds
 * apart and the host's drift between runs falls on both. The providers' order is reversed at every
 * other level and, in the next round, at every level, so that no provider always goes first. After
 * the closed loop's rounds, each provider's open loop, in the order given.
 */
final class JcaSchedule {
    private JcaSchedule() {}

    /**
     * One measurement: a provider's closed loop at level number {@code level} (0-based, in the order
     * of the levels) in round {@code round}, or its open loop ({@link #OPEN_LOOP}, round 0).
     */
    record Cell(Contender provider, int round, int level) {
        static final int OPEN_LOOP = -1;

        boolean openLoop() {
            return level == OPEN_LOOP;
        }
    }

    /**
     * The cells of one set, operation and style: {@code rounds} passes over {@code levels} levels,
     * providers in the order given where the round and the level add up to an even number, reversed
     * where odd; then each provider's open loop.
     *
     * @param providers each once, in the order of {@code --providers}
     * @param levels    the closed loop's levels; 0 for the open loop alone
     */
    static List<Cell> of(List<Contender> providers, int levels, int rounds) {
        if (rounds < 1 || levels < 0) {
            throw new IllegalArgumentException(rounds + " rounds of " + levels + " levels");
        }
        List<Contender> reversed = new ArrayList<>(providers);
        Collections.reverse(reversed);
        List<Cell> cells = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            for (int level = 0; level < levels; level++) {
                for (Contender c : (round + level) % 2 == 0 ? providers : reversed) {
                    cells.add(new Cell(c, round, level));
                }
            }
        }
        for (Contender c : providers) {
            cells.add(new Cell(c, 0, Cell.OPEN_LOOP));
        }
        return cells;
    }
}
