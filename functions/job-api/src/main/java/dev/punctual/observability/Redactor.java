package dev.punctual.observability;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Removes secret-looking values and personal data from text and structured fields before anything is
 * logged or stored. Every string that reaches a log line, a run item's result or error summary, a
 * lifecycle event or a CLI refusal passes here, so a job that puts a password or a customer's e-mail
 * address into an exception message does not leak it.
 */
public final class Redactor {

    /** What a secret's value is replaced with. */
    public static final String MASK = "[REDACTED]";

    /** What personal data is replaced with: a mask per kind, so a reader still knows what was there. */
    public static final String EMAIL_MASK = PersonalData.EMAIL;

    public static final String PHONE_MASK = PersonalData.PHONE;
    public static final String PUSH_TOKEN_MASK = PersonalData.PUSH_TOKEN;
    public static final String CARD_MASK = PersonalData.CARD;
    public static final String SSN_MASK = PersonalData.SSN;
    public static final String IBAN_MASK = PersonalData.IBAN;

    /** Every mask this redactor writes, the secret's first. */
    public static final List<String> MASKS =
            List.of(MASK, EMAIL_MASK, PHONE_MASK, PUSH_TOKEN_MASK, CARD_MASK, SSN_MASK, IBAN_MASK);

    /**
     * Words that make a field name a secret's name wherever they stand in it ({@code dbPasswords} is
     * masked whatever it holds). The key of a {@code key=value} in free text is read by {@link SecretKeys}.
     */
    private static final String SECRET_WORDS = "password|passwd|pwd|passphrase|secret|token|api[_-]?key|apikey"
            + "|access[_-]?key|authorization|credentials?|private[_-]?key|session[_-]?id|cookie|signature";

    /** Field names whose values are never shown, whatever they contain. */
    private static final Pattern SECRET_NAME = Pattern.compile("(?i).*(" + SECRET_WORDS + ").*");

    /** Secrets recognisable by their shape, wherever they appear in free text. */
    private static final List<Pattern> SECRET_SHAPES = List.of(
            // AWS access key ids: long-term (AKIA), temporary (ASIA) and others of the same form.
            Pattern.compile("\\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\\b"),
            // JSON Web Tokens: three base64url parts, the first starting with {" encoded.
            Pattern.compile("\\beyJ[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]*"),
            // PEM private key blocks, also when cut before their end line.
            Pattern.compile("-----BEGIN [A-Z ]*PRIVATE KEY-----[\\s\\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)"),
            // GitHub tokens (classic ghp/gho/ghu/ghs/ghr, fine-grained github_pat_), GitLab glpat-.
            Pattern.compile("\\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{20,})"),
            // Slack tokens and incoming webhooks.
            Pattern.compile("\\bxox[abposr]-[A-Za-z0-9-]{10,}"),
            Pattern.compile("https://hooks\\.slack\\.com/services/[A-Za-z0-9/]+"),
            // Stripe secret and restricted keys, live and test.
            Pattern.compile("\\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}"),
            // OpenAI and Anthropic style keys.
            Pattern.compile("\\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}"),
            // Google API keys, npm and PyPI tokens, SendGrid keys, Mailgun keys.
            Pattern.compile("\\bAIza[0-9A-Za-z_-]{35}"),
            Pattern.compile("\\bnpm_[A-Za-z0-9]{30,}"),
            Pattern.compile("\\bpypi-[A-Za-z0-9_-]{50,}"),
            Pattern.compile("\\bSG\\.[A-Za-z0-9_-]{16,}\\.[A-Za-z0-9_-]{16,}"),
            Pattern.compile("\\bkey-[0-9a-f]{32}\\b"),
            // Azure storage and Service Bus connection strings.
            Pattern.compile("(?i)(?:AccountKey|SharedAccessKey|SharedAccessSignature)=[^;\\s]+"));

    /**
     * The key of a {@code password=...}, {@code "token": "..."}, {@code AWS_SECRET_ACCESS_KEY=...},
     * {@code secretAccessKey: ...}, {@code Authorization: Bearer ...} in free text, and its separator:
     * a whole run of key characters, of any length, quoted or not, the quotes also escaped at any depth
     * (JSON inside a JSON string: {@code {\"password\":\"x\"}}) or URL-encoded ({@code %22}), then
     * {@code :} or {@code =}, also URL-encoded ({@code password%3Dsecret}). Or a command-line option and
     * a space ({@code --password x}). Whether the key names a secret is {@link SecretKeys}'s call, made
     * before the value is read, so a key that names none costs one pass over itself. A key starts only
     * where a run of key characters starts, so the scan is linear in the text's length.
     */
    private static final Pattern ASSIGNMENT_KEY = Pattern.compile("(?<![A-Za-z0-9_.-])(?:"
            + "(?:\\\\{0,16}[\"']|%(?:25)*22)?(?<key>[A-Za-z0-9_.-]++)(?:\\\\{0,16}[\"']|%(?:25)*22)?"
            + "\\s{0,8}(?<sep>:=?|=>?|%(?:25)*3[ADad])(?:\\s|%(?:25)*20){0,8}"
            + "|(?<option>--?[A-Za-z0-9][A-Za-z0-9_.-]*+)[ \\t]{1,8}(?=[^\\s-]))");

