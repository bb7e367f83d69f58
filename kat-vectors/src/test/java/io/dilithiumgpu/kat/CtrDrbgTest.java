package io.dilithiumgpu.kat;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

class CtrDrbgTest {

    /**
     * PQCgenKAT_sign seeds its DRBG with entropy 0, 1, …, 47 and draws, record after record, the
     * 48-byte seed and then the mlen-byte message: reproducing all 100 seeds and messages of
     * every .rsp file checks instantiation, generation of whole and partial blocks, and the
     * update between calls.
     */
    @Test
    void reproducesTheRecordSeedsOfTheNistKatGenerator() {
        KatFiles files = KatFiles.open();
        for (int level : new int[] {2, 3, 5}) {
            NistRspReader.RspFile file = NistRspReader.parse(
                    files.readString("dilithium-r31/PQCsignKAT_Dilithium" + level + ".rsp"));
            byte[] entropy = new byte[CtrDrbg.SEED_BYTES];
            for (int i = 0; i < entropy.length; i++) {
                entropy[i] = (byte) i;
            }
            try (CtrDrbg master = new CtrDrbg(entropy)) {
                assertEquals(100, file.records().size());
                for (NistRspReader.Record rec : file.records()) {
                    String where = "Dilithium" + level + " count " + rec.count();
                    assertArrayEquals(rec.seed(), master.nextBytes(CtrDrbg.SEED_BYTES), where);
                    assertArrayEquals(rec.message(), master.nextBytes(rec.message().length), where);
                }
            }
        }
    }

    @Test
    void outputSplitAcrossCallsDiffersFromOneCall() {
        byte[] entropy = new byte[CtrDrbg.SEED_BYTES];
        byte[] whole;
        try (CtrDrbg d = new CtrDrbg(entropy)) {
            whole = d.nextBytes(32);
        }
        byte[] first;
        byte[] second;
        try (CtrDrbg d = new CtrDrbg(entropy)) {
            first = d.nextBytes(16);
            second = d.nextBytes(16);
        }
        // The first block is the same; the update after each call changes everything after it.
        assertArrayEquals(Arrays.copyOf(whole, 16), first);
        assertFalse(Arrays.equals(Arrays.copyOfRange(whole, 16, 32), second));
    }

    @Test
    void rejectsEntropyOfTheWrongLengthAndUseAfterClose() {
        assertThrows(IllegalArgumentException.class, () -> new CtrDrbg(new byte[32]));
        CtrDrbg d = new CtrDrbg(new byte[CtrDrbg.SEED_BYTES]);
        d.close();
        assertThrows(IllegalStateException.class, () -> d.nextBytes(1));
    }
}
