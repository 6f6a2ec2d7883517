package dev.punctual.cli;

import dev.punctual.runtime.InvocationResult;
import dev.punctual.runtime.OccurrenceReport;
import dev.punctual.runtime.ResultJson;
import java.io.PrintWriter;
import java.time.format.DateTimeFormatter;

/** Prints a handler result as one JSON object or as a readable table, and maps it to an exit code. */
final class ResultOutput {

    private ResultOutput() {}

    static int print(InvocationResult result, boolean table, PrintWriter out, PrintWriter err) {
        if (!result.valid()) {
            result.error()
                    .ifPresent(e -> err.println("invalid: " + e.code()
                            + (e.field() == null ? "" : " (" + e.field() + ")") + ": " + e.message()));
            return PunctualCli.INVALID_INPUT;
        }
        out.println(table ? table(result) : ResultJson.render(result));
        result.stoppedBy()
                .ifPresent(reason -> err.println("replay stopped: " + reason + "; " + result.notRun()
                        + " occurrence(s) not run; run the replay again once that is over"));
        return result.anyFailed() || result.stoppedBy().isPresent() ? PunctualCli.FAILURE : 0;
    }

    static String table(InvocationResult r) {
        StringBuilder s = new StringBuilder();
        s.append(String.format("%s %s in %s%n", r.kind(), r.job() == null ? "" : r.job(), r.stage()));
        s.append(String.format(
                "%-24s %-27s %-9s %-7s %-22s %7s %6s  %s%n",
                "OCCURRENCE (UTC)", "LOCAL", "TRIGGER", "OUTCOME", "REASON", "ATTEMPT", "FENCE", "DETAIL"));
        for (OccurrenceReport o : r.occurrences()) {
            s.append(String.format(
                    "%-24s %-27s %-9s %-7s %-22s %7d %6s  %s%n",
                    o.occurrence(),
                    DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(o.local()),
                    o.trigger(),
                    o.verdict(),
                    o.reason(),
                    o.attempt(),
                    o.fence() == null ? "-" : o.fence(),
                    o.detail() == null ? "" : o.detail()));
        }
        r.missed()
                .ifPresent(m -> s.append(
                        String.format("missed: %d occurrence(s) from %s to %s%n", m.count(), m.first(), m.last())));
        if (r.notRun() > 0) {
            s.append(String.format(
                    "not run: %d more occurrence(s) in the range (raise --max or replay again)%n", r.notRun()));
        }
        return s.toString().stripTrailing();
    }
}