    /**
     * A secret's value, read where its key ends: quoted with escapes (a missing closing quote takes the
     * rest of the line); quoted with escaped quotes, closed by the same number of backslashes it opened
     * with, so a JSON text around it keeps its own quotes; URL-encoded quotes; a scheme and a
     * credential; or up to the next separator, plain or URL-encoded ({@code %26} for {@code &}).
     */
    private static final Pattern VALUE = Pattern.compile(
            "\"(?:[^\"\\\\\\n]|\\\\.)*+(?:\"|$)"
                    + "|(?<bs>\\\\{1,16})\"(?:[^\"\\\\\\n]|\\\\++(?!\")|(?!\\k<bs>\")\\\\++\")*+(?:\\k<bs>\")?"
                    + "|'[^'\\n]*+(?:'|$)"
                    + "|%(?:25)*22(?:(?!%(?:25)*22)[^\\s&\"'])*+(?:%(?:25)*22)?"
                    + "|(?i:bearer|basic|token|digest)\\s+\\S+"
                    + "|(?:[^\\s,;&}\"'%\\\\]|\\\\++(?![\"'])|%(?!(?:25)*(?:2[026Cc]|3[Bb]|7[Dd]|0[AaDd])))++",
            Pattern.MULTILINE);

    /** {@code <password>x</password>}, {@code <ns:ApiKey>x</ns:ApiKey>}: XML, whose key is the element's name. */
    private static final Pattern XML_ELEMENT =
            Pattern.compile("<(?<key>[A-Za-z0-9_.:-]{1,64}+)>[^<\\n]{1,256}+(?=</\\k<key>>)");

    /** A bare count after {@code pass} ({@code pass: 3, skip: 1}) is a tally, not a password. */
    private static final Pattern COUNT = Pattern.compile("\\d{1,9}");

    /**
     * {@code Bearer <token>} and {@code Basic <credentials>} without a header name. A credential has a
     * digit, a capital or a symbol somewhere: "basic authentication failed" is prose.
     */
    private static final Pattern BEARER =
            Pattern.compile("(?i:\\b(bearer|basic))\\s+(?=[a-z]*+[A-Z0-9._~+/=-])[A-Za-z0-9._~+/=-]{8,}");

    /**
     * The password in a URL's user info: {@code postgres://user:pw@host}, {@code redis://:pw@host}, up
     * to the last {@code @} before the host, so a password holding an {@code @} ({@code u:p@ss@h}) is
     * masked whole. Each try reads at most a few hundred characters from a scheme's start, so the scan
     * stays linear.
     */
    private static final Pattern URL_PASSWORD =
            Pattern.compile("(?i)(?<![a-z0-9+.-])([a-z][a-z0-9+.-]{0,30}://[^\\s:/@]{0,256}:)[^\\s/]{1,256}(@)");

    /**
     * A bare AWS secret access key: 40 characters of the base64 alphabet as a run of its own (no
     * base64 character on either side). Only a candidate: {@link #isAwsSecret} decides.
     */
    private static final Pattern AWS_SECRET_CANDIDATE =
            Pattern.compile("(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])");

    /**
     * A MySQL or MariaDB client on a command line ({@code mysql}, {@code /usr/bin/mysqldump},
     * {@code mariadb-dump}), as a word of its own: where {@code -p} is the password's option. Not
     * {@code jdbc:mysql://} nor a {@code mysql:} log prefix.
     */
    private static final Pattern MYSQL_COMMAND = Pattern.compile("(?<![^\\s\"'`(=])(?:[A-Za-z0-9_.-]*+/)*+"
            + "(?:mysql(?:dump|admin|import|check|show|pump|slap|binlog|sh)?|mariadb(?:-?(?:dump|admin|import|check"
            + "|show|slap|binlog))?)(?=[\\s\"'`]|$)");

    /** Where that command's arguments end: a shell's separator or the line's end. */
    private static final Pattern COMMAND_END = Pattern.compile("[;|&\\n)`]");

