package dev.punctual.cli.verify;

import dev.punctual.observability.Redactor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The stage's recent log lines hold no secret and no personal data of a shape the redactor knows (AWS
 * keys, tokens, bearer credentials, {@code password=...}; e-mail addresses, phone numbers, push tokens,
 * card numbers): a line the redactor would change holds one. The report shows where and the redacted
 * line, never what was found, and says what to do for each kind: a secret is rotated, personal data is
 * removed at its source.
 *
 * @param lines the recent lines read
 * @param window how far back they go
 */
public record LogSecretsCheck(List<StageLogs.Line> lines, Duration window) implements Check {

    /** Wide enough that a long line is scanned whole rather than cut (cutting would read as a change). */
    private static final Redactor REDACTOR = new Redactor(1_000_000);

    private static final int EXCERPT = 160;

    @Override
    public String name() {
        return "log-secrets";
    }

    @Override
    public CheckResult result() {
        String checked = "the stage's log lines of the last " + window.toMinutes() + " min hold no secret or"
                + " personal data of a shape the redactor knows";
        List<String> hits = new ArrayList<>();
        boolean secret = false;
        boolean personal = false;
        for (StageLogs.Line line : lines) {
            String redacted = REDACTOR.text(line.message());
            if (!redacted.equals(line.message())) {
                // A mask the line did not have before says what the redactor found there.
                secret |= more(redacted, line.message(), Redactor.MASK);
                personal |= Redactor.MASKS.stream().skip(1).anyMatch(mask -> more(redacted, line.message(), mask));
                hits.add(line.group() + " at " + line.timestamp() + ": " + excerpt(redacted));
            }
        }
        if (hits.isEmpty()) {
            return CheckResult.pass(
                    name(), checked, lines.size() + " line(s) read, none holds a secret or personal data");
        }
        String what = secret && personal ? "a secret or personal data" : secret ? "a secret" : "personal data";
        String fixIt = "find what wrote the line (a job's own logging bypasses the redactor) and fix it; the log"
                + " group's retention keeps the line until it expires";
        return CheckResult.fail(
                name(),
                checked,
                hits.size() + " line(s) hold " + what + " (shown redacted): "
                        + String.join("; ", hits.subList(0, Math.min(3, hits.size()))),
                (secret ? "treat the secret as leaked: rotate it now, " : "")
                        + (personal ? "personal data reached the logs: " : "")
                        + fixIt
                        + (personal ? " (delete the log stream if the data must go sooner)" : ""));
    }

    private static boolean more(String redacted, String original, String mask) {
        return count(redacted, mask) > count(original, mask);
    }

    private static int count(String text, String mask) {
        int n = 0;
        for (int at = text.indexOf(mask); at >= 0; at = text.indexOf(mask, at + mask.length())) {
            n++;
        }
        return n;
    }

    private static String excerpt(String redacted) {
        int at = Redactor.MASKS.stream()
                .mapToInt(redacted::indexOf)
                .filter(i -> i >= 0)
                .min()
                .orElse(0);
        int from = Math.max(0, at - EXCERPT / 2);
        String part = redacted.substring(from, Math.min(redacted.length(), from + EXCERPT));
        return (from > 0 ? "..." : "") + part.replaceAll("\\s+", " ");
    }
}
