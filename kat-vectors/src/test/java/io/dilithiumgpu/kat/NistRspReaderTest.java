package io.dilithiumgpu.kat;

import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class NistRspReaderTest {

    private static final String TWO_RECORDS = "# Dilithium3\n\n"
            + "count = 0\nseed = 0102\nmlen = 1\nmsg = AA\npk = 03\nsk = 04\nsmlen = 2\nsm = 05AA\n\n"
            + "count = 1\nseed = 06\nmlen = 0\nmsg = \npk = 07\nsk = 08\nsmlen = 1\nsm = 09\n";

    @Test
    void parsesHeaderAndRecords() {
        NistRspReader.RspFile file = NistRspReader.parse(TWO_RECORDS);
        assertEquals(ParameterSet.DILITHIUM3, file.params());
        assertEquals(2, file.records().size());
        NistRspReader.Record first = file.records().get(0);
        assertEquals(0, first.count());
        assertArrayEquals(new byte[] {1, 2}, first.seed());
        assertArrayEquals(new byte[] {(byte) 0xAA}, first.message());
        assertArrayEquals(new byte[] {5, (byte) 0xAA}, first.signedMessage());
        assertEquals(0, file.records().get(1).message().length);
    }

    @Test
    void rejectsInconsistentOrIncompleteRecords() {
        assertThrows(KatDataException.class, () -> NistRspReader.parse(TWO_RECORDS.replace("mlen = 1", "mlen = 2")));
        assertThrows(KatDataException.class, () -> NistRspReader.parse(TWO_RECORDS.replace("pk = 03\n", "")));
        assertThrows(KatDataException.class, () -> NistRspReader.parse(TWO_RECORDS.replace("sk = 04", "sk = 0G")));
        assertThrows(KatDataException.class, () -> NistRspReader.parse(TWO_RECORDS.replace("# Dilithium3", "# Falcon")));
        assertThrows(KatDataException.class, () -> NistRspReader.parse(TWO_RECORDS.replace("# Dilithium3\n", "")));
    }

    @Test
    void readsTheRoundThreeFiles() {
        KatFiles files = KatFiles.open();
        ParameterSet[] sets = {ParameterSet.DILITHIUM2, ParameterSet.DILITHIUM3, ParameterSet.DILITHIUM5};
        int[] levels = {2, 3, 5};
        for (int i = 0; i < sets.length; i++) {
            NistRspReader.RspFile file = NistRspReader.parse(
                    files.readString("dilithium-r31/PQCsignKAT_Dilithium" + levels[i] + ".rsp"));
            assertEquals(sets[i], file.params());
            assertEquals(100, file.records().size());
            for (NistRspReader.Record r : file.records()) {
                assertEquals(CtrDrbg.SEED_BYTES, r.seed().length);
                assertEquals(sets[i].publicKeyBytes(), r.publicKey().length);
                assertEquals(sets[i].privateKeyBytes(), r.privateKey().length);
                assertEquals(sets[i].signatureBytes() + r.message().length, r.signedMessage().length);
            }
        }
    }
}
