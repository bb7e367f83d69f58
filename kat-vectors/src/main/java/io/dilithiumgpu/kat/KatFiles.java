package io.dilithiumgpu.kat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The vector directory, pinned by its {@code SHA256SUMS}: every file is read through
 * {@link #read(String)}, which returns its bytes only when their SHA-256 is the one listed. A file
 * that is missing, unlisted, or altered stops the run with a {@link KatDataException}.
 */
public final class KatFiles {
    /** The checksum list at the root of the vector directory, in {@code sha256sum} format. */
    public static final String SUMS = "SHA256SUMS";

    private static final HexFormat HEX = HexFormat.of();

    private final Path root;
    /** Relative path (forward slashes, no leading {@code ./}) to its expected SHA-256. */
    private final Map<String, byte[]> sums;

    private KatFiles(Path root, Map<String, byte[]> sums) {
        this.root = root;
        this.sums = sums;
    }

    /** Opens the directory {@link KatDirectory#locate()} finds. */
    public static KatFiles open() {
        return open(KatDirectory.locate());
    }

    /**
     * Opens a vector directory and reads its {@code SHA256SUMS}.
     *
     * @throws KatDataException if the directory or its checksum list is missing or malformed
     */
    public static KatFiles open(Path root) {
        Path sumsFile = root.resolve(SUMS);
        String text;
        try {
            text = Files.readString(sumsFile, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new KatDataException("cannot read " + sumsFile + ": " + e, e);
        }
        Map<String, byte[]> sums = new LinkedHashMap<>();
        int lineNo = 0;
        for (String line : text.split("\n")) {
            lineNo++;
            if (line.isBlank()) {
                continue;
            }
            // "<64 hex digits><space><space or *><path>"
            if (line.length() < 67 || line.charAt(64) != ' '
                    || (line.charAt(65) != ' ' && line.charAt(65) != '*')) {
                throw new KatDataException(sumsFile + " line " + lineNo + " is not '<sha256>  <path>'");
            }
            byte[] digest;
            try {
                digest = HEX.parseHex(line, 0, 64);
            } catch (IllegalArgumentException e) {
                throw new KatDataException(sumsFile + " line " + lineNo + " has no hex digest", e);
            }
            sums.put(normalise(line.substring(66)), digest);
        }
        return new KatFiles(root, Collections.unmodifiableMap(sums));
    }

    /** The vector directory. */
    public Path root() {
        return root;
    }

    /** The relative paths {@code SHA256SUMS} lists, in its order. */
    public Set<String> listed() {
        return sums.keySet();
    }

    /**
     * The bytes of a listed file, after checking them against {@code SHA256SUMS}.
     *
     * @param relativePath path below the vector directory, with forward slashes
     * @throws KatDataException if the file is not listed, missing, or its SHA-256 differs
     */
    public byte[] read(String relativePath) {
        String key = normalise(relativePath);
        byte[] expected = sums.get(key);
        if (expected == null) {
            throw new KatDataException(key + " is not listed in " + root.resolve(SUMS));
        }
        Path file = root.resolve(key);
        byte[] content;
        try {
            content = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new KatDataException("missing vector file " + file, e);
        } catch (IOException e) {
            throw new KatDataException("cannot read " + file + ": " + e, e);
        }
        byte[] actual = sha256(content);
        if (!MessageDigest.isEqual(expected, actual)) {
            throw new KatDataException("SHA-256 mismatch for " + file + ": " + SUMS + " lists "
                    + HEX.formatHex(expected) + ", the file has " + HEX.formatHex(actual));
        }
        return content;
    }

    /** A listed file as UTF-8 text, checked as {@link #read(String)} does. */
    public String readString(String relativePath) {
        return new String(read(relativePath), StandardCharsets.UTF_8);
    }

    /**
     * Checks every file {@code SHA256SUMS} lists.
     *
     * @throws KatDataException at the first file that is missing or altered
     */
    public void verifyAll() {
        for (String path : sums.keySet()) {
            read(path);
        }
    }

    private static String normalise(String path) {
        String p = path.strip().replace('\\', '/');
        while (p.startsWith("./")) {
            p = p.substring(2);
        }
        return p;
    }

    private static byte[] sha256(byte[] content) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(content);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
