package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.BatchRecords;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BatchLayoutTest {
    private static final int[] TASK_COUNTS = {1, 3, 255, 256, 257, 8192};

    @Test
    void regionsFollowTheKernelParameters() {
        ParameterSet p = ParameterSet.ML_DSA_65;
        assertEquals(List.of("seeds", "publicKeys", "privateKeys", "status"), names(p, Operation.KEYGEN));
        assertEquals(List.of("privateKeys", "mus", "rnds", "signatures", "status"), names(p, Operation.SIGN));
        assertEquals(List.of("publicKeys", "mus", "signatures", "status"), names(p, Operation.VERIFY));
    }

    /** The backend's records and the kernels' regions name, size and flag every field alike. */
    @Test
    void regionsMirrorTheBatchRecordsFields() {
        for (ParameterSet p : ParameterSet.values()) {
            for (Operation op : Operation.values()) {
                List<BatchLayout.Region> regions = BatchLayout.of(p, op, 1).regions();
                BatchRecords r = records(p, op);
                assertEquals(regions.size() - 1, r.fields(), op + " fields besides the status");
                for (int f = 0; f < r.fields(); f++) {
                    BatchLayout.Region region = regions.get(f);
                    String what = p + " " + op + " field " + f;
                    assertEquals(region.name(), r.name(f), what);
                    assertEquals(region.recordBytes(), r.recordBytes(f), what);
                    assertEquals(region.input(), r.input(f), what);
                    assertEquals(region.secret(), r.secret(f), what);
                }
            }
        }
    }

    private static BatchRecords records(ParameterSet p, Operation op) {
        byte[] big = new byte[p.privateKeyBytes() + p.publicKeyBytes() + p.signatureBytes()];
        byte[] status = new byte[1];
        return switch (op) {
            case KEYGEN -> BatchRecords.keyGen(p, 1, big, big, big, status);
            case SIGN -> BatchRecords.sign(p, 1, big, big, big, big, status);
            case VERIFY -> BatchRecords.verify(p, 1, big, big, big, status);
        };
    }

    private static List<String> names(ParameterSet p, Operation op) {
        return BatchLayout.of(p, op, 1).regions().stream().map(BatchLayout.Region::name).collect(Collectors.toList());
    }

    @Test
    void recordSizesAreTheParameterSets() {
        for (ParameterSet p : ParameterSet.values()) {
            List<BatchLayout.Region> sign = BatchLayout.of(p, Operation.SIGN, 1).regions();
            assertEquals(p.privateKeyBytes(), sign.get(0).recordBytes());
            assertEquals(64, sign.get(1).recordBytes());
            assertEquals(p.rndBytes(), sign.get(2).recordBytes());
            assertEquals(p.signatureBytes(), sign.get(3).recordBytes());
            List<BatchLayout.Region> keyGen = BatchLayout.of(p, Operation.KEYGEN, 1).regions();
            assertEquals(32, keyGen.get(0).recordBytes());
            assertEquals(p.publicKeyBytes(), keyGen.get(1).recordBytes());
            assertEquals(p.privateKeyBytes(), keyGen.get(2).recordBytes());
        }
    }

    @Test
    void regionsAreAlignedDisjointAndInputsComeFirst() {
        for (ParameterSet p : ParameterSet.values()) {
            for (Operation op : Operation.values()) {
                for (int n : TASK_COUNTS) {
                    BatchLayout layout = BatchLayout.of(p, op, n);
                    List<BatchLayout.Region> regions = layout.regions();
                    long end = 0;
                    boolean seenOutput = false;
                    for (BatchLayout.Region r : regions) {
                        assertEquals(0, r.offset() % BatchLayout.ALIGNMENT, r.toString());
                        assertTrue(r.offset() >= end, "overlap at " + r);
                        assertTrue(r.offset() - end < BatchLayout.ALIGNMENT, "gap before " + r);
                        assertFalse(seenOutput && r.input(), "input after an output: " + r);
                        if (!r.input() && !seenOutput) {
                            assertEquals(end, layout.inputBytes(), p + " " + op);
                            assertEquals(r.offset(), layout.outputOffset());
                            seenOutput = true;
                        }
                        end = r.offset() + r.bytes(n);
                    }
                    assertEquals("status", layout.status().name());
                    assertEquals(1, layout.status().recordBytes());
                    assertEquals(end, layout.totalBytes());
                    assertEquals(layout.totalBytes() - layout.outputOffset(), layout.outputBytes());
                    assertTrue(layout.totalBytes() <= BatchLayout.capacityBytes(n));
                }
            }
        }
    }

    @Test
    void capacityIsReachedBySomeLayout() {
        for (int n : TASK_COUNTS) {
            long max = KeyedLayout.capacityBytes(n);
            for (ParameterSet p : ParameterSet.values()) {
                for (Operation op : Operation.values()) {
                    max = Math.max(max, BatchLayout.of(p, op, n).totalBytes());
                }
            }
            assertEquals(max, BatchLayout.capacityBytes(n));
        }
    }

    @Test
    void secretsAreSeedsPrivateKeysAndSigningRandomness() {
        for (ParameterSet p : ParameterSet.values()) {
            assertEquals(List.of("seeds", "privateKeys"), secrets(p, Operation.KEYGEN));
            assertEquals(List.of("privateKeys", "rnds"), secrets(p, Operation.SIGN));
            assertEquals(List.of(), secrets(p, Operation.VERIFY));
            assertTrue(BatchLayout.of(p, Operation.KEYGEN, 1).hasSecrets());
            assertTrue(BatchLayout.of(p, Operation.SIGN, 1).hasSecrets());
            assertFalse(BatchLayout.of(p, Operation.VERIFY, 1).hasSecrets());
        }
    }

    private static List<String> secrets(ParameterSet p, Operation op) {
        return BatchLayout.of(p, op, 4).regions().stream().filter(BatchLayout.Region::secret)
                .map(BatchLayout.Region::name).collect(Collectors.toList());
    }

    @Test
    void emptyLayoutsDoNotExist() {
        assertThrows(IllegalArgumentException.class, () -> BatchLayout.of(ParameterSet.ML_DSA_44, Operation.SIGN, 0));
    }
}
