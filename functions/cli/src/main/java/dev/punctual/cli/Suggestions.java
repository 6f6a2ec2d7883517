package dev.punctual.cli;

import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;

/** "Did you mean": the closest known name to a mistyped one, by edit distance. */
final class Suggestions {

    private Suggestions() {}

    /** {@code " (did you mean daily-report?)"}, or empty when nothing is close enough to be a typo. */
    static String didYouMean(String typed, Collection<String> known) {
        return closest(typed, known).map(k -> " (did you mean " + k + "?)").orElse("");
    }

    /** The known name within a third of its length (at least 2 edits) of the typed one, or a prefix match. */
    static Optional<String> closest(String typed, Collection<String> known) {
        return known.stream()
                .filter(k ->
                        distance(typed, k) <= Math.max(2, k.length() / 3) || k.startsWith(typed) && !typed.isEmpty())
                .min(Comparator.comparingInt((String k) -> distance(typed, k)).thenComparing(k -> k));
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
