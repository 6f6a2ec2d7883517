package dev.punctual.observability;

/**
 * Text people typed (a maintenance reason, who set it, a name) printed where other people read it: a
 * table row, an error line, a run's detail. A character that is not seen but acts, a newline, a tab,
 * an ANSI escape, a bidirectional override or a zero-width character, could break the row, forge a
 * second log line or reorder what the reader sees; shown as {@code \\uXXXX}, it can do none of that.
 */
public final class VisibleText {

    private VisibleText() {}

    /** The text with every hidden character written as {@code \\uXXXX}; null stays null. */
    public static String escaped(String text) {
        if (text == null) {
            return null;
        }
        StringBuilder out = new StringBuilder();
        text.codePoints().forEach(c -> {
            if (isHidden(c)) {
                out.append(String.format("\\u%04X", c));
            } else {
                out.appendCodePoint(c);
            }
        });
        return out.toString();
    }

    /** Whether the text holds a character {@link #escaped} would escape. */
    public static boolean hasHidden(String text) {
        return text.codePoints().anyMatch(VisibleText::isHidden);
    }

    /**
     * C0 and C1 controls (ESC, CR, LF, TAB included), format characters (bidi overrides and isolates,
     * zero-width spaces and joiners, the byte-order mark), line and paragraph separators and every
     * whitespace but the plain space.
     */
    public static boolean isHidden(int c) {
        int type = Character.getType(c);
        return Character.isISOControl(c)
                || type == Character.FORMAT
                || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR
                || (Character.isWhitespace(c) && c != ' ');
    }
}
