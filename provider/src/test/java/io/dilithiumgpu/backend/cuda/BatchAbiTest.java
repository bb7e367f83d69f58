package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.backend.TaskStatus;
import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Pins {@link BatchAbi} to {@code kernels-cuda/include/batch_abi.h}, the header the kernels compile against. */
class BatchAbiTest {

    private static Map<String, Integer> defines() throws IOException {
        Path header = Path.of("..", "kernels-cuda", "include", "batch_abi.h");
        Map<String, Integer> defines = new HashMap<>();
        Matcher m = Pattern.compile("(?m)^#define\\s+(ABI_\\w+)\\s+(\\d+)").matcher(Files.readString(header));
        while (m.find()) {
            defines.put(m.group(1), Integer.parseInt(m.group(2)));
        }
        return defines;
    }

    /** Every numeric define of the header, and the Java value that mirrors it. */
    private static Map<String, Integer> mirror() {
        return Map.ofEntries(
                Map.entry("ABI_CFG_WORDS", BatchAbi.CFG_WORDS),
                Map.entry("ABI_CFG_THREADS", BatchAbi.CFG_THREADS),
                Map.entry("ABI_CFG_TASKS", BatchAbi.CFG_TASKS),
                Map.entry("ABI_CFG_SMEM", BatchAbi.CFG_SMEM),
                Map.entry("ABI_CFG_PERSISTENT", BatchAbi.CFG_PERSISTENT),
                Map.entry("ABI_CFG_WORKSPACE", BatchAbi.CFG_WORKSPACE),
                Map.entry("ABI_SCRATCH_WORDS", BatchAbi.SCRATCH_WORDS),
                Map.entry("ABI_SCRATCH_NEXT_TASK", BatchAbi.SCRATCH_NEXT_TASK),
                Map.entry("ABI_SCRATCH_EXITED", BatchAbi.SCRATCH_EXITED),
                Map.entry("ABI_SCRATCH_RECORDS", BatchAbi.SCRATCH_RECORDS),
                Map.entry("ABI_HELP_RECORDS", BatchAbi.HELP_RECORDS),
                Map.entry("ABI_STATUS_OK", (int) TaskStatus.OK),
                Map.entry("ABI_STATUS_REJECTED", (int) TaskStatus.REJECTED),
                Map.entry("ABI_STATUS_INVALID_KEY", (int) TaskStatus.INVALID_KEY),
                Map.entry("ABI_SEED_BYTES", BatchAbi.SEED_BYTES),
                Map.entry("ABI_MU_BYTES", BatchAbi.MU_BYTES),
                Map.entry("ABI_MESSAGE_BYTES", BatchAbi.MESSAGE_BYTES));
    }

    @Test
    void everyDefineIsMirroredWithItsValue() throws IOException {
        assertEquals(new TreeMap<>(defines()), new TreeMap<>(mirror()),
                "batch_abi.h and BatchAbi differ: a define was added, removed or changed");
    }

    @Test
    void entryNamesAreTheHeadersAndDistinct() {
        Set<String> names = new HashSet<>();
        for (ParameterSet p : ParameterSet.values()) {
            for (Operation op : Operation.values()) {
                String name = BatchAbi.entryName(p, op);
                assertTrue(name.matches("(keygen|sign|verify)_(dilithium[235]|mldsa(44|65|87))"), name);
                assertTrue(names.add(name), name);
            }
        }
        assertEquals(18, names.size());
        assertEquals("sign_mldsa65", BatchAbi.entryName(ParameterSet.ML_DSA_65, Operation.SIGN));
        assertEquals("keygen_dilithium2", BatchAbi.entryName(ParameterSet.DILITHIUM2, Operation.KEYGEN));
        assertEquals("verify_mldsa87", BatchAbi.entryName(ParameterSet.ML_DSA_87, Operation.VERIFY));
    }

