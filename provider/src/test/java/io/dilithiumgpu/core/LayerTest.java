package io.dilithiumgpu.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The core is the bottom layer: its sources name no other package of the project (the batcher,
 * the backends and the JCA classes build on it, never the reverse).
 */
class LayerTest {
    private static final Path SOURCES = Path.of("src/main/java/io/dilithiumgpu/core");
    private static final Pattern OTHER_PACKAGE = Pattern.compile("io\\.dilithiumgpu\\.(?!core\\b)\\w+");

    @Test
    void coreNamesNoOtherPackageOfTheProject() throws IOException {
        assertTrue(Files.isDirectory(SOURCES), "core sources not found at " + SOURCES.toAbsolutePath());
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.list(SOURCES)) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".java"))::iterator) {
                List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                for (int i = 0; i < lines.size(); i++) {
                    Matcher m = OTHER_PACKAGE.matcher(lines.get(i));
                    if (m.find()) {
                        found.add(file.getFileName() + ":" + (i + 1) + " " + m.group());
                    }
                }
            }
        }
        assertEquals(List.of(), found);
    }
}
