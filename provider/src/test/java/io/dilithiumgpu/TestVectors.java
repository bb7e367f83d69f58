package io.dilithiumgpu;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a few records of the shared known-answer files (kat-vectors/README.md) for the provider's
 * quick checks of the core and of the JCA surface; the full suites run in the kat-vectors module.
 */
public final class TestVectors {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HexFormat HEX = HexFormat.of();

    private TestVectors() {}

    /** The shared kat-vectors folder; the calling test is skipped, with the reason, when it is absent. */
    public static Path dir() {
        Path path = Path.of(System.getProperty("kat.dir", "../../shared/kat-vectors"));
        assumeTrue(Files.isDirectory(path), "test vectors not found at " + path.toAbsolutePath()
                + " (set -Dkat.dir)");
        return path;
    }

    /** A JSON file of the folder, whole. */
    public static JsonNode json(String relative) {
        try {
            return JSON.readTree(dir().resolve(relative).toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One ACVP test case: its group's fields, overlaid by the case's prompt and expected fields. */
    public static final class AcvpCase {
        public final JsonNode fields;

        AcvpCase(JsonNode fields) {
            this.fields = fields;
        }

        public String text(String name) { return fields.get(name).asText(); }

        public boolean has(String name) { return fields.hasNonNull(name); }

        public boolean flag(String name) { return fields.path(name).asBoolean(false); }

        public byte[] bytes(String name) { return hex(text(name)); }

        @Override
        public String toString() {
            return fields.get("parameterSet").asText() + " tcId " + fields.get("tcId").asText();
        }
    }

    /**
     * The first {@code perGroup} cases of every group of an ACVP folder, prompt joined with expected
     * results on tcId.
     */
    public static List<AcvpCase> acvp(String folder, int perGroup) {
        JsonNode prompt = json("acvp/" + folder + "/prompt.json");
        JsonNode expected = json("acvp/" + folder + "/expectedResults.json");
        Map<String, JsonNode> answers = new HashMap<>();
        for (JsonNode group : expected.get("testGroups")) {
            for (JsonNode test : group.get("tests")) {
                answers.put(test.get("tcId").asText(), test);
            }
        }
        List<AcvpCase> cases = new ArrayList<>();
        for (JsonNode group : prompt.get("testGroups")) {
            int taken = 0;
            for (JsonNode test : group.get("tests")) {
                if (taken++ == perGroup) {
                    break;
                }
                ObjectNode merged = JSON.createObjectNode();
                group.fields().forEachRemaining(e -> {
                    if (!e.getKey().equals("tests")) {
                        merged.set(e.getKey(), e.getValue());
                    }
                });
                merged.setAll((ObjectNode) test);
                merged.setAll((ObjectNode) answers.get(test.get("tcId").asText()));
                cases.add(new AcvpCase(merged));
            }
        }
        return cases;
    }

    /** The first {@code max} records of a NIST PQC .rsp file, each as field name to value. */
    public static List<Map<String, String>> rsp(String relative, int max) {
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

    public static byte[] hex(String s) {
        return HEX.parseHex(s.toLowerCase());
    }

    /** The hex string field {@code field} of a JSON object, decoded. */
    public static byte[] hex(JsonNode node, String field) {
        return hex(node.get(field).asText());
    }
}