    @Test
    void eachOperationAllowsOnlyItsStatuses() {
        assertTrue(BatchAbi.statusAllowed(Operation.KEYGEN, TaskStatus.OK));
        assertFalse(BatchAbi.statusAllowed(Operation.KEYGEN, TaskStatus.REJECTED));
        assertFalse(BatchAbi.statusAllowed(Operation.KEYGEN, TaskStatus.INVALID_KEY));
        assertTrue(BatchAbi.statusAllowed(Operation.SIGN, TaskStatus.OK));
        assertTrue(BatchAbi.statusAllowed(Operation.SIGN, TaskStatus.INVALID_KEY));
        assertFalse(BatchAbi.statusAllowed(Operation.SIGN, TaskStatus.REJECTED));
        assertTrue(BatchAbi.statusAllowed(Operation.VERIFY, TaskStatus.OK));
        assertTrue(BatchAbi.statusAllowed(Operation.VERIFY, TaskStatus.REJECTED));
        assertFalse(BatchAbi.statusAllowed(Operation.VERIFY, TaskStatus.INVALID_KEY));
        for (Operation op : Operation.values()) {
            assertFalse(BatchAbi.statusAllowed(op, (byte) 0xFF), op + " accepts the unwritten marker");
            assertFalse(BatchAbi.statusAllowed(op, (byte) 3), op.toString());
        }
    }

    @Test
    void theKeyCachesNamesFollowTheContract() {
        assertEquals("expand_sk_mldsa44", BatchAbi.expandName(ParameterSet.ML_DSA_44, true));
        assertEquals("expand_pk_dilithium5", BatchAbi.expandName(ParameterSet.DILITHIUM5, false));
        assertEquals("sign_keyed_mldsa65", BatchAbi.keyedName(ParameterSet.ML_DSA_65, Operation.SIGN));
        assertEquals("verify_keyed_dilithium2", BatchAbi.keyedName(ParameterSet.DILITHIUM2, Operation.VERIFY));
        assertEquals("sign_keyed_wide_mldsa87", BatchAbi.wideName(ParameterSet.ML_DSA_87));
        assertEquals("sign_keyed_helped_dilithium3", BatchAbi.helpedName(ParameterSet.DILITHIUM3));
        assertEquals("slot_bytes_sk_mldsa87", BatchAbi.slotBytesName(ParameterSet.ML_DSA_87, true));
        assertEquals("slot_bytes_pk_dilithium3", BatchAbi.slotBytesName(ParameterSet.DILITHIUM3, false));
        assertTrue(BatchAbi.expandStatusAllowed(true, TaskStatus.INVALID_KEY));
        assertFalse(BatchAbi.expandStatusAllowed(false, TaskStatus.INVALID_KEY));
        assertFalse(BatchAbi.expandStatusAllowed(true, TaskStatus.REJECTED));
        assertFalse(BatchAbi.expandStatusAllowed(true, StreamSlot.UNWRITTEN));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> BatchAbi.keyedName(ParameterSet.ML_DSA_44, Operation.KEYGEN));
    }

    /** The header declares the key cache's entry points and slot sizes under the names the Java side looks up. */
    @Test
    void theHeaderDeclaresTheKeyCachesNames() throws IOException {
        String header = Files.readString(Path.of("..", "kernels-cuda", "include", "batch_abi.h"));
        String tag = BatchAbi.tag(ParameterSet.ML_DSA_44);
        for (String name : new String[] {BatchAbi.expandName(ParameterSet.ML_DSA_44, true),
                BatchAbi.expandName(ParameterSet.ML_DSA_44, false),
                BatchAbi.keyedName(ParameterSet.ML_DSA_44, Operation.SIGN),
                BatchAbi.keyedName(ParameterSet.ML_DSA_44, Operation.VERIFY),
                BatchAbi.wideName(ParameterSet.ML_DSA_44),
                BatchAbi.helpedName(ParameterSet.ML_DSA_44),
                BatchAbi.slotBytesName(ParameterSet.ML_DSA_44, true),
                BatchAbi.slotBytesName(ParameterSet.ML_DSA_44, false)}) {
            String declared = name.substring(0, name.length() - tag.length()) + "<set>";
            assertTrue(header.contains(declared), "batch_abi.h declares " + declared);
        }
    }
}
