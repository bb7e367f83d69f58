package io.dilithiumgpu.backend;

import io.dilithiumgpu.backend.cpu.CpuBackend;
import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link HostBuffer} and the default host-buffer forms of a backend's operations (on the CPU backend). */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostBufferTest {
    private CpuBackend cpu;

    @BeforeAll
    void open() {
        cpu = new CpuBackend(2);
    }

    @AfterAll
    void close() {
        cpu.close();
    }

    @Test
    void aBufferIsZeroedNativeLittleEndianMemoryOfItsSize() {
        try (HostBuffer b = HostBuffer.allocate(10_000)) {
            ByteBuffer view = b.buffer();
            assertEquals(10_000, b.bytes());
            assertTrue(view.isDirect());
            assertEquals(ByteOrder.LITTLE_ENDIAN, view.order());
            assertEquals(0, view.position());
            assertEquals(10_000, view.limit());
            byte[] all = new byte[10_000];
            view.get(0, all);
            assertArrayEquals(new byte[10_000], all);
            view.position(5);
            assertEquals(0, b.buffer().position(), "each view is independent");
        }
    }

    @Test
    void closeWipesEverythingAndRefusesFurtherUse() {
        HostBuffer b = HostBuffer.allocate(70_000);
        ByteBuffer kept = b.buffer();
        byte[] secret = new byte[70_000];
        Arrays.fill(secret, (byte) 0x6B);
        kept.put(0, secret);
        b.close();
        byte[] after = new byte[70_000];
        kept.get(0, after);
        assertArrayEquals(new byte[70_000], after);
        assertTrue(b.isClosed());
        assertThrows(IllegalStateException.class, b::buffer);
        b.close();
    }

    @Test
    void sizesOutOfRangeAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> HostBuffer.allocate(-1));
        assertThrows(IllegalArgumentException.class, () -> HostBuffer.allocate(Integer.MAX_VALUE));
        try (HostBuffer empty = HostBuffer.allocate(0)) {
            assertEquals(0, empty.bytes());
        }
    }

    @Test
    void requireRecordsNamesTheBufferAndWhatWasNeeded() {
        try (HostBuffer b = HostBuffer.allocate(100)) {
            b.requireRecords("mus", 1, 64);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> b.requireRecords("mus", 2, 64));
            assertEquals("mus holds 100 bytes; 2 tasks of 64 need 128", e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> b.requireRecords("mus", -1, 64));
        }
    }

    @Test
    void theDefaultFormsGiveWhatTheArrayFormsGive() {
        ParameterSet p = ParameterSet.ML_DSA_44;
        int n = 3;
        SplittableRandom r = new SplittableRandom(0xB0FFE5L);
        byte[] seeds = random(r, n * ParameterSet.SEED_BYTES);
        byte[] pks = new byte[n * p.publicKeyBytes()];
        byte[] sks = new byte[n * p.privateKeyBytes()];
        cpu.run(BatchRecords.keyGen(p, n, seeds, pks, sks, new byte[n]));
        byte[] mus = random(r, n * ParameterSet.MU_BYTES);
        byte[] rnds = random(r, n * p.rndBytes());
        byte[] sigs = new byte[n * p.signatureBytes()];
        cpu.run(BatchRecords.sign(p, n, sks, mus, rnds, sigs, new byte[n]));
        byte[] badSigs = sigs.clone();
        badSigs[p.signatureBytes() + 5] ^= 1;

        try (HostBuffer seedsIn = copy(seeds);
             HostBuffer pkOut = cpu.allocateHost(pks.length);
             HostBuffer skOut = cpu.allocateHost(sks.length);
             HostBuffer musIn = copy(mus);
             HostBuffer rndsIn = copy(rnds);
             HostBuffer sigOut = cpu.allocateHost(sigs.length);
             HostBuffer badIn = copy(badSigs)) {
            byte[] status = new byte[n];
            cpu.run(BatchRecords.keyGen(p, n, seedsIn, pkOut, skOut, status));
            assertArrayEquals(new byte[n], status);
            assertArrayEquals(pks, HostBufferFixtures.contents(pkOut));
            assertArrayEquals(sks, HostBufferFixtures.contents(skOut));
            cpu.run(BatchRecords.sign(p, n, skOut, musIn, rndsIn, sigOut, status));
            assertArrayEquals(new byte[n], status);
            assertArrayEquals(sigs, HostBufferFixtures.contents(sigOut));
            cpu.run(BatchRecords.verify(p, n, pkOut, musIn, sigOut, status));
            assertArrayEquals(new byte[n], status);
            cpu.run(BatchRecords.verify(p, n, pkOut, musIn, badIn, status));
            assertArrayEquals(new byte[] {TaskStatus.OK, TaskStatus.REJECTED, TaskStatus.OK}, status);
        }
    }

    @Test
    void shortClosedOrMissingRecordsAreRefusedBeforeAnythingRuns() {
        ParameterSet p = ParameterSet.DILITHIUM2;
        try (HostBuffer seeds = HostBuffer.allocate(2 * ParameterSet.SEED_BYTES);
             HostBuffer pk = HostBuffer.allocate(2 * p.publicKeyBytes());
             HostBuffer sk = HostBuffer.allocate(2 * p.privateKeyBytes() - 1)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> cpu.run(BatchRecords.keyGen(p, 2, seeds, pk, sk, new byte[2])));
            assertTrue(e.getMessage().startsWith("privateKeys holds"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> cpu.run(BatchRecords.keyGen(p, 1, seeds, pk, sk,
                    new byte[0])));
            seeds.close();
            assertThrows(IllegalStateException.class, () -> cpu.run(BatchRecords.keyGen(p, 1, seeds, pk, sk,
                    new byte[1])));
            assertFalse(pk.isClosed());
        }
    }

    private static HostBuffer copy(byte[] records) {
        return HostBufferFixtures.filled(HostBuffer::allocate, records);
    }

    private static byte[] random(SplittableRandom r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }
}
