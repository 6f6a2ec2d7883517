package dev.punctual.observability;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Removes secret-looking values from text and structured fields before anything is logged or stored.
 * Every string that reaches a log line, a run item's error summary or a lifecycle event passes here,
 * so a job that puts a password into an exception message does not leak it.
 */
public final class Redactor {

    public static final String MASK = "[REDACTED]";

    /** Words that make a field name, or the key of a {@code key=value} in free text, a secret's name. */
    private static final String SECRET_WORDS = "password|passwd|passphrase|secret|token|api[_-]?key|apikey"
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
     * {@code password=...}, {@code "token": "..."}, {@code AWS_SECRET_ACCESS_KEY=...},
     * {@code secretAccessKey: ...}, {@code Authorization: Bearer ...} in free text: a key that ends in a
     * secret word (optionally followed by {@code _key}, {@code _id} or {@code _value}; or is exactly
     * {@code pass}), then the value: quoted with escapes (a missing closing quote takes the rest of the
     * line), a scheme and a credential, or up to the next separator. A key ending elsewhere
     * ({@code secretsmanager:}, {@code max_tokens=}) is ordinary text. A key starts only where a run of
     * key characters starts, and its prefix is bounded, so the match is linear in the text's length. A
     * segment of an ARN ({@code :secret:db-AbCdEf}) names a resource and is kept.
     */
    private static final Pattern SECRET_ASSIGNMENT = Pattern.compile(
            "(?i)(?<key>(?<![A-Za-z0-9_.-])\"?(?:[A-Za-z0-9_.-]{0,40}?(?:" + SECRET_WORDS
                    + ")(?:[_-]?(?:key|id|value))?|(?<pass>pass))\"?\\s{0,8}[:=]\\s{0,8})"
                    + "(?<value>\"(?:[^\"\\\\\\n]|\\\\.)*+(?:\"|$)|'[^'\\n]*+(?:'|$)"
                    + "|(?:bearer|basic|token|digest)\\s+\\S+|[^\\s,;&}\"']+)",
            Pattern.MULTILINE);

    /** A bare count after {@code pass} ({@code pass: 3, skip: 1}) is a tally, not a password. */
    private static final Pattern COUNT = Pattern.compile("\\d{1,9}");

    private static final Pattern BEARER = Pattern.compile("(?i)\\b(bearer|basic)\\s+[A-Za-z0-9._~+/=-]{8,}");

    /** The password in a URL's user info: {@code postgres://user:pw@host}. */
    private static final Pattern URL_PASSWORD =
            Pattern.compile("(?i)(?<![a-z0-9+.-])([a-z][a-z0-9+.-]{0,30}://[^\\s:/@]{1,256}:)[^\\s@/]{1,256}(@)");

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

    /** The text with every secret-looking part replaced by {@value #MASK}, cut to the maximum length. */
    public String text(String text) {
        if (text == null) {
            return null;
        }
        String out =
                text.length() > maxLength + SCAN_BEYOND_MAX ? text.substring(0, maxLength + SCAN_BEYOND_MAX) : text;
        for (Pattern shape : SECRET_SHAPES) {
            out = shape.matcher(out).replaceAll(MASK);
        }
        out = URL_PASSWORD.matcher(out).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + MASK + m.group(2)));
        String scanned = out;
        out = SECRET_ASSIGNMENT
                .matcher(out)
                .replaceAll(m -> Matcher.quoteReplacement(
                        isCountAfterPass(m) || isArnSegment(scanned, m) ? m.group() : m.group("key") + MASK));
        out = BEARER.matcher(out).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + " " + MASK));
        return out.length() <= maxLength ? out : out.substring(0, maxLength) + "…[truncated]";
    }

    /**
     * The text redacted, cut, and made one line: control characters (a newline could forge a second
     * log line on a terminal or in a plain-text log) are written as escapes. For anything that echoes
     * input back: error messages, CLI errors.
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
            } else if (Character.isISOControl(c) || c == 0x2028 || c == 0x2029) {
                out.append(String.format("\\u%04x", c));
            } else {
                out.appendCodePoint(c);
            }
        });
        return out.toString();
    }

    /** {@code arn:aws:secretsmanager:...:secret:db-AbCdEf}: a colon on both sides names a resource. */
    private static boolean isArnSegment(String text, MatchResult m) {
        return m.start() > 0
                && text.charAt(m.start() - 1) == ':'
                && m.group("key").strip().endsWith(":");
    }

    private static boolean isCountAfterPass(MatchResult m) {
        return m.group("pass") != null && COUNT.matcher(m.group("value")).matches();
    }

    /** Whether a field of this name is masked whatever its value. */
    public boolean isSecretName(String name) {
        return name != null && SECRET_NAME.matcher(name).matches();
    }

    /** A copy of the fields with secret names masked and every string value passed through {@link #text}. */
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
        if (value instanceof Number || value instanceof Boolean || value == null) {
            return value;
        }
        return text(String.valueOf(value));
    }
}
