package dev.punctual.time;

import java.util.BitSet;
import java.util.List;
import java.util.Locale;

/**
 * How one dialect writes one field: the numeric range, the names and whether steps are allowed.
 * Parses the list/range/step grammar both dialects share into raw values of that dialect's
 * numbering; the dialect then maps them to Punctual's numbering.
 *
 * @param nameBase the value the first name stands for (SUN is 0 in Unix, 1 in EventBridge)
 */
record FieldSyntax(String label, int min, int max, int nameBase, List<String> names, boolean steps, String accepted) {

    BitSet parse(String text) {
        BitSet values = new BitSet();
        for (String element : text.split(",", -1)) {
            parseElement(element, text, values);
        }
        return values;
    }

    private void parseElement(String element, String whole, BitSet values) {
        if (element.isEmpty()) {
            throw refuse(whole, "has an empty list element");
        }
        int slash = element.indexOf('/');
        String range = slash < 0 ? element : element.substring(0, slash);
        int step = slash < 0 ? 1 : step(element.substring(slash + 1), whole);
        int[] bounds = bounds(range, slash >= 0, whole);
        if (step > max - min) {
            // Quartz and aws-croniter refuse these; reading 0/120 as "0" alone hides a typo.
            throw refuse(
                    whole,
                    "has a step of " + step + ", longer than the field's " + min + "-" + max
                            + ", so it would only ever match " + bounds[0] + " (write " + bounds[0]
                            + " if that is meant)");
        }
        for (int value = bounds[0]; value <= bounds[1]; value += step) {
            values.set(value);
        }
    }

    private int step(String text, String whole) {
        if (!steps) {
            throw refuse(whole, "uses a step (/), which this field does not allow");
        }
        int step = number(text, whole);
        if (step < 1) {
            throw refuse(whole, "has a step of " + step);
        }
        return step;
    }

    private int[] bounds(String range, boolean stepped, String whole) {
        if (range.equals("*")) {
            return new int[] {min, max};
        }
        int dash = range.indexOf('-', 1);
        if (dash < 0) {
            int start = value(range, whole);
            return new int[] {start, stepped ? max : start};
        }
        int start = value(range.substring(0, dash), whole);
        int end = value(range.substring(dash + 1), whole);
        if (end < start) {
            throw refuse(
                    whole,
                    "has a range that wraps past the end of the field (" + range + "); EventBridge does not"
                            + " document what such a range means, so write both parts: "
                            + wrapped(range.substring(0, dash), range.substring(dash + 1)));
        }
        return new int[] {start, end};
    }

    /** The two ranges a wrapping range stands for, in the same notation: 20-2 is 20-23,0-2; FRI-MON is FRI-SAT,SUN-MON. */
    private String wrapped(String startText, String endText) {
        boolean named = names.contains(startText.toUpperCase(Locale.ROOT));
        String last = named ? names.get(names.size() - 1) : Integer.toString(max);
        String first = named ? names.get(0) : Integer.toString(min);
        return startText + "-" + last + "," + first + "-" + endText;
    }

    int value(String text, String whole) {
        int named = names.indexOf(text.toUpperCase(Locale.ROOT));
        int value = named >= 0 ? named + nameBase : number(text, whole);
        if (value < min || value > max) {
            throw refuse(whole, "is out of range (" + text + ")");
        }
        return value;
    }

    private int number(String text, String whole) {
        if (!dev.punctual.AsciiDigits.matches(text, 9)) {
            throw refuse(whole, "is not understood (" + (text.isEmpty() ? "nothing" : text) + ")");
        }
        return Integer.parseInt(text);
    }

    ScheduleExpressionException refuse(String given, String problem) {
        return new ScheduleExpressionException(label, given, problem, accepted);
    }
}
