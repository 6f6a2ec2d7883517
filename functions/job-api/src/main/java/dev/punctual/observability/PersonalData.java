package dev.punctual.observability;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Personal data recognisable by its shape in free text: e-mail addresses, phone numbers, device push
 * tokens, payment card numbers, US social security numbers and international bank account numbers. Each is replaced by a mask that says what was there, so a reader
 * still sees that a job was talking about a recipient. The shapes are narrow on purpose: timestamps,
 * epoch millis, fences, durations, versions, UUIDs, ARNs, IP addresses and dates, which fill every
 * outcome line, must come out unchanged. Every pattern starts only where a run of its characters
 * starts and takes that run without backtracking into it, so matching stays linear in the text.
 */
final class PersonalData {

    static final String EMAIL = "[email]";
    static final String PHONE = "[phone]";
    static final String PUSH_TOKEN = "[push-token]";
    static final String CARD = "[card]";
    static final String SSN = "[ssn]";
    static final String IBAN = "[iban]";

    /**
     * {@code bob.smith+tag@mail.example.co.kr}. Not a URL's user ({@code postgres://app@db.internal}):
     * its password, if any, is already masked, and the host is what an operator needs.
     */
    private static final Pattern EMAIL_ADDRESS = Pattern.compile(
            "(?<![A-Za-z0-9._%+-]|//)[A-Za-z0-9._%+-]++@(?:[A-Za-z0-9-]++\\.)+[A-Za-z]{2,24}(?![A-Za-z0-9-])");

    /**
     * FCM registration tokens ({@code <instance id>:APA91b...}, or the bare legacy {@code APA91b...}) and
     * APNs device tokens: 64 hex digits, or the same as eight spaced groups in angle brackets. A 64-hex
     * run right after {@code :} or {@code /} is a digest inside an ARN, a path or {@code sha256:}
     * (Lambda's own INIT_START line names its runtime that way) and is kept.
     */
    private static final Pattern PUSH_TOKENS = Pattern.compile("(?<![A-Za-z0-9_-])(?:[A-Za-z0-9_-]++:)?APA91b"
            + "[A-Za-z0-9_-]{20,}+|(?<![A-Za-z0-9:/])[0-9a-fA-F]{64}(?![A-Za-z0-9])"
            + "|<(?:[0-9a-fA-F]{8} ){7}[0-9a-fA-F]{8}>");

    /**
     * 13 to 19 digits, in one run or in up to six groups of 3 to 6 split by single spaces or dashes, as
     * cards are printed. Only a candidate: {@link #isCard} decides.
     */
    private static final Pattern CARD_CANDIDATE =
            Pattern.compile("(?<![\\w.+-])(?:\\d{13,19}|\\d{3,6}+(?:[ -]\\d{3,6}+){1,5}+)(?![\\w])");

    /** What card networks issue: a prefix and the lengths it comes in (ISO/IEC 7812 ranges). */
    private record Issuer(Pattern prefix, int min, int max) {
        Issuer(String prefix, int min, int max) {
            this(Pattern.compile(prefix), min, max);
        }
    }

    private static final List<Issuer> ISSUERS = List.of(
            new Issuer("4", 13, 13), // Visa
            new Issuer("4", 16, 16),
            new Issuer("4", 19, 19),
            new Issuer("5[1-5]|222[1-9]|22[3-9]\\d|2[3-6]\\d\\d|27[01]\\d|2720", 16, 16), // Mastercard
            new Issuer("3[47]", 15, 15), // American Express
            new Issuer("30[0-5]|3[689]", 14, 19), // Diners Club
            new Issuer("35(?:2[89]|[3-8]\\d)", 16, 19), // JCB
            new Issuer("6011|64[4-9]|65|62", 16, 19), // Discover, UnionPay
            new Issuer("50|5[6-9]|6", 13, 19)); // Maestro

    /**
     * International numbers: {@code +} and the country code, then groups split by a space, dot or dash,
     * an area code in brackets allowed ({@code +82 10-1234-5678}, {@code +1 (415) 555-0100},
     * {@code +14155550100}). {@link #isPhone} counts the digits. An instant with an expanded year
     * ({@code +1000000000-12-31T14:00:00Z}) runs on into a letter and is not one; a zone offset
     * ({@code +09:00}) follows a digit and has too few digits.
     */
    private static final Pattern INTERNATIONAL_PHONE =
            Pattern.compile("(?<![\\w+])\\+\\d++(?:[ .-]?\\(\\d{1,4}+\\))?(?:[ .-]?\\d++){0,8}+(?![\\w])");

