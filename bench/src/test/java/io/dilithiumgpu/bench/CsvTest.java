package io.dilithiumgpu.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class CsvTest {

    @Test
    void quotesOnlyWhatNeedsQuoting() {
        assertEquals("plain", Csv.field("plain"));
        assertEquals("\"a,b\"", Csv.field("a,b"));
        assertEquals("\"say \"\"hi\"\"\"", Csv.field("say \"hi\""));
        assertEquals("\"two\nlines\"", Csv.field("two\nlines"));
    }

    @Test
    void numbersArePlain() {
        String csv = new Csv("set", "batch", "ops_per_s").row("ML-DSA-44", 10_000, 1234567.0).row("x", 1, 0.5).content();
        assertEquals("set,batch,ops_per_s\nML-DSA-44,10000,1234567\nx,1,0.500000\n", csv);
        assertEquals("12.3457", Format.csvNumber(12.345678));
    }

    @Test
    void writesFileAndDirectory(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("sub").resolve("t.csv");
        new Csv("a").row("1").write(file);
        assertEquals("a\n1\n", Files.readString(file));
    }

    @Test
    void rowWidthMustMatch() {
        assertThrows(IllegalArgumentException.class, () -> new Csv("a", "b").row(1));
    }
}
