package io.dilithiumgpu.interop;

import static io.dilithiumgpu.ProviderTestSupport.katDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A few records of the shared known-answer files (kat-vectors/README.md), read for the JCA-level
 * checks; the full suites run in the kat-vectors module.
 */
final class Vectors {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HexFormat HEX = HexFormat.of();

    private Vectors() {}

    /** One ACVP test case: its group's fields, overlaid by the case's prompt and expected fields. */
    static final class AcvpCase {
        final JsonNode fields;

        AcvpCase(JsonNode fields) {
            this.fields = fields;
        }

        String text(String name) { return fields.get(name).asText(); }

        boolean has(String name) { return fields.hasNonNull(name); }

        boolean flag(String name) { return fields.path(name).asBoolean(false); }

        byte[] bytes(String name) { return HEX.parseHex(text(name).toLowerCase()); }

        @Override
        public String toString() {
            return fields.get("parameterSet").asText() + " tcId " + fields.get("tcId").asText();
        }
    }

    /**
     * The first {@code perGroup} cases of every group of an ACVP folder, prompt joined with expected
     * results on tgId/tcId.
     */
    static List<AcvpCase> acvp(String folder, int perGroup) {
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
    static List<Map<String, String>> rsp(String relative, int max) {
        List<Map<String, String>> records = new ArrayList<>();
        Map<String, String> current = null;
        try {
            for (String line : Files.readAllLines(katDir().resolve(relative), StandardCharsets.US_ASCII)) {
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
        return HEX.parseHex(s.toLowerCase());
    }

    private static JsonNode json(String relative) {
        try {
            return JSON.readTree(katDir().resolve(relative).toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