    /**
     * Its password: glued ({@code -pS3cret}, {@code -p'S3 cret'}) or, as people mistype it, after a
     * space ({@code -p S3cret}; the client would take it for the database, which is masked too).
     */
    private static final Pattern MYSQL_PASSWORD =
            Pattern.compile("(?<=\\s)(-p(?:[ \\t]++(?=[^\\s-]))?)(?:'[^'\\n]*+'?|\"[^\"\\n]*+\"?|[^\\s'\"]++)");

    /** {@code --name=value} or {@code name=value} as one command-line argument: its value may hold spaces. */
    private static final Pattern ARGUMENT = Pattern.compile("(-{0,2}+[A-Za-z0-9_.-]++)=(.*)", Pattern.DOTALL);

    /** Longer text is cut before matching, so no input can make the patterns slow. */
    private static final int SCAN_BEYOND_MAX = 8192;

    private final int maxLength;

    /** @param maxLength longest text kept; longer text is cut and marked, so one error cannot flood a log */
    public Redactor(int maxLength) {
        if (maxLength < 16) {
            throw new IllegalArgumentException("maxLength must be at least 16, was " + maxLength);
        }
        this.maxLength = maxLength;
    }

    public static Redactor standard() {
        return new Redactor(2000);
    }

    /**
     * The text with every secret-looking part replaced by {@value #MASK} and every piece of personal
     * data by the mask of its kind, cut to the maximum length.
     */
    public String text(String text) {
        if (text == null) {
            return null;
        }
        String out =
                text.length() > maxLength + SCAN_BEYOND_MAX ? text.substring(0, maxLength + SCAN_BEYOND_MAX) : text;
        for (Pattern shape : SECRET_SHAPES) {
            out = shape.matcher(out).replaceAll(MASK);
        }
        out = AWS_SECRET_CANDIDATE
                .matcher(out)
                .replaceAll(m -> Matcher.quoteReplacement(isAwsSecret(m.group()) ? MASK : m.group()));
        out = mysqlPasswords(out);
        out = URL_PASSWORD.matcher(out).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + MASK + m.group(2)));
        out = assignments(out);
        out = XML_ELEMENT
                .matcher(out)
                .replaceAll(m -> Matcher.quoteReplacement(
                        SecretKeys.named(m.group("key")) ? "<" + m.group("key") + ">" + MASK : m.group()));
        out = BEARER.matcher(out).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + " " + MASK));
        // After the secrets: a password that looks like an e-mail address is masked as a secret.
        out = PersonalData.mask(out);
        if (out.length() <= maxLength) {
            return out;
        }
        // Never half a surrogate pair: a lone half is not text, and a line would show it as an escape.
        int cut = Character.isHighSurrogate(out.charAt(maxLength - 1)) ? maxLength - 1 : maxLength;
        return out.substring(0, cut) + "…[truncated]";
    }

    /**
     * One command-line argument as it may be shown: a {@code --name=value} (or {@code name=value}) whose
     * name names a secret has its whole value masked, spaces and all, since the argument's bounds are
     * known here and no longer are in free text; any other argument as {@link #text} makes it.
     */
    public String argument(String argument) {
        if (argument == null) {
            return null;
        }
        Matcher assignment = ARGUMENT.matcher(argument);
        if (assignment.matches() && namesASecret(assignment.group(1))) {
            return assignment.group(1) + "=" + MASK;
        }
        return text(argument);
    }

    /**
     * 40 characters with a capital, a small letter and a digit, {@code /} or {@code +}, as AWS issues
     * them (a random key lacks one of these about once in 4,000): a git commit or a SHA-1 in hex has one
     * case only, and a word or a name of 40 letters has no digit.
     */
    private static boolean isAwsSecret(String run) {
        boolean upper = false;
        boolean lower = false;
        boolean other = false;
        for (int i = 0; i < run.length(); i++) {
            char c = run.charAt(i);
            upper |= c >= 'A' && c <= 'Z';
            lower |= c >= 'a' && c <= 'z';
            other |= c >= '0' && c <= '9' || c == '/' || c == '+';
        }
        return upper && lower && other;
    }

    /** The {@code -p} passwords of each MySQL or MariaDB client command in the text, masked. */
    private static String mysqlPasswords(String text) {
        Matcher command = MYSQL_COMMAND.matcher(text);
        Matcher end = COMMAND_END.matcher(text);
        StringBuilder out = new StringBuilder();
        int copied = 0;
        while (command.find(copied)) {
            int stop = end.find(command.end()) ? end.start() : text.length();
            out.append(text, copied, command.end());
            out.append(MYSQL_PASSWORD
                    .matcher(text.substring(command.end(), stop))
                    .replaceAll(m -> Matcher.quoteReplacement(m.group(1) + MASK)));
            copied = stop;
            if (stop == text.length()) {
                break;
            }
        }
        return copied == 0 ? text : out.append(text, copied, text.length()).toString();
    }

    /**
     * The text redacted, cut, and made one line: control characters (a newline could forge a second
     * log line on a terminal or in a plain-text log), format characters (a bidi override such as
     * U+202E reorders what the reader sees; zero-width spaces and joiners, the byte-order mark hide in
     * a name) and halves of a surrogate pair without their other half are written as escapes. For
     * anything that echoes input back: error messages, CLI errors.
     */
    public String line(String text) {
        if (text == null) {
            return null;
        }
        StringBuilder out = new StringBuilder();
        text(text).codePoints().forEach(c -> {
            if (c == '\n') {
                out.append("\\n");
            } else if (c == '\r') {
                out.append("\\r");
            } else if (c == '\t') {
                out.append("\\t");
            } else if (Character.isISOControl(c)
                    || c == 0x2028
                    || c == 0x2029
                    || Character.getType(c) == Character.FORMAT
                    || Character.getType(c) == Character.SURROGATE) {
                // A format character beyond the BMP (U+E0001, a tag) as its pair, as Java writes it.
                for (char half : Character.toChars(c)) {
                    out.append(String.format("\\u%04x", (int) half));
                }
            } else {
                out.appendCodePoint(c);
            }
        });
        return out.toString();
    }

    /** Each value of a key that names a secret, masked; the key and its separator kept. */
    private static String assignments(String text) {
        Matcher key = ASSIGNMENT_KEY.matcher(text);
        Matcher value = VALUE.matcher(text);
        StringBuilder out = new StringBuilder();
        int copied = 0;
        int from = 0;
        while (from < text.length() && key.find(from)) {
            String name = key.group("key") != null ? key.group("key") : key.group("option");
            if (!namesASecret(name) || isArnSegment(text, key)) {
                // Not a secret's key: go on right after it, so a secret's key inside its value is still found.
                from = key.end(key.group("key") != null ? "key" : "option");
                continue;
            }
            value.region(key.end(), text.length());
            if (!value.lookingAt() || isCountAfterPass(name, value.group())) {
                from = key.end();
                continue;
            }
            out.append(text, copied, key.end()).append(MASK);
            copied = endOfValue(text, value.end());
            from = copied;
        }
        return out.isEmpty() ? text : out.append(text, copied, text.length()).toString();
    }

    /** {@code --password=x: not an option}: a colon and a space after a bare value are the message's. */
    private static int endOfValue(String text, int end) {
        boolean colonThenSpace =
                text.charAt(end - 1) == ':' && (end == text.length() || Character.isWhitespace(text.charAt(end)));
        return colonThenSpace && end - 1 > 0 ? end - 1 : end;
    }

    /** {@code pass} is a secret's key only on its own ({@code pass=...}; not {@code bypass}, {@code pass_rate}). */
    private static boolean namesASecret(String key) {
        return SecretKeys.named(key) || isPass(key);
    }

    /** {@code arn:aws:secretsmanager:...:secret:db-AbCdEf}: a colon on both sides names a resource. */
    private static boolean isArnSegment(String text, MatchResult key) {
        return key.start() > 0 && text.charAt(key.start() - 1) == ':' && ":".equals(key.group("sep"));
    }

    private static boolean isCountAfterPass(String key, String value) {
        return isPass(key) && COUNT.matcher(value).matches();
    }

    private static boolean isPass(String key) {
        return key.replaceFirst("^-+", "").equalsIgnoreCase("pass");
    }

    /** Whether a field of this name is masked whatever its value. */
    public boolean isSecretName(String name) {
        return name != null && SECRET_NAME.matcher(name).matches();
    }

    /**
     * A copy of the fields with secret names masked, every string value passed through {@link #text}
     * and a card number given as a number masked too.
     */
    public Map<String, Object> fields(Map<String, ?> fields) {
        Map<String, Object> out = new LinkedHashMap<>();
        fields.forEach((name, value) -> out.put(name, isSecretName(name) ? MASK : value(value)));
        return out;
    }

    private Object value(Object value) {
        if (value instanceof String s) {
            return text(s);
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> nested = new LinkedHashMap<>();
            map.forEach((k, v) -> nested.put(String.valueOf(k), isSecretName(String.valueOf(k)) ? MASK : value(v)));
            return nested;
        }
        if (value instanceof List<?> list) {
            return list.stream().map(this::value).toList();
        }
        if (value instanceof Long || value instanceof java.math.BigInteger) {
            // A card number kept as a number would otherwise be written out whole: only a long holds one.
            return PersonalData.isCard(value.toString()) ? CARD_MASK : value;
        }
        if (value instanceof Number || value instanceof Boolean || value == null) {
            return value;
        }
        return text(String.valueOf(value));
    }
}
