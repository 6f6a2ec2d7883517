package dev.punctual.cli.reading;

import dev.punctual.cli.control.PauseCommand;
import dev.punctual.job.JobDefinition;
import dev.punctual.ledger.PauseMark;
import dev.punctual.observability.VisibleText;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Which operator's pause (decision 0040) stops a job now, as {@code status} and {@code jobs} show it: the
 * one on the entity's item, else the job's own, else its lock group's (a paused group pauses every member).
 */
final class Pauses {

    private Pauses() {}

    /** The lock items whose pause stops the job (or its entity {@code ledgerId}), nearest first. */
    static List<String> lockIds(JobDefinition job, String ledgerId) {
        return List.copyOf(new LinkedHashSet<>(List.of(ledgerId, job.id(), job.lockGroup())));
    }

    /**
     * The pause that holds at {@code now} on the nearest of {@link #lockIds}, as {@code pause} prints it
     * (who, why, since, until, then) with its {@code scope}: {@code entity}, {@code job} or {@code group};
     * null when none holds. Who and why are escaped ({@link VisibleText}), in JSON too, as a skip's and a
     * hold's are in {@code status}: they were redacted when written, but the item can be written by anyone
     * the operator policy lets update it, so a control character stored there never reaches a terminal.
     *
     * @param marks the mark on a lock item by its id, null for none
     */
    static Map<String, Object> holding(
            Function<String, PauseMark> marks, JobDefinition job, String ledgerId, Instant now) {
        for (String id : lockIds(job, ledgerId)) {
            PauseMark mark = marks.apply(id);
            if (mark != null && mark.holdsAt(now)) {
                Map<String, Object> shown = PauseCommand.described(id, mark);
                shown.computeIfPresent("paused_by", (k, v) -> VisibleText.escaped((String) v));
                shown.computeIfPresent("reason", (k, v) -> VisibleText.escaped((String) v));
                shown.put("scope", id.equals(job.id()) ? "job" : id.equals(ledgerId) ? "entity" : "group");
                return shown;
            }
        }
        return null;
    }
}
