package dev.punctual.observability;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Removes secret-looking values from text and structured fields before anything is logged or stored.
 * Every string that reaches a log line, a run item's error summary or a lifecycle event passes here,
 * so a job that puts a password into an exception message does not leak it.
 */
public final class Redactor {

    public static final String MASK = "[REDACTED]";

    /** Field names whose values are never shown, whatever they contain. */
    private static final Pattern SECRET_NAME = Pattern.compile(
            "(?i).*(password|passwd|pwd|secret|token|api[_-]?key|apikey|authorization|credential|private[_-]?key"
                    + "|session[_-]?id|cookie|signature).*");

    /** Secrets recognisable by their shape, wherever they appear in free text. */
    private static final List<Pattern> SECRET_SHAPES = List.of(
            // AWS access key ids: long-term (AKIA) and temporary (ASIA).
            Pattern.compile("\\b(?:AKIA|ASIA)[A-Z0-9]{16}\\b"),
            // JSON Web Tokens: three base64url parts, the first starting with {" encoded.
            Pattern.compile("\\beyJ[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]*"),
            // PEM private key blocks.
            Pattern.compile("-----BEGIN [A-Z ]*PRIVATE KEY-----[\\s\\S]*?-----END [A-Z ]*PRIVATE KEY-----"));

    /** {@code password=...}, {@code "token": "..."}, {@code Authorization: Bearer ...} in free text. */
    private static final Pattern SECRET_ASSIGNMENT = Pattern.compile(
            "(?i)(\"?(?:password|passwd|pwd|secret|token|api[_-]?key|apikey|authorization|credential|private[_-]?key"
                    + "|session[_-]?id|cookie)\"?\\s*[:=]\\s*)(\"[^\"]*\"|'[^']*'|(?:bearer|basic)\\s+\\S+|[^\\s,;&}\"]+)");

    private static final Pattern BEARER = Pattern.compile("(?i)\\b(bearer|basic)\\s+[A-Za-z0-9._~+/=-]{8,}");

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
        String out = text;
        for (Pattern shape : SECRET_SHAPES) {
            out = shape.matcher(out).replaceAll(MASK);
        }
        Matcher assignment = SECRET_ASSIGNMENT.matcher(out);
        out = assignment.replaceAll(m -> Matcher.quoteReplacement(m.group(1) + MASK));
        out = BEARER.matcher(out).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + " " + MASK));
        return out.length() <= maxLength ? out : out.substring(0, maxLength) + "…[truncated]";
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
