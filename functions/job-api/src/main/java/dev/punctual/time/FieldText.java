package dev.punctual.time;

import java.util.ArrayList;
import java.util.List;

/** Writes a field set in the canonical EventBridge form: {@code *}, {@code start/step}, or lists of ranges. */
final class FieldText {
    private FieldText() {}

    static String render(FieldSet set) {
        if (set.isFull()) {
            return "*";
        }
        int[] values = set.values().toArray();
        CronField field = set.field();
        if (field != CronField.DAY_OF_WEEK && isOpenStep(values, field)) {
            return values[0] + "/" + (values[1] - values[0]);
        }
        return runs(values, field);
    }

    /** An arithmetic progression that runs to the end of the field, like 5,20,35,50 in minutes. */
    private static boolean isOpenStep(int[] values, CronField field) {
        if (values.length < 3) {
            return false;
        }
        int step = values[1] - values[0];
        for (int i = 2; i < values.length; i++) {
            if (values[i] - values[i - 1] != step) {
                return false;
            }
        }
        return step > 1 && values[values.length - 1] + step > field.max();
    }

    private static String runs(int[] values, CronField field) {
        List<String> parts = new ArrayList<>();
        int start = 0;
        for (int i = 1; i <= values.length; i++) {
            if (i == values.length || values[i] != values[i - 1] + 1) {
                addRun(parts, values[start], values[i - 1], field);
                start = i;
            }
        }
        return String.join(",", parts);
    }

    private static void addRun(List<String> parts, int first, int last, CronField field) {
        if (last > first) {
            parts.add(name(first, field) + "-" + name(last, field));
            return;
        }
        for (int value = first; value <= last; value++) {
            parts.add(name(value, field));
        }
    }

    private static String name(int value, CronField field) {
        return field == CronField.DAY_OF_WEEK ? field.nameOf(value) : Integer.toString(value);
    }
}
