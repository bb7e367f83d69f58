package io.dilithiumgpu.bench;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.dilithiumgpu.bench.Contender.BC;
import static io.dilithiumgpu.bench.Contender.DILITHIUM_GPU;
import static io.dilithiumgpu.bench.Contender.DILITHIUM_GPU_CPU;
import static io.dilithiumgpu.bench.Contender.SUN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JcaScheduleTest {
    /** {@code "GPU@0"} for DilithiumGPU's closed loop at level 0, {@code "SUN@open"} for SUN's open loop. */
    private static List<String> names(List<JcaSchedule.Cell> cells) {
        List<String> names = new ArrayList<>();
        for (JcaSchedule.Cell c : cells) {
            String who = switch (c.provider()) {
                case DILITHIUM_GPU -> "GPU";
                case DILITHIUM_GPU_CPU -> "CPU";
                case SUN -> "SUN";
                case BC -> "BC";
            };
            names.add(who + "@" + (c.openLoop() ? "open" : c.round() + "." + c.level()));
        }
        return names;
    }

    @Test
    void eachLevelsCellsComeTogetherTheOrderReversedAtEveryOtherLevel() {
        assertEquals(List.of("GPU@0.0", "SUN@0.0", "SUN@0.1", "GPU@0.1", "GPU@0.2", "SUN@0.2", "SUN@0.3", "GPU@0.3",
                        "GPU@open", "SUN@open"),
                names(JcaSchedule.of(List.of(DILITHIUM_GPU, SUN), 4, 1)));
    }

    @Test
    void theNextRoundStartsEachLevelTheOtherWayRound() {
        assertEquals(List.of("GPU@0.0", "SUN@0.0", "SUN@0.1", "GPU@0.1", "GPU@0.2", "SUN@0.2",
                        "SUN@1.0", "GPU@1.0", "GPU@1.1", "SUN@1.1", "SUN@1.2", "GPU@1.2",
                        "GPU@open", "SUN@open"),
                names(JcaSchedule.of(List.of(DILITHIUM_GPU, SUN), 3, 2)));
    }

    @Test
    void moreProvidersRunForwardThenBackward() {
        assertEquals(List.of("GPU@0.0", "CPU@0.0", "SUN@0.0", "BC@0.0", "BC@0.1", "SUN@0.1", "CPU@0.1", "GPU@0.1",
                        "GPU@open", "CPU@open", "SUN@open", "BC@open"),
                names(JcaSchedule.of(List.of(DILITHIUM_GPU, DILITHIUM_GPU_CPU, SUN, BC), 2, 1)));
    }

    /** Every provider measures every level once per round, whatever the counts. */
    @Test
    void everyCellOnceAndNoProviderAlwaysFirst() {
        List<Contender> providers = List.of(SUN, DILITHIUM_GPU, BC);
        for (int levels = 1; levels <= 7; levels++) {
            for (int rounds = 1; rounds <= 4; rounds++) {
                List<JcaSchedule.Cell> cells = JcaSchedule.of(providers, levels, rounds);
                assertEquals(providers.size() * (levels * rounds + 1), cells.size());
                for (Contender c : providers) {
                    for (int r = 0; r < rounds; r++) {
                        for (int l = 0; l < levels; l++) {
                            assertEquals(1, cells.stream().filter(new JcaSchedule.Cell(c, r, l)::equals).count());
                        }
                    }
                }
                // A level's cells are adjacent: the providers of cells k*n .. k*n+n-1 are all different.
                for (int k = 0; k < levels * rounds; k++) {
                    List<JcaSchedule.Cell> block = cells.subList(k * providers.size(), (k + 1) * providers.size());
                    assertEquals(providers.size(), block.stream().map(JcaSchedule.Cell::provider).distinct().count());
                    assertTrue(block.stream().allMatch(c -> c.level() == block.get(0).level()
                            && c.round() == block.get(0).round()), block.toString());
                }
                if (levels > 1) {
                    assertEquals(BC, cells.get(providers.size()).provider(), "the second level starts with the last");
                }
            }
        }
    }

    @Test
    void theOpenLoopAloneIsOneCellPerProvider() {
        assertEquals(List.of("SUN@open", "GPU@open"), names(JcaSchedule.of(List.of(SUN, DILITHIUM_GPU), 0, 1)));
        assertEquals(List.of(), JcaSchedule.of(List.of(), 3, 2));
        assertThrows(IllegalArgumentException.class, () -> JcaSchedule.of(List.of(SUN), 3, 0));
    }
}
