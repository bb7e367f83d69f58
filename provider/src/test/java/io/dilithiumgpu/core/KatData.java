package io.dilithiumgpu.core;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.bouncycastle.util.encoders.Hex;

/**
 * Reads a few records of the shared test vectors (README.md in the kat-vectors folder) for the
 * core's quick known-answer checks; the full suites live in the kat-vectors module.
 */
final class KatData {
    private static final ObjectMapper JSON = new ObjectMapper();

    private KatData() {}

    /** The kat-vectors folder; the calling test is skipped, with the reason, when it is absent. */
    static Path dir() {
        String dir = System.getProperty("kat.dir", "../../shared/kat-vectors");
        Path path = Path.of(dir);
        assumeTrue(Files.isDirectory(path), "test vectors not found at " + path.toAbsolutePath()
                + " (set -Dkat.dir)");
        return path;
    }

    static JsonNode json(String relative) {
        try {
            return JSON.readTree(dir().resolve(relative).toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The first {@code max} records of a NIST PQC .rsp file, each as name → hex value. */
    static List<Map<String, String>> rsp(String relative, int max) {
        List<Map<String, String>> records = new ArrayList<>();
        Map<String, String> current = null;
        try {
            for (String line : Files.readAllLines(dir().resolve(relative), StandardCharsets.US_ASCII)) {
                int eq = line.indexOf(" = ");
                if (eq < 0) {
                    continue;
                }
                String name = line.substring(0, eq);
                if (name.equals("count")) {
                    if (records.size() == max) {
                        break;
                    }
                    current = new LinkedHashMap<>();
                    records.add(current);
                }
                current.put(name, line.substring(eq + 3).trim());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return records;
    }

    static byte[] hex(String s) {
        return Hex.decode(s);
    }

    static byte[] hex(JsonNode node, String field) {
        return Hex.decode(node.get(field).asText());
    }
}
