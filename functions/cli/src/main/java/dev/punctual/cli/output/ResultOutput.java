package dev.punctual.cli.output;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.punctual.observability.VisibleText;
import java.io.IOException;
import java.io.PrintWriter;

/**
 * Prints a handler result (the JSON of events/README.md, whether the handler ran in this JVM or in the
 * stage's function) as that JSON or as a readable table, and maps it to an exit code: 0 when it did
 * what was asked, 1 when an occurrence failed or a refusal stopped a replay, 2 when the payload was
 * refused, 3 when a run or replay ran nothing (every occurrence skipped; a dry run excepted).
 */
public final class ResultOutput {

    private ResultOutput() {}

    public static JsonNode parse(String json) {
        try {
            return Json.mapper().readTree(json);
        } catch (IOException e) {
            throw new IllegalStateException("the function's answer is not JSON: " + json, e);
        }
    }

    /** The payload as JSON, or an empty object when it is not JSON (the function then says what is wrong). */
    public static JsonNode parseOrEmpty(String json) {
        try {
            JsonNode node = Json.mapper().readTree(json);
            return node == null ? Json.mapper().createObjectNode() : node;
        } catch (IOException e) {
            return Json.mapper().createObjectNode();
        }
    }

    /**
     * @param command the command's name as the user typed it ({@code punctual run}), for the error line
     */
    public static int print(String json, boolean table, String command, PrintWriter out, PrintWriter err) {
        JsonNode result = parse(json);
        if ("INVALID".equals(result.path("status").asText())) {
            JsonNode e = result.path("error");
            // One format for every refusal: command, field, problem (the handler's code and message), redacted
            // and bounded here too: a function of another version may have echoed the payload as it was.
            String line = RefusalLine.of((text(e, "field") == null ? "payload" : text(e, "field")) + ": "
                    + e.path("code").asText() + ": " + e.path("message").asText());
            err.println(command + ": " + line);
            if (!table) {
                // The error object every refusal prints ({"error": {command, field, problem, accepted,
                // exit_code}}), whichever JVM refused it, with the handler's code and its result beside it.
                ObjectNode report = (ObjectNode) parse(ErrorReport.json(command, line, ExitCodes.INVALID_INPUT));
                ((ObjectNode) report.get("error")).put("code", e.path("code").asText());
                if (result instanceof ObjectNode handled && e instanceof ObjectNode handlerError) {
                    handlerError.put("message", RefusalLine.of(e.path("message").asText()));
                    report.set("result", handled);
                }
                out.println(report);
            }
            return ExitCodes.INVALID_INPUT;
        }
        out.println(table ? table(result) : json.strip());
        String stoppedBy = text(result, "stopped_by");
        if (stoppedBy != null) {
            err.println("replay stopped: " + stoppedBy + "; "
                    + result.path("not_run").asLong()
                    + " occurrence(s) not run; " + afterStop(stoppedBy));
        }
        if (result.path("counts").path("fail").asLong() > 0 || stoppedBy != null) {
            return ExitCodes.FAILURE;
        }
        if (ranNothing(result)) {
            err.println(command + ": ran nothing: " + skipReasons(result) + " (exit " + ExitCodes.RAN_NOTHING + ")");
            return ExitCodes.RAN_NOTHING;
        }
        return 0;
    }

    /**
     * A run, replay or scheduled delivery (not a dry run) in which nothing passed or failed: every
     * occurrence was skipped (maintenance, a busy lock group, already done, ...), so the job did nothing,
     * though nothing went wrong. Scripts tell it from a run that did work by its exit code, the same
     * whether {@code run} sent the payload or {@code invoke} sent one of events/ (a ping runs nothing by
     * design and exits 0).
     */
    static boolean ranNothing(JsonNode result) {
        String kind = result.path("kind").asText();
        if (!kind.equals("run") && !kind.equals("replay") && !kind.equals("scheduled")) {
            return false;
        }
        JsonNode counts = result.path("counts");
        if (counts.path("pass").asLong() > 0 || counts.path("fail").asLong() > 0) {
            return false;
        }
        for (JsonNode o : result.path("occurrences")) {
            if ("DRY_RUN".equals(o.path("reason").asText())) {
                return false; // a dry run is asked to run nothing
            }
        }
        return true;
    }

