package dev.punctual;

/**
 * Levenshtein distance between two short names: what "did you mean" suggestions are ranked by, for the
 * CLI's commands, options and job ids and for the handler's payload fields alike.
 */
public final class EditDistance {
    private EditDistance() {}

    /** The fewest single-character insertions, deletions and substitutions that turn {@code a} into {@code b}. */
    public static int between(String a, String b) {
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
