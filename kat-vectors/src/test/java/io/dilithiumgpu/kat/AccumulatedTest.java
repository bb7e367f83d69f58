package io.dilithiumgpu.kat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.cpu.CpuBackend;
import io.dilithiumgpu.core.ParameterSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;

/** C2SP CCTV's accumulated ML-DSA test, 100 iterations, on the CPU backend; a run saved and resumed. */
@Timeout(600)
class AccumulatedTest {
    private static Backend cpu;

    @BeforeAll
    static void open() {
        cpu = new CpuBackend();
    }

    @AfterAll
    static void close() {
        cpu.close();
    }

    @ParameterizedTest
    @EnumSource(value = ParameterSet.class, names = {"ML_DSA_44", "ML_DSA_65", "ML_DSA_87"})
    void hundredIterationsGiveThePublishedHash(ParameterSet p) throws Exception {
        Accumulated run = Accumulated.start(p, 100);
        run.run(cpu, 32, done -> true);
        assertEquals(Accumulated.published(p, 100), HexFormat.of().formatHex(run.result()));
    }

    @Test
    void aSavedRunResumesToTheSameHash(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("ml-dsa-44.checkpoint");
        Accumulated first = Accumulated.start(ParameterSet.ML_DSA_44, 100);
        // Asked to stop after 48, it completes the batch already under way.
        first.run(cpu, 16, done -> done < 40);
        assertEquals(64, first.done());
        first.save(file);

        Accumulated resumed = Accumulated.resume(file);
        assertEquals(64, resumed.done());
        resumed.run(cpu, 7, done -> false);
        assertEquals(78, resumed.done());
        resumed.save(file);
        Accumulated again = Accumulated.resume(file);
        again.run(cpu, 64, done -> true);
        assertEquals(100, again.done());
        assertEquals(Accumulated.published(ParameterSet.ML_DSA_44, 100), HexFormat.of().formatHex(again.result()));
    }

    @Test
    void whatIsNotASavedRunIsRefused(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bad");
        Files.writeString(file, "cctv-ml-dsa-accumulated 1\nset ML-DSA-44\niterations 100\ndone 101\nseeds 00\n");
        assertThrows(IOException.class, () -> Accumulated.resume(file));
        Files.writeString(file, "something else\n");
        assertThrows(IOException.class, () -> Accumulated.resume(file));
        assertThrows(IllegalArgumentException.class, () -> Accumulated.start(ParameterSet.DILITHIUM2, 100));
        assertThrows(IllegalStateException.class, () -> Accumulated.start(ParameterSet.ML_DSA_44, 100).result());
    }
}