    private static String skipReasons(JsonNode result) {
        java.util.Set<String> reasons = new java.util.TreeSet<>();
        for (JsonNode o : result.path("occurrences")) {
            reasons.add(o.path("outcome").asText() + " " + o.path("reason").asText());
        }
        return reasons.isEmpty() ? "no occurrence in the range" : String.join(", ", reasons);
    }

    /** What to do about the refusal that stopped a replay: replaying again helps only when it ends by itself. */
    static String afterStop(String reason) {
        return switch (reason) {
            case "MAINTENANCE" -> "maintenance holds the stage (status shows the hold); replay again once it is over";
            case "LOCK_BUSY" -> "another run of the job's lock group holds its lease; replay again once it is done";
            case "REFUSED" ->
                "this stage refuses destructive jobs, so replaying here cannot run them (docs/runbook.md)";
            case "DISABLED" -> "the stage's schedules are switched off; replay again once they are on (docs/deploy.md)";
            default -> "status says why; replay again once that is over";
        };
    }

    static String table(JsonNode r) {
        StringBuilder s = new StringBuilder();
        s.append(String.format(
                "%s %s in %s%n",
                r.path("kind").asText(),
                orEmpty(text(r, "job")),
                r.path("stage").asText()));
        if (r.path("occurrences").isEmpty()
                && !r.path("missed").isObject()
                && r.path("not_run").asLong() == 0) {
            // A ping (or a range with nothing in it) has no rows: say so instead of an empty table's header.
            return s.append(
                            "ping".equals(r.path("kind").asText())
                                    ? "the function answered; a ping runs no job"
                                    : "no occurrence to run")
                    .toString();
        }
        s.append(String.format(
                "%-24s %-27s %-9s %-7s %-22s %7s %6s  %s%n",
                "OCCURRENCE (UTC)", "LOCAL", "TRIGGER", "OUTCOME", "REASON", "ATTEMPT", "FENCE", "DETAIL"));
        for (JsonNode o : r.path("occurrences")) {
            s.append(String.format(
                    "%-24s %-27s %-9s %-7s %-22s %7d %6s  %s%n",
                    o.path("occurrence").asText(),
                    o.path("local").asText(),
                    o.path("trigger").asText(),
                    o.path("outcome").asText(),
                    o.path("reason").asText(),
                    o.path("attempt").asInt(),
                    text(o, "fence") == null ? "-" : text(o, "fence"),
                    // A function deployed before its details were escaped may still send a newline.
                    orEmpty(VisibleText.escaped(detail(o)))));
        }
        JsonNode missed = r.path("missed");
        if (missed.isObject()) {
            s.append(String.format(
                    "missed: %d occurrence(s) from %s to %s%n",
                    missed.path("count").asLong(),
                    missed.path("first").asText(),
                    missed.path("last").asText()));
        }
        if (r.path("not_run").asLong() > 0) {
            // Raising --max helps a replay that reached it, never one a refusal stopped.
            s.append(String.format(
                    "not run: %d more occurrence(s) in the range%s%n",
                    r.path("not_run").asLong(),
                    text(r, "stopped_by") == null ? " (raise --max or replay again)" : " (the replay was stopped)"));
        }
        return s.toString().stripTrailing();
    }

    /**
     * The row's DETAIL: the explaining text, or a pass's result object on one line. A function deployed
     * before results were objects sends its summary as the detail text, shown as it came.
     */
    private static String detail(JsonNode occurrence) {
        String detail = text(occurrence, "detail");
        JsonNode result = occurrence.path("result");
        return detail == null && result.isObject() && !result.isEmpty() ? result.toString() : detail;
    }

    /** A field's text, or null when it is absent or JSON null. */
    public static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }

    private static String orEmpty(String text) {
        return text == null ? "" : text;
    }
}
