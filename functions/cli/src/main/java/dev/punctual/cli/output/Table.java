package dev.punctual.cli.output;

import dev.punctual.observability.VisibleText;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Plain-text columns sized to their widest cell, two spaces apart, so long values never misalign a row.
 * Every cell is shown with its hidden characters escaped ({@link VisibleText}): a stored value with a
 * newline or an ANSI escape in it cannot break its row or print a line of its own.
 */
public final class Table {

    private Table() {}

    /**
     * A column's name for {@code --columns}: its header in lower case, words joined by dashes
     * ({@code NEXT (LOCAL)} is {@code next-local}, {@code LOCK GROUP} {@code lock-group}).
     */
    static String key(String header) {
        return header.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
    }

    /** Every column's {@link #key}, in the table's order. */
    static List<String> keys(String[] header) {
        return Arrays.stream(header).map(Table::key).toList();
    }

    /**
     * The rows with only the columns named, in the order named; the first row is the header. A row
     * that shows nothing in the columns kept (a job's second next run, when the next runs are not shown)
     * is left out.
     */
    public static List<String[]> only(List<String[]> rows, List<String> keys) {
        List<String> all = keys(rows.get(0));
        int[] picked = keys.stream().mapToInt(all::indexOf).toArray();
        List<String[]> out = new ArrayList<>();
        for (int r = 0; r < rows.size(); r++) {
            String[] row = rows.get(r);
            String[] kept = Arrays.stream(picked).mapToObj(c -> row[c]).toArray(String[]::new);
            if (r == 0 || Arrays.stream(kept).anyMatch(cell -> !cell.isEmpty())) {
                out.add(kept);
            }
        }
        return out;
    }

    /** The first row is the header. */
    public static String render(List<String[]> rows) {
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
