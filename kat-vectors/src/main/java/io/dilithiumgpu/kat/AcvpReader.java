package io.dilithiumgpu.kat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dilithiumgpu.core.ParameterSet;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads NIST ACVP ML-DSA vector sets (FIPS 204 revision, and the FIPS204-tr1 sigGen revision
 * with seed-format keys): the inputs of {@code prompt.json} joined on {@code tgId} and
 * {@code tcId} with the answers of {@code expectedResults.json}. Every prompt case must have
 * exactly one answer and every answer a prompt.
 *
 * <p>How a case's message becomes μ follows its group: {@code signatureInterface = external}
 * with {@code preHash = pure} (FIPS 204 Algorithms 2/3) or {@code preHash} (HashML-DSA,
 * Algorithms 4/5, {@code hashAlg} per case); {@code internal} with {@code externalMu = true}
 * (μ given) or false (M′ given, Algorithms 7/8).
 */
public final class AcvpReader {

    /** keyGen: ξ and the expected key pair. */
    public record KeyGenCase(int tcId, byte[] seed, byte[] publicKey, byte[] privateKey) {}

    public record KeyGenGroup(int tgId, ParameterSet params, List<KeyGenCase> cases) {}

    /** How a sigGen group gives its private keys. */
    public enum KeyFormat {
        /** The expanded private key sk (FIPS 204 revision; tr1 {@code keyFormat = expanded}). */
        EXPANDED,
        /** The 32-byte ξ; sk comes from ML-DSA.KeyGen_internal (tr1 {@code keyFormat = seed}). */
        SEED
    }

    /**
     * sigGen: the key (ξ or sk, per the group's {@link KeyFormat}; the other is null), the
     * message, {@code rnd} (null in deterministic groups) and the expected signature.
     */
    public record SigGenCase(int tcId, byte[] seed, byte[] privateKey, MessageInput message,
                             byte[] rnd, byte[] signature) {}

    public record SigGenGroup(int tgId, ParameterSet params, KeyFormat keyFormat,
                              boolean deterministic, List<SigGenCase> cases) {}

    /** sigVer: inputs and the expected verdict. */
    public record SigVerCase(int tcId, byte[] publicKey, MessageInput message, byte[] signature,
                             boolean testPassed) {}

    public record SigVerGroup(int tgId, ParameterSet params, List<SigVerCase> cases) {}

    private AcvpReader() {}

    /** ML-DSA keyGen: {@code seed} → {@code pk}, {@code sk}. */
    public static List<KeyGenGroup> keyGen(byte[] prompt, byte[] expectedResults) {
        Joined joined = join(prompt, expectedResults, "keyGen");
        List<KeyGenGroup> groups = new ArrayList<>();
        for (JsonNode g : joined.groups) {
            int tgId = Json.integer(g, "tgId", "keyGen group");
            String where = "keyGen tgId " + tgId;
            List<KeyGenCase> cases = new ArrayList<>();
            for (JsonNode t : Json.array(g, "tests", where)) {
                int tcId = Json.integer(t, "tcId", where);
                JsonNode answer = joined.answer(tgId, tcId);
                String at = "keyGen tcId " + tcId;
                cases.add(new KeyGenCase(tcId, Json.hex(t, "seed", at),
                        Json.hex(answer, "pk", at), Json.hex(answer, "sk", at)));
            }
            groups.add(new KeyGenGroup(tgId, params(g, where), List.copyOf(cases)));
        }
        joined.requireAllUsed();
        return List.copyOf(groups);
    }

    /** ML-DSA sigGen (both revisions): key, message, rnd → {@code signature}. */
    public static List<SigGenGroup> sigGen(byte[] prompt, byte[] expectedResults) {
        Joined joined = join(prompt, expectedResults, "sigGen");
        List<SigGenGroup> groups = new ArrayList<>();
        for (JsonNode g : joined.groups) {
            int tgId = Json.integer(g, "tgId", "sigGen group");
            String where = "sigGen tgId " + tgId;
            KeyFormat format = keyFormat(g, where);
            boolean deterministic = Json.bool(g, "deterministic", where);
            List<SigGenCase> cases = new ArrayList<>();
            for (JsonNode t : Json.array(g, "tests", where)) {
                int tcId = Json.integer(t, "tcId", where);
                String at = "sigGen tcId " + tcId;
                byte[] seed = format == KeyFormat.SEED ? Json.hex(t, "seed", at) : null;
                byte[] sk = format == KeyFormat.EXPANDED ? Json.hex(t, "sk", at) : null;
                byte[] rnd = deterministic ? null : Json.hex(t, "rnd", at);
                cases.add(new SigGenCase(tcId, seed, sk, message(g, t, at), rnd,
                        Json.hex(joined.answer(tgId, tcId), "signature", at)));
            }
            groups.add(new SigGenGroup(tgId, params(g, where), format, deterministic, List.copyOf(cases)));
        }
        joined.requireAllUsed();
        return List.copyOf(groups);
    }

