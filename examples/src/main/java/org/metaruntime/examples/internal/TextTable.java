package org.metaruntime.examples.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A plain-text table with aligned columns, for console output. Cells longer than the column limit are
 * cut with an ellipsis; line breaks in cells are shown as spaces.
 *
 * <pre>{@code
 * TextTable table = new TextTable("module", "state");
 * table.row("text-tools", "Healthy");
 * System.out.print(table.render());
 * }</pre>
 *
 * <p>Not thread-safe.
 */
public final class TextTable {

    /** The widest a cell is shown. */
    public static final int MAX_CELL = 72;

    private final String[] headers;
    private final List<String[]> rows = new ArrayList<>();

    /** A table with these column headers. */
    public TextTable(String... headers) {
        this.headers = Arrays.copyOf(Objects.requireNonNull(headers, "headers"), headers.length);
    }

    /** Adds a row; it must have one cell per column ({@code null} is shown as empty). */
    public TextTable row(Object... cells) {
        Objects.requireNonNull(cells, "cells");
        if (cells.length != headers.length) {
            throw new IllegalArgumentException("expected " + headers.length + " cells, got " + cells.length);
        }
        String[] row = new String[cells.length];
        for (int i = 0; i < cells.length; i++) {
            row[i] = clean(cells[i] == null ? "" : String.valueOf(cells[i]));
        }
        rows.add(row);
        return this;
    }

    /** The table as lines, each indented by two spaces, with a rule under the headers. */
    public String render() {
        int[] widths = new int[headers.length];
        for (int i = 0; i < headers.length; i++) {
            widths[i] = headers[i].length();
            for (String[] row : rows) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        StringBuilder out = new StringBuilder();
        line(out, headers, widths);
        String[] rule = new String[headers.length];
        for (int i = 0; i < rule.length; i++) {
            rule[i] = "-".repeat(widths[i]);
        }
        line(out, rule, widths);
        for (String[] row : rows) {
            line(out, row, widths);
        }
        return out.toString();
    }

    private static void line(StringBuilder out, String[] cells, int[] widths) {
        StringBuilder line = new StringBuilder("  ");
        for (int i = 0; i < cells.length; i++) {
            line.append(cells[i]);
            if (i < cells.length - 1) {
                line.append(" ".repeat(widths[i] - cells[i].length() + 2));
            }
        }
        out.append(line.toString().stripTrailing()).append('\n');
    }

    private static String clean(String text) {
        String flat = text.replace("\r\n", " ").replace('\n', ' ').replace('\r', ' ').replace('\t', ' ');
        return flat.length() <= MAX_CELL ? flat : flat.substring(0, MAX_CELL - 1) + "…";
    }
}
