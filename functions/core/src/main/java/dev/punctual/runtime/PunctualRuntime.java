package dev.punctual.runtime;

import dev.punctual.observability.StructuredLog;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The whole invocation, independent of Lambda: read the payload, refuse it with a reason or carry it
 * out. The Lambda handler, the CLI's {@code invoke}, {@code run} and {@code replay}, and the demo all go
 * through here, so an operator's run is the same as a scheduled one.
 */
public final class PunctualRuntime {

    private final RuntimeServices services;
    private final PayloadParser parser;
    private final InvocationResolver resolver;
    private final Dispatcher dispatcher;
    private final LongSteps steps;
    private final UndeliveredRecorder undelivered;

    public PunctualRuntime(RuntimeServices services) {
        this.services = services;
        this.parser = new PayloadParser(services.catalog());
        this.resolver = new InvocationResolver(services.clock());
        this.dispatcher = new Dispatcher(services);
        this.steps = new LongSteps(services, Dispatcher.standingListeners(services));
        this.undelivered = new UndeliveredRecorder(services);
    }

    public RuntimeServices services() {
        return services;
    }

    public InvocationResult handle(String rawPayload, Deadline deadline, StructuredLog log) {
        return handle(rawPayload, deadline, log, dispatcher);
    }

    /**
     * Whether the payload is a long occurrence's step or an execution's status-change event (decision
     * 0039), carried out by {@link #step} rather than {@link #handle}.
     */
    public static boolean isLongStep(String rawPayload) {
        if (!rawPayload.contains(LongSteps.KIND) && !rawPayload.contains(LongSteps.STATUS_CHANGE)) {
            return false;
        }
        try {
            return LongSteps.isStep(dev.punctual.json.Json.read(rawPayload));
        } catch (dev.punctual.json.Json.NotJsonException e) {
            return false;
        }
    }

    /**
     * Carries out a long occurrence's step: its answer as JSON for Step Functions. A failed chunk attempt
     * throws {@link dev.punctual.runtime.longrun.ChunkAttemptFailed}, an ended occurrence {@link
     * dev.punctual.runtime.longrun.OccurrenceEnded}; both by name are what the state machine matches.
     */
    public String step(String rawPayload, Deadline deadline, StructuredLog log) {
        Object root;
        try {
            root = dev.punctual.json.Json.read(rawPayload);
        } catch (dev.punctual.json.Json.NotJsonException e) {
            throw new dev.punctual.runtime.longrun.BadLongClaim("a step's payload is not JSON: " + e.getMessage());
        }
        if (!(root instanceof Map<?, ?> map) || !LongSteps.isStep(map)) {
            throw new dev.punctual.runtime.longrun.BadLongClaim("not a long job's step");
        }
        return steps.handle(map, deadline, log);
    }

    /**
     * As {@link #handle(String, Deadline, StructuredLog)}, also telling {@code progress} of each occurrence
     * as it ends (after the outcome line): the CLI's replay progress.
     */
    public InvocationResult handle(
            String rawPayload, Deadline deadline, StructuredLog log, OccurrenceListener progress) {
        return handle(rawPayload, deadline, log, dispatcher.with(progress));
    }

    /**
     * Whether {@link #handle} would carry the payload out rather than refuse it (the same parse and the
     * same checks against the clock), without touching anything: an operator's tool can then prepare what
     * only a valid payload needs.
     */
    public boolean accepts(String rawPayload) {
        return read(rawPayload) instanceof PayloadParser.Parsed.Valid;
    }

    /**
     * Records a delivery the scheduler or Lambda gave up (a dead-lettered payload) on its occurrence as
     * UNDELIVERED, without running it (decision 0044): read exactly as {@link #handle} reads a delivery,
     * so only a scheduler's delivery of an occurrence of a catalog job is recorded; anything else is
     * {@link Undelivered.Unreadable} and writes nothing.
     *
     * @param detail why it was given up (the error code and message, the attempts), redacted and cut here
     */
    public Undelivered recordUndelivered(String rawPayload, String detail, StructuredLog log) {
        return undelivered.record(read(rawPayload), detail, log);
    }

    private PayloadParser.Parsed read(String rawPayload) {
        PayloadParser.Parsed parsed = parser.parse(rawPayload);
        if (parsed instanceof PayloadParser.Parsed.Valid valid) {
            PayloadParser.Parsed resolved = resolver.resolve(valid.invocation());
            return resolved instanceof PayloadParser.Parsed.Valid done
                    ? valid.withInvocation(done.invocation())
                    : resolved;
        }
        return parsed;
    }

    private InvocationResult handle(String rawPayload, Deadline deadline, StructuredLog log, Dispatcher dispatcher) {
        PayloadParser.Parsed parsed = read(rawPayload);
        return switch (parsed) {
            case PayloadParser.Parsed.Valid valid -> {
                warnOfOldNames(valid.oldNamesUsed(), log);
                yield dispatcher.dispatch(valid.invocation(), deadline, log);
            }
            case PayloadParser.Parsed.Invalid invalid -> refuse(invalid.problem(), log);
        };
    }

    /**
     * A payload read through old field names runs as before, with one warning that names the writer's
     * fields to rename before {@link RenamedFields#REFUSED_FROM} refuses them.
     */
    private void warnOfOldNames(java.util.List<String> oldNames, StructuredLog log) {
        if (oldNames.isEmpty()) {
            return;
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("stage", services.flags().stage());
        fields.put("old_fields", oldNames);
        fields.put(
                "new_fields",
                oldNames.stream().map(RenamedFields.OLD_TO_NEW::get).toList());
        fields.put("refused_from", RenamedFields.REFUSED_FROM);
        log.warn("payload uses renamed fields", fields);
    }

    private InvocationResult refuse(InvalidPayload problem, StructuredLog log) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("stage", services.flags().stage());
        fields.put("error_code", problem.code());
        fields.put("field", problem.field());
        fields.put("error", problem.message());
        log.error("invalid payload", fields);
        return InvocationResult.invalid(services.flags().stage(), problem);
    }
}