    /** ML-DSA sigVer: pk, message, signature → {@code testPassed}. */
    public static List<SigVerGroup> sigVer(byte[] prompt, byte[] expectedResults) {
        Joined joined = join(prompt, expectedResults, "sigVer");
        List<SigVerGroup> groups = new ArrayList<>();
        for (JsonNode g : joined.groups) {
            int tgId = Json.integer(g, "tgId", "sigVer group");
            String where = "sigVer tgId " + tgId;
            List<SigVerCase> cases = new ArrayList<>();
            for (JsonNode t : Json.array(g, "tests", where)) {
                int tcId = Json.integer(t, "tcId", where);
                String at = "sigVer tcId " + tcId;
                cases.add(new SigVerCase(tcId, Json.hex(t, "pk", at), message(g, t, at),
                        Json.hex(t, "signature", at),
                        Json.bool(joined.answer(tgId, tcId), "testPassed", at)));
            }
            groups.add(new SigVerGroup(tgId, params(g, where), List.copyOf(cases)));
        }
        joined.requireAllUsed();
        return List.copyOf(groups);
    }

    private static ParameterSet params(JsonNode group, String where) {
        String name = Json.text(group, "parameterSet", where);
        try {
            ParameterSet p = ParameterSet.forName(name);
            if (!p.isFips204()) {
                throw new KatDataException(where + ": ACVP parameter set " + name + " is not ML-DSA");
            }
            return p;
        } catch (IllegalArgumentException e) {
            throw new KatDataException(where + ": unknown parameterSet " + name, e);
        }
    }

    private static KeyFormat keyFormat(JsonNode group, String where) {
        JsonNode f = group.get("keyFormat");
        if (f == null) {
            return KeyFormat.EXPANDED;
        }
        switch (f.asText()) {
            case "expanded": return KeyFormat.EXPANDED;
            case "seed": return KeyFormat.SEED;
            default: throw new KatDataException(where + ": unknown keyFormat " + f);
        }
    }

    private static MessageInput message(JsonNode group, JsonNode test, String at) {
        String where = at + " (group " + Json.integer(group, "tgId", at) + ")";
        String iface = Json.text(group, "signatureInterface", where);
        switch (iface) {
            case "external": {
                byte[] ctx = Json.hex(test, "context", at);
                byte[] msg = Json.hex(test, "message", at);
                String preHash = Json.text(group, "preHash", where);
                switch (preHash) {
                    case "pure": return new MessageInput.Pure(ctx, msg);
                    case "preHash": return new MessageInput.PreHashed(ctx, Json.text(test, "hashAlg", at), msg);
                    default: throw new KatDataException(where + ": unknown preHash " + preHash);
                }
            }
            case "internal":
                return Json.bool(group, "externalMu", where)
                        ? new MessageInput.ExternalMu(Json.hex(test, "mu", at))
                        : new MessageInput.Internal(Json.hex(test, "message", at));
            default:
                throw new KatDataException(where + ": unknown signatureInterface " + iface);
        }
    }

    /** The prompt's groups and the expected answers by (tgId, tcId). */
    private static final class Joined {
        final String mode;
        final JsonNode groups;
        final Map<Long, JsonNode> answers;

        Joined(String mode, JsonNode groups, Map<Long, JsonNode> answers) {
            this.mode = mode;
            this.groups = groups;
            this.answers = answers;
        }

        /** Every answer was claimed by a prompt case. */
        void requireAllUsed() {
            if (!answers.isEmpty()) {
                throw new KatDataException(mode + " expectedResults has " + answers.size()
                        + " answers without a prompt case");
            }
        }

        /** Removes and returns the answer, so that each is used exactly once. */
        JsonNode answer(int tgId, int tcId) {
            JsonNode a = answers.remove(key(tgId, tcId));
            if (a == null) {
                throw new KatDataException("expectedResults has no answer for tgId " + tgId + " tcId " + tcId);
            }
            return a;
        }
    }

    private static Joined join(byte[] prompt, byte[] expectedResults, String mode) {
        JsonNode p = Json.parse(prompt, mode + " prompt.json");
        JsonNode e = Json.parse(expectedResults, mode + " expectedResults.json");
        for (JsonNode doc : new JsonNode[] {p, e}) {
            if (!"ML-DSA".equals(Json.text(doc, "algorithm", mode)) || !mode.equals(Json.text(doc, "mode", mode))) {
                throw new KatDataException("not an ACVP ML-DSA " + mode + " vector set: algorithm "
                        + doc.get("algorithm") + ", mode " + doc.get("mode"));
            }
        }
        if (Json.integer(p, "vsId", mode) != Json.integer(e, "vsId", mode)) {
            throw new KatDataException(mode + ": prompt and expectedResults have different vsId");
        }
        Map<Long, JsonNode> answers = new HashMap<>();
        for (JsonNode g : Json.array(e, "testGroups", mode + " expectedResults")) {
            int tgId = Json.integer(g, "tgId", mode + " expectedResults group");
            for (JsonNode t : Json.array(g, "tests", mode + " expectedResults tgId " + tgId)) {
                int tcId = Json.integer(t, "tcId", mode + " expectedResults tgId " + tgId);
                if (answers.put(key(tgId, tcId), t) != null) {
                    throw new KatDataException(mode + " expectedResults repeats tgId " + tgId + " tcId " + tcId);
                }
            }
        }
        return new Joined(mode, Json.array(p, "testGroups", mode + " prompt"), answers);
    }

    private static long key(int tgId, int tcId) {
        return ((long) tgId << 32) | (tcId & 0xFFFFFFFFL);
    }
}
