package io.dilithiumgpu.backend.cuda;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

@Timeout(60)
class HostCopierTest {

    @Test
    void everyTaskIsVisitedExactlyOnce() {
        try (HostCopier copier = new HostCopier(4)) {
            for (int tasks : new int[] {1, 2, 3, 17, 1000, 65_536}) {
                for (long bytesPerTask : new long[] {1, 64, 5000, 1 << 20}) {
                    AtomicIntegerArray visits = new AtomicIntegerArray(tasks);
                    copier.forEachPart(tasks, bytesPerTask, (from, to) -> {
                        for (int i = from; i < to; i++) {
                            visits.incrementAndGet(i);
                        }
                    });
                    for (int i = 0; i < tasks; i++) {
                        assertEquals(1, visits.get(i), "task " + i + " of " + tasks);
                    }
                }
            }
        }
    }

    @Test
    void partsAreAtLeastAMebibyteAndAtMostOnePerThread() {
        assertEquals(1, HostCopier.partCount(1000, 1000, 8));
        assertEquals(2, HostCopier.partCount(2048, 1024, 8));
        assertEquals(8, HostCopier.partCount(8192, 9700, 8));
        assertEquals(1, HostCopier.partCount(8192, 9700, 1));
        assertEquals(3, HostCopier.partCount(3, 1 << 22, 8));
    }

    @Test
    void aFailingPartFailsTheCopyAfterTheOthersFinish() {
        try (HostCopier copier = new HostCopier(4)) {
            AtomicInteger finished = new AtomicInteger();
            IllegalStateException boom = new IllegalStateException("boom");
            IllegalStateException thrown = assertThrows(IllegalStateException.class,
                    () -> copier.forEachPart(4, 1 << 20, (from, to) -> {
                        if (from == 0) {
                            throw boom;
                        }
                        finished.incrementAndGet();
                    }));
            assertSame(boom, thrown);
            assertEquals(3, finished.get());
        }
    }

    @Test
    void aFailureInAPoolThreadReachesTheCaller() {
        try (HostCopier copier = new HostCopier(2)) {
            IllegalStateException thrown = assertThrows(IllegalStateException.class,
                    () -> copier.forEachPart(2, 1 << 20, (from, to) -> {
                        if (from == 1) {
                            throw new IllegalStateException("second part");
                        }
                    }));
            assertEquals("second part", thrown.getMessage());
        }
    }
}
