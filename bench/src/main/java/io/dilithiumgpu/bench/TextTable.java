package io.dilithiumgpu.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * A plain-text table: a header row, a rule, and rows. Columns are as wide as their widest cell;
 * a column is right-aligned when every body cell in it looks like a number (starts with a digit,
 * a sign or {@code <}, or is {@code —} for a missing value), so figures line up on their last
 * digit.
 */
final class TextTable {
    private final List<String> headers;
    private final List<List<String>> rows = new ArrayList<>();

    TextTable(String... headers) {
        this.headers = List.of(headers);
    }

    TextTable row(String... cells) {
        if (cells.length != headers.size()) {
            throw new IllegalArgumentException(
                    "row has " + cells.length + " cells, table has " + headers.size() + " columns");
        }
        rows.add(List.of(cells));
        return this;
    }

    int rowCount() {
        return rows.size();
    }

    /** The table with a trailing newline; two spaces between columns. */
    String render() {
        int cols = headers.size();
        int[] width = new int[cols];
        boolean[] right = new boolean[cols];
        for (int c = 0; c < cols; c++) {
            width[c] = headers.get(c).length();
            boolean numeric = !rows.isEmpty();
            for (List<String> row : rows) {
                width[c] = Math.max(width[c], row.get(c).length());
                numeric &= looksNumeric(row.get(c));
            }
            right[c] = numeric;
        }
        StringBuilder sb = new StringBuilder();
        line(sb, headers, width, right);
        int total = 0;
        for (int w : width) {
            total += w;
        }
        sb.append("-".repeat(total + 2 * (cols - 1))).append('\n');
        for (List<String> row : rows) {
            line(sb, row, width, right);
        }
        return sb.toString();
    }

    private static void line(StringBuilder sb, List<String> cells, int[] width, boolean[] right) {
        StringBuilder line = new StringBuilder();
        for (int c = 0; c < cells.size(); c++) {
            if (c > 0) {
                line.append("  ");
            }
            String cell = cells.get(c);
            String pad = " ".repeat(width[c] - cell.length());
            line.append(right[c] ? pad + cell : cell + pad);
        }
        sb.append(line.toString().stripTrailing()).append('\n');
    }

    static boolean looksNumeric(String cell) {
        if (cell.isEmpty() || cell.equals("—")) {
            return true;
        }
        char c = cell.charAt(0);
        return (c >= '0' && c <= '9') || ((c == '-' || c == '+' || c == '.' || c == '<') && cell.length() > 1);
    }
}