    /**
     * National numbers in the groupings people write: a trunk 0 ({@code 010-1234-5678},
     * {@code 020 7946 0958}), an area code in brackets ({@code (415) 555-0100}), or North American
     * 3-3-4 with dashes or dots ({@code 415-555-0100}). A date (4-2-2), an IP address (no 4-digit
     * group) or a UUID (hex, other groupings) never has these shapes.
     */
    private static final Pattern NATIONAL_PHONE = Pattern.compile("(?<![\\w.+-])(?:0\\d{1,4}[ .-]\\d{3,4}[ .-]"
            + "|\\(\\d{2,4}\\) ?\\d{3,4}[ .-]|[2-9]\\d{2}-\\d{3}-|[2-9]\\d{2}\\.\\d{3}\\.)\\d{4}(?![\\w]|[.-]\\d)");

    /**
     * A US social security number as it is written, 3-2-4 digits with dashes ({@code 123-45-6789}).
     * Only a candidate: {@link #isSsn} decides. Nine digits in one run are too common to be read as one.
     */
    private static final Pattern SSN_CANDIDATE =
            Pattern.compile("(?<![\\w.+-])(\\d{3})-(\\d{2})-(\\d{4})(?![\\w]|[.-]\\d)");

    /**
     * An IBAN: a country code, two check digits and the account (BBAN), in one run
     * ({@code NL91ABNA0417164300}) or in groups of four split by single spaces, as it is printed
     * ({@code DE89 3704 0044 0532 0130 00}). Only a candidate: {@link #isIban} decides. The groups may
     * give back a word of four capitals that follows ({@code BE68 5390 0754 7034 FAIL}); at most seven,
     * so a try is a few steps whatever the text.
     */
    private static final Pattern IBAN_CANDIDATE = Pattern.compile("(?<![A-Za-z0-9])[A-Z]{2}\\d{2}"
            + "(?:[A-Z0-9]{11,30}+|(?: [A-Z0-9]{4}){2,7}(?: [A-Z0-9]{1,3})?)(?![A-Za-z0-9])");

    /** The length of an IBAN in each country that issues them (the IBAN registry, ISO 13616). */
    private static final Map<String, Integer> IBAN_LENGTHS = ibanLengths("AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22"
            + " BH22 BR29 BY28 CH21 CR22 CY28 CZ24 DE22 DK18 DO28 EE20 EG29 ES24 FI18 FO18 FR27 GB22 GE22 GI23 GL18"
            + " GR27 GT28 HR21 HU28 IE22 IL23 IQ23 IS26 IT27 JO30 KW30 KZ20 LB28 LC32 LI21 LT20 LU20 LV21 MC27 MD24"
            + " ME22 MK19 MR27 MT31 MU30 NL18 NO15 PK24 PL28 PS29 PT25 QA29 RO24 RS22 SA24 SC31 SE24 SI19 SK24 SM27"
            + " ST25 SV28 TL23 TN24 TR26 UA29 VA22 VG24 XK20");

    private PersonalData() {}

    private static Map<String, Integer> ibanLengths(String table) {
        Map<String, Integer> lengths = new HashMap<>();
        for (String entry : table.split(" ")) {
            lengths.put(entry.substring(0, 2), Integer.parseInt(entry.substring(2)));
        }
        return Map.copyOf(lengths);
    }

    /** The text with every personal-data shape replaced by its mask. */
    static String mask(String text) {
        String out = PUSH_TOKENS.matcher(text).replaceAll(PUSH_TOKEN);
        out = EMAIL_ADDRESS.matcher(out).replaceAll(Matcher.quoteReplacement(EMAIL));
        // Before cards and phones: an IBAN's groups of four digits could read as either.
        out = IBAN_CANDIDATE
                .matcher(out)
                .replaceAll(m -> Matcher.quoteReplacement(maskLeading(m.group(), PersonalData::isIban, IBAN)));
        out = SSN_CANDIDATE.matcher(out).replaceAll(m -> Matcher.quoteReplacement(isSsn(m) ? SSN : m.group()));
        out = CARD_CANDIDATE
                .matcher(out)
                .replaceAll(m -> Matcher.quoteReplacement(maskLeading(m.group(), PersonalData::isCard, CARD)));
        out = INTERNATIONAL_PHONE
                .matcher(out)
                .replaceAll(m -> Matcher.quoteReplacement(maskLeading(m.group(), PersonalData::isPhone, PHONE)));
        return NATIONAL_PHONE.matcher(out).replaceAll(Matcher.quoteReplacement(PHONE));
    }

