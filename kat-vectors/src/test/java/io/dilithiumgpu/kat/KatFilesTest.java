package io.dilithiumgpu.kat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KatFilesTest {
    /** SHA-256 of "abc" (FIPS 180-2 Appendix B.1). */
    private static final String SHA256_ABC =
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

    @TempDir
    Path dir;

    private void layout(String sums) throws IOException {
        Files.createDirectories(dir.resolve("sub"));
        Files.writeString(dir.resolve("sub/abc.txt"), "abc", StandardCharsets.US_ASCII);
        Files.writeString(dir.resolve(KatFiles.SUMS), sums, StandardCharsets.US_ASCII);
    }

    @Test
    void readsAListedFileWhoseDigestMatches() throws IOException {
        layout(SHA256_ABC + "  ./sub/abc.txt\n");
        assertArrayEquals("abc".getBytes(StandardCharsets.US_ASCII), KatFiles.open(dir).read("sub/abc.txt"));
    }

    @Test
    void failsLoudlyOnAnAlteredFile() throws IOException {
        layout(SHA256_ABC + "  ./sub/abc.txt\n");
        Files.writeString(dir.resolve("sub/abc.txt"), "abd", StandardCharsets.US_ASCII);
        KatDataException e = assertThrows(KatDataException.class, () -> KatFiles.open(dir).read("sub/abc.txt"));
        assertTrue(e.getMessage().contains("SHA-256 mismatch"), e.getMessage());
    }

    @Test
    void failsOnAMissingOrUnlistedFile() throws IOException {
        layout(SHA256_ABC + "  ./sub/abc.txt\n" + SHA256_ABC + "  ./sub/gone.txt\n");
        KatFiles files = KatFiles.open(dir);
        assertTrue(assertThrows(KatDataException.class, () -> files.read("sub/gone.txt"))
                .getMessage().contains("missing"));
        assertTrue(assertThrows(KatDataException.class, () -> files.read(KatFiles.SUMS))
                .getMessage().contains("not listed"));
        assertThrows(KatDataException.class, files::verifyAll);
    }

    @Test
    void failsWithoutAChecksumListOrOnAMalformedOne() throws IOException {
        assertThrows(KatDataException.class, () -> KatFiles.open(dir));
        layout("not a checksum line\n");
        assertThrows(KatDataException.class, () -> KatFiles.open(dir));
    }

    @Test
    void everySharedVectorFileMatchesItsListedDigest() {
        KatFiles files = KatFiles.open();
        assertTrue(files.listed().size() >= 25, "SHA256SUMS lists " + files.listed().size() + " files");
        files.verifyAll();
    }
}
