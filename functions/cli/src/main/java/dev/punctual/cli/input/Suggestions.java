package dev.punctual.cli.input;

import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;

/** "Did you mean": the closest known name to a mistyped one, by edit distance. */
public final class Suggestions {

    private Suggestions() {}

    /** {@code " (did you mean status?)"}, or empty when nothing is close enough to be a typo. */
    public static String didYouMean(String typed, Collection<String> known) {
        return closest(typed, known).map(k -> " (did you mean " + k + "?)").orElse("");
    }

    /** The known name within a third of its length (at least 2 edits) of the typed one, or a prefix match. */
    static Optional<String> closest(String typed, Collection<String> known) {
        return known.stream()
                .filter(k ->
                        distance(typed, k) <= Math.max(2, k.length() / 3) || k.startsWith(typed) && !typed.isEmpty())
                .min(Comparator.comparingInt((String k) -> distance(typed, k)).thenComparing(k -> k));
    }

    /** Levenshtein distance (one implementation for the CLI and the handler). */
    static int distance(String a, String b) {
        return dev.punctual.EditDistance.between(a, b);
    }
}