    /**
     * The candidate masked whole, or else its longest leading groups that are what is looked for: a
     * card and then its security code ({@code 4111 1111 1111 1111 123}), a phone number and then a
     * count. A candidate has a few groups at most, so this is a few tries.
     */
    private static String maskLeading(String candidate, Predicate<String> is, String mask) {
        for (int end = candidate.length(); end > 0; end = lastSeparator(candidate, end)) {
            if (is.test(candidate.substring(0, end))) {
                return mask + candidate.substring(end);
            }
        }
        return candidate;
    }

    private static int lastSeparator(String candidate, int before) {
        for (int i = before - 1; i > 0; i--) {
            char c = candidate.charAt(i);
            if (c == ' ' || c == '-' || c == '.') {
                return i;
            }
        }
        return -1;
    }

    /**
     * Whether the digits, grouped or not, are a card number: a length and prefix a card network issues, and a valid
     * Luhn check digit. The prefix rules out epoch millis and nanos (they start with 1) and compact
     * dates; the check digit rules out nine in ten other numbers of card length.
     */
    static boolean isCard(String candidate) {
        String digits = candidate.replaceAll("[ -]", "");
        int n = digits.length();
        if (n < 13 || n > 19 || !digits.chars().allMatch(Character::isDigit)) {
            return false;
        }
        boolean issued = ISSUERS.stream()
                .anyMatch(i -> n >= i.min()
                        && n <= i.max()
                        && i.prefix().matcher(digits).lookingAt());
        return issued && luhn(digits);
    }

    private static boolean luhn(String digits) {
        int sum = 0;
        for (int i = 0; i < digits.length(); i++) {
            int d = digits.charAt(digits.length() - 1 - i) - '0';
            if (i % 2 == 1) {
                d = d * 2 > 9 ? d * 2 - 9 : d * 2;
            }
            sum += d;
        }
        return sum % 10 == 0;
    }

    /**
     * Whether the groups are a social security number the SSA could have issued: no area 000, 666 or
     * 900-999 (those are ITINs or never issued), no group 00, no serial 0000. A range or a code that
     * merely has the shape, such as {@code 000-12-3456}, is kept.
     */
    private static boolean isSsn(MatchResult ssn) {
        int area = Integer.parseInt(ssn.group(1));
        return area != 0
                && area != 666
                && area < 900
                && !ssn.group(2).equals("00")
                && !ssn.group(3).equals("0000");
    }

    /**
     * Whether the text, spaces aside, is an IBAN: a country that issues them, that country's length,
     * and the ISO 7064 mod-97 check (the country code and check digits moved to the end, letters as 10
     * to 35, the number's remainder by 97 is 1), which one random code in 97 passes.
     */
    static boolean isIban(String candidate) {
        String iban = candidate.replace(" ", "");
        Integer length = IBAN_LENGTHS.get(iban.substring(0, Math.min(2, iban.length())));
        if (length == null || iban.length() != length) {
            return false;
        }
        String rearranged = iban.substring(4) + iban.substring(0, 4);
        int remainder = 0;
        for (int i = 0; i < rearranged.length(); i++) {
            int value = Character.digit(rearranged.charAt(i), 36);
            remainder = (value < 10 ? remainder * 10 : remainder * 100) + value;
            remainder %= 97;
        }
        return remainder == 1;
    }

    /**
     * E.164 allows up to 15 digits; fewer than 8 is a short code or a plain signed number. Written
     * without separators it must have 10, so that a signed count like {@code +129602} is not a phone.
     */
    private static boolean isPhone(String candidate) {
        long digits = candidate.chars().filter(Character::isDigit).count();
        boolean grouped = candidate.chars().anyMatch(c -> c == ' ' || c == '.' || c == '-' || c == '(');
        return digits <= 15 && digits >= (grouped ? 8 : 10);
    }
}
