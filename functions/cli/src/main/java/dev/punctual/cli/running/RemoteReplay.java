package dev.punctual.cli.running;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.punctual.cli.output.Json;
import dev.punctual.cli.output.ResultOutput;
import dev.punctual.cli.schedules.EntityDelivery;
import dev.punctual.cli.stage.RemoteInvocation;
import dev.punctual.job.JobDefinition;
import dev.punctual.outcome.Reason;
import dev.punctual.time.OccurrenceCalculator;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A replay in the stage's function, as many invocations as its time budget needs. Each invocation runs
 * occurrences oldest first until its deadline and reports the rest as {@code SKIP DEADLINE}; the next one
 * starts at the first of those. Progress {@code n/total} goes to stderr after each invocation. It stops
 * when the range (or {@code --max}) is done, when an invocation ran nothing (the budget is too short for
 * one occurrence), or when one stopped for another reason (a failure, a refusal).
 */
final class RemoteReplay {

    /**
     * @param json the merged result: every invocation's occurrences, counts over them, the last one's rest
     * @param failure the answer of a function that threw, if one did (then {@code json} is empty)
     */
    record Outcome(String json, Optional<RemoteInvocation.Answer> failure) {}

    private final RemoteInvocation invocation;
    private final String pool;
    private final JobDefinition job;
    private final Optional<EntityDelivery> entity;
    private final int max;
    private final boolean dryRun;
    private final boolean force;
    private final boolean verbose;
    private final PrintWriter err;

    RemoteReplay(
            RemoteInvocation invocation,
            String pool,
            JobDefinition job,
            Optional<EntityDelivery> entity,
            int max,
            boolean dryRun,
            boolean force,
            boolean verbose,
            PrintWriter err) {
        this.invocation = invocation;
        this.pool = pool;
        this.job = job;
        this.entity = entity;
        this.max = max;
        this.dryRun = dryRun;
        this.force = force;
        this.verbose = verbose;
        this.err = err;
    }

    Outcome run(Instant from, Instant to) {
        // Occurrences already done are reported but not counted in --max (the runtime's rule too).
        long total = occurrencesIn(from, to);
        List<JsonNode> done = new ArrayList<>();
        long ran = 0;
        Instant next = from;
        int invocations = 0;
        while (true) {
            invocations++;
            RemoteInvocation.Answer answer =
                    invocation.invoke(pool, payload(next, to, (int) Math.max(1, max - ran)), verbose);
            if (answer.functionError().isPresent()) {
                return new Outcome("", Optional.of(answer));
            }
            if (verbose) {
                answer.logTail().forEach(err::println);
            }
            JsonNode result = ResultOutput.parse(answer.body());
            if ("INVALID".equals(result.path("status").asText())) {
                return new Outcome(answer.body(), Optional.empty());
            }
            List<JsonNode> reported = new ArrayList<>();
            List<JsonNode> outOfTime = new ArrayList<>();
            for (JsonNode o : result.path("occurrences")) {
                (Reason.DEADLINE.wire().equals(o.path("reason").asText()) ? outOfTime : reported).add(o);
            }
            done.addAll(reported);
            ran += reported.stream()
                    // An occurrence the replay found done is reported, not counted in --max.
                    .filter(o ->
                            !Reason.ALREADY_DONE.wire().equals(o.path("reason").asText()))
                    .count();
            err.println("replay " + entity.map(EntityDelivery::ledgerId).orElse(job.id()) + ": " + done.size() + "/"
                    + total + " (invocation " + invocations + ")");
            boolean more = !outOfTime.isEmpty() && !reported.isEmpty() && ran < max && !dryRun;
            if (!more) {
                done.addAll(outOfTime);
                return new Outcome(merged(result, done), Optional.empty());
            }
            next = Instant.parse(outOfTime.get(0).path("occurrence").asText());
        }
    }

    /** Occurrences of the job (of its entity's own schedule, for an entity) in {@code [from, to)}. */
    long occurrencesIn(Instant from, Instant to) {
        if (!from.isBefore(to)) {
            return 0;
        }
        OccurrenceCalculator calculator = OccurrenceCalculator.of(
                entity.map(EntityDelivery::occurrences).orElse(job.schedule()), job.exclusions());
        return (calculator.isOccurrence(from) ? 1 : 0) + calculator.count(from, to);
    }

    private String payload(Instant from, Instant to, int limit) {
        ObjectNode p = Json.mapper().createObjectNode();
        p.put("kind", "replay");
        p.put("job", job.id());
        // An entity's fields as its live delivery carries them, so the function checks them the same way.
        entity.ifPresent(e ->
                e.fields().forEach((field, value) -> p.set(field, Json.mapper().valueToTree(value))));
        p.put("from", from.toString());
        p.put("to", to.toString());
        p.put("max", Math.min(limit, 1000));
        // Only when set: a function older than the field's rename reads a replay without it.
        if (dryRun) {
            p.put(dev.punctual.runtime.ScheduledPayload.DRY_RUN, true);
        }
        // Waives the job's start deadline (decision 0032); only when set, like dry_run.
        if (force) {
            p.put(dev.punctual.runtime.ScheduledPayload.FORCE, true);
        }
        return p.toString();
    }

    /** The last invocation's result with every invocation's occurrences and counts over them all. */
    private static String merged(JsonNode last, List<JsonNode> occurrences) {
        ObjectNode result = last.deepCopy();
        ArrayNode all = result.putArray("occurrences");
        occurrences.forEach(all::add);
        ObjectNode counts = (ObjectNode) result.path("counts");
        Iterator<Map.Entry<String, JsonNode>> fields =
                last.path("counts").properties().iterator();
        while (fields.hasNext()) {
            String verdict = fields.next().getKey();
            counts.put(
                    verdict,
                    occurrences.stream()
                            .filter(o -> o.path("outcome").asText().equalsIgnoreCase(verdict))
                            .count());
        }
        // Keep the handler's key order: counts before occurrences.
        ObjectNode ordered = Json.mapper().createObjectNode();
        last.properties().forEach(e -> ordered.set(e.getKey(), result.get(e.getKey())));
        return ordered.toString();
    }
}
