package dev.punctual.cli;

import java.util.List;

/** Plain-text columns sized to their widest cell, two spaces apart, so long values never misalign a row. */
final class Table {

    private Table() {}

    /** The first row is the header. */
    static String render(List<String[]> rows) {
        int columns = rows.get(0).length;
        int[] width = new int[columns];
        for (String[] row : rows) {
            for (int c = 0; c < columns; c++) {
                width[c] = Math.max(width[c], row[c].length());
            }
        }
        StringBuilder s = new StringBuilder();
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < columns; c++) {
                line.append(c == columns - 1 ? row[c] : String.format("%-" + width[c] + "s  ", row[c]));
            }
            s.append(line.toString().stripTrailing()).append('\n');
        }
        return s.toString().stripTrailing();
    }
}
