package dev.punctual.runtime;

import java.util.List;
import java.util.Locale;

/** How a refused payload field is named back: bounded, and with the field that was probably meant. */
final class FieldNames {
    private FieldNames() {}

    private static final int SHOWN = 60;

    /** Bounded, with hidden characters escaped by the one rule the CLI uses too (VisibleText). */
    static String shown(String name) {
        String bounded = name.length() > SHOWN ? name.substring(0, SHOWN) : name;
        return dev.punctual.observability.VisibleText.escaped(bounded) + (bounded.length() < name.length() ? "…" : "");
    }

    /**
     * " (did you mean X?)" for the accepted field {@code name} most likely stands for: the same letters in
     * another case or with separators ({@code dry_run}, {@code DryRun}, {@code dry-run}), or within two
     * edits ({@code dryrn}); empty when none is close.
     */
    static String didYouMean(String name, List<String> accepted) {
        if (name.length() > 64) {
            return "";
        }
        String folded = fold(name);
        String best = null;
        int bestDistance = 3;
        for (String candidate : accepted) {
            if (fold(candidate).equals(folded)) {
                return " (did you mean " + candidate + "?)";
            }
            int distance = distance(folded, fold(candidate));
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        return best == null ? "" : " (did you mean " + best + "?)";
    }

    private static String fold(String name) {
        return name.replace("_", "").replace("-", "").toLowerCase(Locale.ROOT);
    }

    private static int distance(String a, String b) {
        return dev.punctual.EditDistance.between(a, b);
    }
}
