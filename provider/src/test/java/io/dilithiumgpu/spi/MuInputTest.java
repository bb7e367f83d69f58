package io.dilithiumgpu.spi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dilithiumgpu.backend.MessageRecord;
import io.dilithiumgpu.core.MuHasher;
import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Pure signing's μ input ({@link MuInput#pure}): a message whose M′ fits a {@link MessageRecord}
 * is kept in one, laid out as the kernels read it, however the updates split it; a longer one, or
 * one after a context too long for any, streams into the hash; μ is the same either way, and each
 * message gets a record of its own.
 */
class MuInputTest {

    @ParameterizedTest
    @EnumSource(value = ParameterSet.class, names = {"ML_DSA_44", "ML_DSA_87", "DILITHIUM3"})
    void shortMessagesAreKeptInARecordAndLongerOnesHashed(ParameterSet p) throws Exception {
        SplittableRandom r = new SplittableRandom(p.ordinal());
        byte[] tr = new byte[p.trBytes()];
        r.nextBytes(tr);
        for (byte[] context : p.isFips204() ? new byte[][] {{}, {1, 2, 3, 4, 5}, new byte[70]} : new byte[][] {{}}) {
            int header = p.isFips204() ? 2 + context.length : 0;
            MuInput input = MuInput.pure(p, tr, context);
            byte[] previous = null;
            for (int len = 0; len <= 90; len++) {
                for (int piece : new int[] {1, 7, 1000}) {
                    byte[] m = new byte[len];
                    r.nextBytes(m);
                    for (int off = 0; off < len; off += piece) {
                        input.update(m, off, Math.min(piece, len - off));
                    }
                    byte[] expected = MuHasher.pure(p, tr, context).update(m).finish();
                    boolean fits = header + len <= MessageRecord.MAX_MESSAGE;
                    String what = p + ", context " + context.length + ", " + len + " bytes in pieces of " + piece;
                    assertEquals(fits, input.holdsRecord(), what);
                    if (piece == 7 && fits) {
                        assertArrayEquals(expected, input.mu(), what + ": μ of a kept message");
                    } else if (fits) {
                        byte[] record = input.record();
                        assertNotSame(previous, record, what + ": a record per message");
                        previous = record;
                        byte[] layout = new byte[MessageRecord.BYTES];
                        if (p.isFips204()) {
                            layout[1] = (byte) context.length;
                            System.arraycopy(context, 0, layout, 2, context.length);
                        }
                        System.arraycopy(m, 0, layout, header, len);
                        layout[MessageRecord.BYTES - 1] = (byte) (header + len + 1);
                        assertArrayEquals(layout, record, what);
                        assertArrayEquals(expected, MessageRecord.mu(tr, record), what);
                    } else {
                        assertNull(input.record(), what);
                        assertArrayEquals(expected, input.mu(), what);
                    }
                    assertFalse(input.holdsRecord() && !fits);
                    input = input.next();
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = ParameterSet.class, names = {"ML_DSA_65"})
    void aMessageThatGrowsPastARecordKeepsItsFirstBytes(ParameterSet p) throws Exception {
        byte[] tr = new byte[p.trBytes()];
        Arrays.fill(tr, (byte) 3);
        byte[] m = new byte[200];
        new SplittableRandom(9).nextBytes(m);
        MuInput input = MuInput.pure(p, tr, new byte[0]);
        input.update(m, 0, 60);
        assertTrue(input.holdsRecord());
        input.update(m, 60, 140);
        assertFalse(input.holdsRecord());
        assertArrayEquals(MuHasher.pure(p, tr, new byte[0]).update(m).finish(), input.mu());
    }
}
