package io.dilithiumgpu.kat;

import io.dilithiumgpu.core.ParameterSet;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Reads the NIST PQC signature KAT format ({@code PQCsignKAT_<set>.rsp}, written by
 * {@code PQCgenKAT_sign}): a {@code # <set name>} header, then records of {@code key = value}
 * lines separated by blank lines: {@code count, seed, mlen, msg, pk, sk, smlen, sm}, with
 * {@code sm = σ ‖ msg}.
 */
public final class NistRspReader {

    /** One record. {@code seed} is the 48-byte CTR_DRBG entropy input of this record. */
    public record Record(int count, byte[] seed, byte[] message, byte[] publicKey,
                         byte[] privateKey, byte[] signedMessage) {}

    /** A whole file: the set named by its header, and its records in file order. */
    public record RspFile(ParameterSet params, List<Record> records) {}

    private static final String[] FIELDS = {"count", "seed", "mlen", "msg", "pk", "sk", "smlen", "sm"};
    private static final HexFormat HEX = HexFormat.of();

    private NistRspReader() {}

    /**
     * Parses a file's text.
     *
     * @throws KatDataException on a missing header, a record missing a field, a non-hex value,
     *                          or a length field that disagrees with its value
     */
    public static RspFile parse(String text) {
        ParameterSet params = null;
        List<Record> records = new ArrayList<>();
        Map<String, String> fields = new HashMap<>();
        int lineNo = 0;
        for (String raw : text.split("\n", -1)) {
            lineNo++;
            String line = raw.strip();
            if (line.startsWith("#")) {
                if (params == null) {
                    params = setNamed(line.substring(1).strip());
                }
                continue;
            }
            if (line.isEmpty()) {
                if (!fields.isEmpty()) {
                    records.add(record(fields, lineNo));
                    fields.clear();
                }
                continue;
            }
            int eq = line.indexOf('=');
            if (eq < 0) {
                throw new KatDataException("line " + lineNo + " is not 'key = value': " + line);
            }
            String key = line.substring(0, eq).strip();
            if (fields.put(key, line.substring(eq + 1).strip()) != null) {
                throw new KatDataException("line " + lineNo + " repeats '" + key + "' in one record");
            }
        }
        if (!fields.isEmpty()) {
            records.add(record(fields, lineNo));
        }
        if (params == null) {
            throw new KatDataException("no '# <parameter set>' header");
        }
        return new RspFile(params, List.copyOf(records));
    }

    private static ParameterSet setNamed(String name) {
        try {
            return ParameterSet.forName(name);
        } catch (IllegalArgumentException e) {
            throw new KatDataException("header names no parameter set: '" + name + "'", e);
        }
    }

    private static Record record(Map<String, String> fields, int lineNo) {
        for (String f : FIELDS) {
            if (!fields.containsKey(f)) {
                throw new KatDataException("record ending at line " + lineNo + " has no '" + f + "'");
            }
        }
        try {
            int count = Integer.parseInt(fields.get("count"));
            byte[] msg = HEX.parseHex(fields.get("msg"));
            byte[] sm = HEX.parseHex(fields.get("sm"));
            if (Integer.parseInt(fields.get("mlen")) != msg.length
                    || Integer.parseInt(fields.get("smlen")) != sm.length) {
                throw new KatDataException("record count = " + count + ": mlen or smlen disagrees with its value");
            }
            return new Record(count, HEX.parseHex(fields.get("seed")), msg,
                    HEX.parseHex(fields.get("pk")), HEX.parseHex(fields.get("sk")), sm);
        } catch (IllegalArgumentException e) {
            throw new KatDataException("record ending at line " + lineNo + ": " + e.getMessage(), e);
        }
    }
}
