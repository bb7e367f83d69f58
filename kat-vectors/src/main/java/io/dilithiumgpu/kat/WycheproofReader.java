package io.dilithiumgpu.kat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dilithiumgpu.core.ParameterSet;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads C2SP Wycheproof ML-DSA files: {@code mldsa_verify_schema.json} (verification),
 * {@code mldsa_sign_seed_schema.json} (signing from a 32-byte {@code privateSeed}) and
 * {@code mldsa_sign_noseed_schema.json} (signing with an expanded {@code privateKey}). The file's
 * {@code numberOfTests} must equal the tests it holds.
 *
 * <p>Messages: a test with {@code msg} signs or verifies it under {@code ctx} (empty when absent)
 * as pure ML-DSA; a signing test flagged {@code Internal} carries only {@code mu}.
 */
public final class WycheproofReader {

    public record VerifyCase(int tcId, String comment, Expected result, List<String> flags,
                             MessageInput message, byte[] signature) {}

    public record VerifyGroup(byte[] publicKey, List<VerifyCase> cases) {}

    public record VerifyFile(ParameterSet params, List<VerifyGroup> groups) {}

    /**
     * A signing test. {@code mu} is the expected μ (absent when the vector expects failure);
     * {@code rnd} is null for deterministic signing (32 zero bytes); {@code signature} is empty
     * when the vector expects failure.
     */
    public record SignCase(int tcId, String comment, Expected result, List<String> flags,
                           MessageInput message, byte[] mu, byte[] rnd, byte[] signature) {}

    /**
     * A key and its tests: {@code privateSeed} (seed files) or {@code privateKey} (noseed files),
     * the other null; {@code publicKey} null when the private key is invalid.
     */
    public record SignGroup(byte[] privateSeed, byte[] privateKey, byte[] publicKey,
                            List<SignCase> cases) {}

    public record SignFile(ParameterSet params, boolean seeded, List<SignGroup> groups) {}

    private static final String VERIFY_SCHEMA = "mldsa_verify_schema.json";
    private static final String SEED_SCHEMA = "mldsa_sign_seed_schema.json";
    private static final String NOSEED_SCHEMA = "mldsa_sign_noseed_schema.json";

    private WycheproofReader() {}

    /** A {@code mldsa_*_verify_test.json} file. */
    public static VerifyFile verify(byte[] content, String name) {
        JsonNode root = Json.parse(content, name);
        requireSchema(root, name, VERIFY_SCHEMA);
        List<VerifyGroup> groups = new ArrayList<>();
        int tests = 0;
        for (JsonNode g : Json.array(root, "testGroups", name)) {
            List<VerifyCase> cases = new ArrayList<>();
            for (JsonNode t : Json.array(g, "tests", name)) {
                int tcId = Json.integer(t, "tcId", name);
                String at = name + " tcId " + tcId;
                byte[] ctx = context(t, at);
                cases.add(new VerifyCase(tcId, Json.text(t, "comment", at), result(t, at), flags(t, at),
                        new MessageInput.Pure(ctx, Json.hex(t, "msg", at)), Json.hex(t, "sig", at)));
            }
            tests += cases.size();
            groups.add(new VerifyGroup(Json.hex(g, "publicKey", name), List.copyOf(cases)));
        }
        requireCount(root, name, tests);
        return new VerifyFile(params(root, name), List.copyOf(groups));
    }

    /** A {@code mldsa_*_sign_seed_test.json} or {@code mldsa_*_sign_noseed_test.json} file. */
    public static SignFile sign(byte[] content, String name) {
        JsonNode root = Json.parse(content, name);
        String schema = Json.text(root, "schema", name);
        boolean seeded = schema.equals(SEED_SCHEMA);
        if (!seeded) {
            requireSchema(root, name, NOSEED_SCHEMA);
        }
        List<SignGroup> groups = new ArrayList<>();
        int tests = 0;
        for (JsonNode g : Json.array(root, "testGroups", name)) {
            List<SignCase> cases = new ArrayList<>();
            for (JsonNode t : Json.array(g, "tests", name)) {
                int tcId = Json.integer(t, "tcId", name);
                String at = name + " tcId " + tcId;
                List<String> flags = flags(t, at);
                byte[] msg = Json.optionalHex(t, "msg", at);
                byte[] mu = Json.optionalHex(t, "mu", at);
                MessageInput message;
                if (msg != null) {
                    message = new MessageInput.Pure(context(t, at), msg);
                } else if (mu != null && flags.contains("Internal")) {
                    message = new MessageInput.ExternalMu(mu);
                } else {
                    throw new KatDataException(at + " has neither msg nor an Internal mu");
                }
                cases.add(new SignCase(tcId, Json.text(t, "comment", at), result(t, at), flags,
                        message, mu, Json.optionalHex(t, "rnd", at), Json.hex(t, "sig", at)));
            }
            tests += cases.size();
            groups.add(new SignGroup(
                    seeded ? Json.hex(g, "privateSeed", name) : null,
                    seeded ? null : Json.hex(g, "privateKey", name),
                    Json.optionalHex(g, "publicKey", name),
                    List.copyOf(cases)));
        }
        requireCount(root, name, tests);
        return new SignFile(params(root, name), seeded, List.copyOf(groups));
    }

    private static ParameterSet params(JsonNode root, String name) {
        String algorithm = Json.text(root, "algorithm", name);
        try {
            return ParameterSet.forName(algorithm);
        } catch (IllegalArgumentException e) {
            throw new KatDataException(name + ": unknown algorithm " + algorithm, e);
        }
    }

    private static void requireSchema(JsonNode root, String name, String schema) {
        String actual = Json.text(root, "schema", name);
        if (!actual.equals(schema)) {
            throw new KatDataException(name + " has schema " + actual + ", expected " + schema);
        }
    }

    private static void requireCount(JsonNode root, String name, int tests) {
        int declared = Json.integer(root, "numberOfTests", name);
        if (declared != tests) {
            throw new KatDataException(name + " declares " + declared + " tests but holds " + tests);
        }
    }

    private static byte[] context(JsonNode test, String at) {
        byte[] ctx = Json.optionalHex(test, "ctx", at);
        return ctx == null ? new byte[0] : ctx;
    }

    private static Expected result(JsonNode test, String at) {
        return Expected.ofWycheproof(Json.text(test, "result", at));
    }

    private static List<String> flags(JsonNode test, String at) {
        List<String> flags = new ArrayList<>();
        for (JsonNode f : Json.array(test, "flags", at)) {
            flags.add(f.asText());
        }
        return List.copyOf(flags);
    }
}
