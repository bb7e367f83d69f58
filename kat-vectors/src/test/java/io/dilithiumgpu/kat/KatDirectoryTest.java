package io.dilithiumgpu.kat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KatDirectoryTest {
    @TempDir
    Path tmp;

    @Test
    void thePropertyWins() throws IOException {
        Path kat = Files.createDirectories(tmp.resolve("vectors"));
        Files.writeString(kat.resolve(KatFiles.SUMS), "");
        assertEquals(kat.toAbsolutePath(), KatDirectory.locate(kat.toString(), tmp.resolve("elsewhere")));
    }

    @Test
    void fallsBackToSharedBesideTheRepositoryRoot() throws IOException {
        Path root = Files.createDirectories(tmp.resolve("work/repo"));
        Files.writeString(root.resolve("pom.xml"), "<project/>");
        Path module = Files.createDirectories(root.resolve("kat-vectors"));
        Files.writeString(module.resolve("pom.xml"), "<project/>");
        Path kat = Files.createDirectories(tmp.resolve("work/shared/kat-vectors"));
        Files.writeString(kat.resolve(KatFiles.SUMS), "");
        assertEquals(kat.toAbsolutePath(), KatDirectory.locate(null, module));
        assertEquals(kat.toAbsolutePath(), KatDirectory.locate(" ", root));
    }

    @Test
    void aMissingDirectoryIsAnErrorNamingIt() {
        Path missing = tmp.resolve("no-such-dir");
        KatDataException e = assertThrows(KatDataException.class,
                () -> KatDirectory.locate(missing.toString(), tmp));
        assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
        assertTrue(e.getMessage().contains(KatDirectory.PROPERTY), e.getMessage());
    }

    @Test
    void aDirectoryWithoutChecksumsIsAnError() throws IOException {
        Path kat = Files.createDirectories(tmp.resolve("vectors"));
        assertThrows(KatDataException.class, () -> KatDirectory.locate(kat.toString(), tmp));
    }

    @Test
    void theBuildFindsTheSharedVectors() {
        assertTrue(Files.isRegularFile(KatDirectory.locate().resolve(KatFiles.SUMS)));
    }
}
