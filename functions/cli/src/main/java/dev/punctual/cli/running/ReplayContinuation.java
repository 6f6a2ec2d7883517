package dev.punctual.cli.running;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.punctual.cli.output.ResultOutput;
import dev.punctual.outcome.Reason;
import dev.punctual.time.OccurrenceCalculator;
import dev.punctual.time.Schedule;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.Optional;

/**
 * Where an unfinished replay goes on: the first occurrence it did not get to (out of time, behind a
 * failure, stopped by a refusal) or that failed, or, when {@code --max} ended it, the occurrence after the
 * last one reported. Added to the
 * result as {@code next_from} and said on stderr, so "replay again" is one copy and paste.
 */
final class ReplayContinuation {

    private ReplayContinuation() {}

    /**
     * @param subject what the line on stderr names: the job, or an entity's JOB:ENTITY
     * @param schedule whose occurrences the replay ran: the job's, or its entity's own
     */
    static String withNextFrom(String json, String subject, Schedule schedule, PrintWriter err) {
        JsonNode result = ResultOutput.parse(json);
        if (!"OK".equals(result.path("status").asText())) {
            return json;
        }
        Optional<Instant> next = nextFrom(result, schedule);
        ObjectNode out = (ObjectNode) result;
        out.put("next_from", next.map(Instant::toString).orElse(null));
        next.ifPresent(n -> err.println("replay " + subject + ": not finished, "
                + result.path("not_run").asLong() + " occurrence(s) left; continue with --from " + n));
        return out.toString();
    }

    /** A failure a replay tries again (the job's error, a fenced or ended lease): the next --from starts there. */
    private static boolean retried(String reason) {
        for (Reason r : Reason.values()) {
            if (r.wire().equals(reason)) {
                return r.retried();
            }
        }
        return false;
    }

    static Optional<Instant> nextFrom(JsonNode result, Schedule schedule) {
        if (result.path("not_run").asLong() == 0) {
            return Optional.empty();
        }
        String stoppedBy = ResultOutput.text(result, "stopped_by");
        Instant last = null;
        for (JsonNode o : result.path("occurrences")) {
            String reason = o.path("reason").asText();
            if (Reason.DEADLINE.wire().equals(reason)
                    || Reason.EARLIER_FAILED.wire().equals(reason)
                    || retried(reason)
                    || reason.equals(stoppedBy)) {
                return Optional.of(Instant.parse(o.path("occurrence").asText()));
            }
            last = Instant.parse(o.path("occurrence").asText());
        }
        return last == null
                ? Optional.empty()
                : OccurrenceCalculator.of(schedule).next(last);
    }
}
