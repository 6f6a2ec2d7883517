package dev.punctual;

/**
 * Whether text is a plain decimal number written with the digits 0-9 only. {@link Character#isDigit}
 * and {@link Integer#parseInt} also take other scripts' digits (Arabic-Indic {@code ٥}, fullwidth
 * {@code ０}), which no schedule, payload or option of Punctual means: a text that looks like a number
 * to one reader and like something else to another is refused, not read.
 */
public final class AsciiDigits {
    private AsciiDigits() {}

    /** One to {@code maxDigits} characters, each 0-9; checked before any parse, so length bounds the work. */
    public static boolean matches(CharSequence text, int maxDigits) {
        if (text == null || text.isEmpty() || text.length() > maxDigits) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }
}
