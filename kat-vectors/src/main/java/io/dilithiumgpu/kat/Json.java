package io.dilithiumgpu.kat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.util.HexFormat;

/** The few JSON accessors the ACVP and Wycheproof readers share; absent fields are data errors. */
final class Json {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final HexFormat HEX = HexFormat.of();

    private Json() {}

    static JsonNode parse(byte[] content, String what) {
        try {
            return MAPPER.readTree(content);
        } catch (IOException e) {
            throw new KatDataException(what + " is not JSON: " + e.getMessage(), e);
        }
    }

    static JsonNode field(JsonNode node, String name, String where) {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) {
            throw new KatDataException(where + " has no '" + name + "'");
        }
        return v;
    }

    static String text(JsonNode node, String name, String where) {
        JsonNode v = field(node, name, where);
        if (!v.isTextual()) {
            throw new KatDataException(where + ": '" + name + "' is not a string");
        }
        return v.asText();
    }

    static int integer(JsonNode node, String name, String where) {
        JsonNode v = field(node, name, where);
        if (!v.isInt()) {
            throw new KatDataException(where + ": '" + name + "' is not an integer");
        }
        return v.asInt();
    }

    static boolean bool(JsonNode node, String name, String where) {
        JsonNode v = field(node, name, where);
        if (!v.isBoolean()) {
            throw new KatDataException(where + ": '" + name + "' is not a boolean");
        }
        return v.asBoolean();
    }

    static byte[] hex(JsonNode node, String name, String where) {
        return decode(text(node, name, where), name, where);
    }

    /** The field as bytes, or null when it is absent or JSON null. */
    static byte[] optionalHex(JsonNode node, String name, String where) {
        JsonNode v = node.get(name);
        return v == null || v.isNull() ? null : hex(node, name, where);
    }

    static byte[] decode(String hex, String name, String where) {
        try {
            return HEX.parseHex(hex);
        } catch (IllegalArgumentException e) {
            throw new KatDataException(where + ": '" + name + "' is not hex: " + e.getMessage(), e);
        }
    }

    static JsonNode array(JsonNode node, String name, String where) {
        JsonNode v = field(node, name, where);
        if (!v.isArray()) {
            throw new KatDataException(where + ": '" + name + "' is not an array");
        }
        return v;
    }
}
