package dev.punctual.cli.verify;

import dev.punctual.observability.Redactor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The stage's recent log lines hold no secret of a shape the redactor knows (AWS keys, tokens, bearer
 * credentials, {@code password=...}): a line the redactor would change holds one. The report shows
 * where and the redacted line, never the secret.
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
        String checked = "the stage's log lines of the last " + window.toMinutes() + " min hold no secret shape the"
                + " redactor knows";
        List<String> hits = new ArrayList<>();
        for (StageLogs.Line line : lines) {
            String redacted = REDACTOR.text(line.message());
            if (!redacted.equals(line.message())) {
                hits.add(line.group() + " at " + line.timestamp() + ": " + excerpt(redacted));
            }
        }
        if (hits.isEmpty()) {
            return CheckResult.pass(name(), checked, lines.size() + " line(s) read, none holds a secret");
        }
        return CheckResult.fail(
                name(),
                checked,
                hits.size() + " line(s) hold a secret (shown redacted): "
                        + String.join("; ", hits.subList(0, Math.min(3, hits.size()))),
                "treat the secret as leaked: rotate it now, find what wrote the line (a job's own logging bypasses the"
                        + " redactor) and fix it; the log group's retention keeps the line until it expires");
    }

    private static String excerpt(String redacted) {
        int at = redacted.indexOf(Redactor.MASK);
        int from = Math.max(0, at - EXCERPT / 2);
        String part = redacted.substring(from, Math.min(redacted.length(), from + EXCERPT));
        return (from > 0 ? "..." : "") + part.replaceAll("\\s+", " ");
    }
}
