package dev.punctual.time;

import java.util.List;

/** The fields of a cron expression, with the ranges and names both dialects share. */
enum CronField {
    MINUTE("minutes", 0, 59, List.of()),
    HOUR("hours", 0, 23, List.of()),
    DAY_OF_MONTH("day-of-month", 1, 31, List.of()),
    MONTH("month", 1, 12, List.of("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")),
    /** Day-of-week as Punctual stores it: 0 = Sunday ... 6 = Saturday, whatever the dialect wrote. */
    DAY_OF_WEEK("day-of-week", 0, 6, List.of("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT")),
    YEAR("year", 1970, 2199, List.of());

    private final String label;
    private final int min;
    private final int max;
    private final List<String> names;

    CronField(String label, int min, int max, List<String> names) {
        this.label = label;
        this.min = min;
        this.max = max;
        this.names = names;
    }

    String label() {
        return label;
    }

    int min() {
        return min;
    }

    int max() {
        return max;
    }

    /** The value a three-letter name stands for, or -1; names are counted from {@link #min()}. */
    int valueOfName(String text) {
        int index = names.indexOf(text.toUpperCase(java.util.Locale.ROOT));
        return index < 0 ? -1 : index + min;
    }

    String nameOf(int value) {
        return names.get(value - min);
    }

    boolean hasNames() {
        return !names.isEmpty();
    }
}
