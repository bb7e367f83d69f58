package io.dilithiumgpu.bench;

import io.dilithiumgpu.backend.BatchRecords;
import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.HostBatches;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.backend.cpu.CpuBackend;
import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

@Timeout(60)
class BatchBenchTest {

    /** The CPU backend behind every operation; the test backends below step in where they test something. */
    private abstract static class OverCpu implements Backend {
        final CpuBackend cpu = new CpuBackend(2);

        @Override
        public String name() {
            return getClass().getSimpleName();
        }

        @Override
        public int preferredBatchSize(ParameterSet params, Operation op) {
            return cpu.preferredBatchSize(params, op);
        }

        /** Records in host buffers come back through heap copies, so that subclasses see heap records only. */
        @Override
        public void run(BatchRecords records) {
            if (records.inHost()) {
                HostBatches.run(this, records);
            } else {
                cpu.run(records);
            }
        }

        @Override
        public void close() {
            cpu.close();
        }
    }

    /**
     * The CPU backend, except that once key generation or signing has run, later calls of it
     * write OK statuses and leave every output as the last call left it: the stale results a wrong
     * backend could pass off as a run's own.
     */
    private static final class StaleBackend extends OverCpu {
        private final Set<Operation> ran = EnumSet.noneOf(Operation.class);

        private boolean stale(Operation op, byte[] status) {
            if (ran.add(op)) {
                return false;
            }
            Arrays.fill(status, (byte) 0);
            return true;
        }

        @Override
        public void run(BatchRecords records) {
            if (records.inHost() || records.op() == Operation.VERIFY || !stale(records.op(), records.status())) {
                super.run(records);
            }
        }
    }

    /** The CPU backend, keeping a copy of the rnds of every signing call. */
    private static final class RecordingBackend extends OverCpu {
        private final List<byte[]> rnds;

        RecordingBackend(List<byte[]> rnds) {
            this.rnds = rnds;
        }

        @Override
        public void run(BatchRecords records) {
            if (records.op() == Operation.SIGN && !records.inHost()) {
                this.rnds.add(records.array(2).clone());
            }
            super.run(records);
        }
    }

    /**
     * A run that writes nothing fails its check, even though the run before it left correct
     * outputs in the same arrays or host buffers: prepare clears every record the check reads.
     */
    @ParameterizedTest
    @EnumSource(BatchBench.Memory.class)
    void aRunThatLeavesTheLastRunsOutputsFailsItsCheck(BatchBench.Memory memory) {
        OutputCheck check = new OutputCheck(Reference.core());
        try (Backend backend = new StaleBackend();
             BatchBench bench = new BatchBench(backend, ParameterSet.ML_DSA_44, 12, check, 3, new SplittableRandom(5),
                     memory)) {
            Runs.TimedBatch keyGen = bench.keyGen();
            assertDoesNotThrow(() -> Runs.once(keyGen));
            Runs.TimedBatch sign = bench.sign();
            assertDoesNotThrow(() -> Runs.once(sign));
            assertThrows(WrongResultException.class, () -> Runs.once(sign));
            assertThrows(WrongResultException.class, () -> Runs.once(keyGen));
        }
    }

    /**
     * Every signing run signs with rnds of its own, and its check holds its signatures to those
     * rnds: the runs time as many batches as there are runs (a batch's slowest rejection loops
     * depend on its rnds), and a run signed with stale rnds would fail its check.
     */
    @ParameterizedTest
    @EnumSource(BatchBench.Memory.class)
    void everySigningRunDrawsItsOwnRnds(BatchBench.Memory memory) {
        List<byte[]> seen = new ArrayList<>();
        OutputCheck check = new OutputCheck(Reference.core());
        try (Backend backend = new RecordingBackend(seen);
             BatchBench bench = new BatchBench(backend, ParameterSet.ML_DSA_44, 12, check, 12, new SplittableRandom(7),
                     memory)) {
            assertDoesNotThrow(() -> Runs.once(bench.keyGen()));
            Runs.TimedBatch sign = bench.sign();
            assertDoesNotThrow(() -> Runs.once(sign));
            assertDoesNotThrow(() -> Runs.once(sign));
            assertEquals(2, seen.size());
            assertFalse(Arrays.equals(seen.get(0), seen.get(1)), "the second run signed with the first run's rnds");
        }
    }

    /** The CPU backend, noting how each signing and verification call named its keys. */
    private static final class KeyRecordingBackend extends OverCpu {
        final List<String> calls = new ArrayList<>();

        @Override
        public void run(BatchRecords records) {
            if (records.op() != Operation.KEYGEN && !records.inHost()) {
                calls.add(records.op() + (records.oneKey() ? " one key"
                        : records.privateKeyCaches() != null || records.publicKeyCaches() != null ? " caches"
                        : " plain"));
            }
            super.run(records);
        }
    }

    /**
     * With a few keys, signing and verification run with them, checked as ever: one key as
     * one-key records, several as per-task records naming each key's cache; a corrupted task is
     * still rejected.
     */
    @ParameterizedTest
    @EnumSource(BatchBench.Memory.class)
    void aFewKeysRunAsOneKeyRecordsOrWithTheirCaches(BatchBench.Memory memory) {
        OutputCheck check = new OutputCheck(Reference.core());
        for (int keys : new int[] {1, 3}) {
            KeyRecordingBackend backend = new KeyRecordingBackend();
            try (backend;
                 BatchBench bench = new BatchBench(backend, ParameterSet.ML_DSA_44, 8, check, 4,
                         new SplittableRandom(11), memory, keys)) {
                assertDoesNotThrow(() -> Runs.once(bench.keyGen()));
                Runs.TimedBatch sign = bench.sign();
                assertDoesNotThrow(() -> Runs.once(sign));
                assertDoesNotThrow(() -> Runs.once(sign));
                assertDoesNotThrow(() -> Runs.once(bench.verify()));
            }
            String how = keys == 1 ? " one key" : " caches";
            assertEquals(List.of("SIGN" + how, "SIGN" + how, "VERIFY" + how), backend.calls.subList(0, 3), "keys " + keys);
        }
        assertThrows(IllegalArgumentException.class, () -> new BatchBench(new CpuBackend(1), ParameterSet.ML_DSA_44, 2,
                check, 1, new SplittableRandom(1), memory, 3));
    }
}
