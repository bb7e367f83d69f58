package io.dilithiumgpu.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A CSV file: comma-separated, fields quoted as RFC 4180 says when they need it, lines ending in LF. */
final class Csv {
    private final List<String> lines = new ArrayList<>();
    private final int columns;

    Csv(String... header) {
        columns = header.length;
        lines.add(join(header));
    }

    /** Adds a row; numbers are written by {@link Format#csvNumber} (NaN, a value not known, as nothing), everything else as text. */
    Csv row(Object... cells) {
        if (cells.length != columns) {
            throw new IllegalArgumentException("row has " + cells.length + " cells, CSV has " + columns + " columns");
        }
        String[] text = new String[cells.length];
        for (int i = 0; i < cells.length; i++) {
            Object v = cells[i];
            text[i] = v instanceof Double || v instanceof Float ? (Double.isNaN(((Number) v).doubleValue()) ? ""
                    : Format.csvNumber(((Number) v).doubleValue()))
                    : v == null ? "" : v.toString();
        }
        lines.add(join(text));
        return this;
    }

    String content() {
        return String.join("\n", lines) + "\n";
    }

    /** Writes the file, creating its directory. */
    void write(Path file) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        Files.writeString(file, content(), StandardCharsets.UTF_8);
    }

    static String field(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    private static String join(String[] fields) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < fields.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(field(fields[i]));
        }
        return sb.toString();
    }
}
