package dev.punctual.time;

import java.util.List;

/** The fields of a cron expression, with the ranges and names both dialects share. */
enum CronField {
    MINUTE("minutes", 0, 59, List.of()),
    HOUR("hours", 0, 23, List.of()),
    DAY_OF_MONTH("day-of-month", 1, 31, List.of()),
    MONTH("month", 1, 12, CronSyntax.MONTHS),
    /** Day-of-week as Punctual stores it: 0 = Sunday ... 6 = Saturday, whatever the dialect wrote. */
    DAY_OF_WEEK("day-of-week", 0, 6, CronSyntax.WEEKDAYS),
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

    String nameOf(int value) {
        return names.get(value - min);
    }
}
