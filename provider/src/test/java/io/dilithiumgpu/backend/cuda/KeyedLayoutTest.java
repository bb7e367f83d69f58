package io.dilithiumgpu.backend.cuda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.core.ParameterSet;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The block layouts of the key cache's launches: order, alignment, counts, and that a slot holds them. */
class KeyedLayoutTest {

    @Test
    void aSigningLaunchCarriesOnlyItsUncachedKeys() {
        ParameterSet p = ParameterSet.ML_DSA_65;
        KeyedLayout l = KeyedLayout.launch(p, Operation.SIGN, 100, 3, false);
        assertEquals(List.of("privateKeys", "keyOf", "mus", "rnds", "signatures", "status"),
                l.parts().stream().map(KeyedLayout.Part::name).toList());
        assertEquals(3L * p.privateKeyBytes(), l.part("privateKeys").bytes());
        assertEquals(400, l.part("keyOf").bytes());
        assertTrue(l.part("privateKeys").secret());
        assertTrue(l.part("rnds").secret());
        assertFalse(l.part("signatures").input());
        assertEquals(l.part("rnds").end(), l.inputBytes());
        assertEquals(l.part("signatures").offset(), l.outputOffset());
        assertEquals(l.status().end(), l.totalBytes());
        for (KeyedLayout.Part part : l.parts()) {
            assertEquals(0, part.offset() % BatchLayout.ALIGNMENT, part.name());
        }
    }

    @Test
    void aPublishedSigningLaunchHoldsNoSignaturesAndInPlaceOnlyKeyReferencesAndStatuses() {
        for (ParameterSet p : ParameterSet.values()) {
            for (boolean messages : new boolean[] {false, true}) {
                KeyedLayout published = KeyedLayout.launch(p, Operation.SIGN, 10_000, 1, messages, true, false);
                assertEquals(0, published.part("signatures").bytes(), p + ": signatures written where they lie");
                assertEquals(10_000, published.part(messages ? "messages" : "mus").records());
                assertTrue(published.totalBytes() <= 10_000L * KeyedLayout.publishedTaskBytes() + p.privateKeyBytes()
                        + 6L * BatchLayout.ALIGNMENT, p + " within publishedTaskBytes a task");
                KeyedLayout inPlace = KeyedLayout.launch(p, Operation.SIGN, 10_000, 0, messages, true, true);
                assertEquals(0, inPlace.part("rnds").bytes());
                assertEquals(0, inPlace.part(messages ? "messages" : "mus").bytes());
                assertEquals(10_000, inPlace.status().records());
                assertTrue(inPlace.totalBytes() <= 5L * 10_000 + 6L * BatchLayout.ALIGNMENT, p + " in place");
            }
        }
        assertThrows(IllegalArgumentException.class,
                () -> KeyedLayout.launch(ParameterSet.ML_DSA_44, Operation.SIGN, 10, 1, false, true, true),
                "an uncached key is uploaded, never read in place");
        assertThrows(IllegalArgumentException.class,
                () -> KeyedLayout.launch(ParameterSet.ML_DSA_44, Operation.VERIFY, 10, 0, false, true, false));
        long block = BatchLayout.capacityBytes(2_048);
        int most = KeyedLayout.publishedTasks(block);
        for (ParameterSet p : ParameterSet.values()) {
            assertTrue(KeyedLayout.launch(p, Operation.SIGN, most, 1, true, true, false).totalBytes() <= block,
                    p + ": " + most + " tasks with their key packed fit the block");
        }
    }

    @Test
    void aLaunchOnMessageRecordsCarriesThemInPlaceOfMu() {
        ParameterSet p = ParameterSet.ML_DSA_44;
        KeyedLayout l = KeyedLayout.launch(p, Operation.VERIFY, 10, 1, true);
        assertEquals(List.of("publicKeys", "keyOf", "messages", "signatures", "status"),
                l.parts().stream().map(KeyedLayout.Part::name).toList());
        assertEquals(10L * BatchAbi.MESSAGE_BYTES, l.part("messages").bytes());
        assertEquals(72, BatchAbi.MESSAGE_BYTES);
    }

    @Test
    void aVerificationLaunchAndAnExpansion() {
        ParameterSet p = ParameterSet.DILITHIUM2;
        KeyedLayout v = KeyedLayout.launch(p, Operation.VERIFY, 10, 0, false);
        assertEquals(List.of("publicKeys", "keyOf", "mus", "signatures", "status"),
                v.parts().stream().map(KeyedLayout.Part::name).toList());
        assertEquals(0, v.part("publicKeys").bytes());
        assertEquals(v.status().offset(), v.outputOffset());
        KeyedLayout e = KeyedLayout.expand(p, true, 4);
        assertEquals(List.of("keys", "slotOf", "status"), e.parts().stream().map(KeyedLayout.Part::name).toList());
        assertEquals(4L * p.privateKeyBytes(), e.part("keys").bytes());
        assertTrue(e.part("keys").secret());
        assertFalse(KeyedLayout.expand(p, false, 4).part("keys").secret());
        assertThrows(IllegalArgumentException.class, () -> KeyedLayout.launch(p, Operation.KEYGEN, 1, 0, false));
        assertThrows(IllegalArgumentException.class, () -> KeyedLayout.launch(p, Operation.SIGN, 2, 3, false));
        assertThrows(IllegalArgumentException.class, () -> KeyedLayout.expand(p, true, 0));
    }

    @Test
    void aSlotsBlockHoldsEveryKeyedLayoutOfItsTasks() {
        int tasks = 2048;
        long capacity = BatchLayout.capacityBytes(tasks);
        for (ParameterSet p : ParameterSet.values()) {
            for (Operation op : List.of(Operation.SIGN, Operation.VERIFY)) {
                assertTrue(KeyedLayout.launch(p, op, tasks, tasks, false).totalBytes() <= capacity
                        && KeyedLayout.launch(p, op, tasks, tasks, true).totalBytes() <= capacity, p + " " + op);
            }
            assertTrue(KeyedLayout.expand(p, true, tasks).totalBytes() <= capacity, p + " expand");
        }
    }
}
