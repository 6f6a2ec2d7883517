package dev.punctual.cli;

import dev.punctual.observability.VisibleText;
import java.util.Arrays;
import java.util.List;

/**
 * Plain-text columns sized to their widest cell, two spaces apart, so long values never misalign a row.
 * Every cell is shown with its hidden characters escaped ({@link VisibleText}): a stored value with a
 * newline or an ANSI escape in it cannot break its row or print a line of its own.
 */
final class Table {

    private Table() {}

    /** The first row is the header. */
    static String render(List<String[]> rows) {
        List<String[]> shown = rows.stream()
                .map(row -> Arrays.stream(row).map(VisibleText::escaped).toArray(String[]::new))
                .toList();
        int columns = shown.get(0).length;
        int[] width = new int[columns];
        for (String[] row : shown) {
            for (int c = 0; c < columns; c++) {
                width[c] = Math.max(width[c], row[c].length());
            }
        }
        StringBuilder s = new StringBuilder();
        for (String[] row : shown) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < columns; c++) {
                line.append(c == columns - 1 ? row[c] : String.format("%-" + width[c] + "s  ", row[c]));
            }
            s.append(line.toString().stripTrailing()).append('\n');
        }
        return s.toString().stripTrailing();
    }
}
