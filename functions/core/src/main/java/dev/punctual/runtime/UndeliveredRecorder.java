package dev.punctual.runtime;

import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.SkipReason;
import dev.punctual.ledger.SkipResult;
import dev.punctual.ledger.Trigger;
import dev.punctual.observability.StructuredLog;
import dev.punctual.outcome.Reason;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Records a dead-lettered delivery on its occurrence as {@link Reason#UNDELIVERED} without running it
 * (decision 0044). The payload is read by the same parser and resolver as a delivery to a pool, so the
 * job, the entity and the occurrence are the ones the delivery would have run; anything else is {@link
 * Undelivered.Unreadable} and nothing is written. A recorded skip is what a replay or a catch-up claims
 * like any other, so the occurrence still runs within the job's catch-up policy.
 */
final class UndeliveredRecorder {

    /** The detail is the error the scheduler or Lambda gave up with; longer is cut (the item's reason). */
    static final int MAX_DETAIL = 300;

    private final RuntimeServices services;

    UndeliveredRecorder(RuntimeServices services) {
        this.services = services;
    }

    Undelivered record(PayloadParser.Parsed parsed, String detail, StructuredLog log) {
        return switch (parsed) {
            case PayloadParser.Parsed.Invalid invalid ->
                new Undelivered.Unreadable(
                        invalid.problem().code(), invalid.problem().message());
            case PayloadParser.Parsed.Valid valid ->
                switch (valid.invocation()) {
                    case Invocation.Scheduled s -> record(s, detail, log);
                    case Invocation.NotAnOccurrence n -> new Undelivered.Unreadable("NOT_AN_OCCURRENCE", n.detail());
                    // Nothing to record and nothing to keep: the rule has no occurrence there (decision 0049),
                    // so a delivery of it would have written nothing either.
                    case Invocation.OutsideRule o ->
                        new Undelivered.OutsideRule(
                                o.delivery()
                                        .subject()
                                        .key(o.delivery().scheduledTime())
                                        .jobId(),
                                o.detail());
                    default ->
                        new Undelivered.Unreadable(
                                "NOT_A_DELIVERY",
                                "not a scheduler's delivery of an occurrence (a ping, a run or a replay)");
                };
        };
    }

    private Undelivered record(Invocation.Scheduled s, String detail, StructuredLog log) {
        RunKey key = s.subject().key(s.scheduledTime());
        // One read makes a message delivered twice (SQS delivers at least once) record once: the first
        // recording is kept as it was, with its time. Two copies in flight at once may both write; both
        // write an UNDELIVERED skip of the same occurrence, so the item ends the same.
        Optional<RunRecord> stored = services.ledger().run(key);
        if (stored.filter(UndeliveredRecorder::isUndelivered).isPresent()) {
            return new Undelivered.AlreadyRecorded(key);
        }
        String shown = log.redactor().line(cut(detail));
        SkipResult result =
                services.ledger().recordSkip(key, Trigger.SCHEDULED, s.attemptNumber(), SkipReason.UNDELIVERED, shown);
        Undelivered outcome = switch (result) {
            case SkipResult.Recorded recorded -> new Undelivered.Recorded(key, recorded.record());
            case SkipResult.Kept kept -> new Undelivered.Kept(key, kept.existing());
        };
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("stage", services.flags().stage());
        fields.put("job", key.jobId());
        fields.put("occurrence", key.scheduledTime().toString());
        fields.put("entity", s.subject().entityId());
        fields.put("reason", Reason.UNDELIVERED.wire());
        fields.put("recorded", outcome instanceof Undelivered.Recorded);
        fields.put("detail", shown);
        log.warn("dead-lettered delivery", fields);
        return outcome;
    }

    static boolean isUndelivered(RunRecord record) {
        return record.status() == RunStatus.SKIPPED
                && record.reason() != null
                && record.reason().startsWith(SkipReason.UNDELIVERED.name());
    }

    private static String cut(String detail) {
        String text = detail == null ? "" : detail.strip();
        return text.length() <= MAX_DETAIL ? text : text.substring(0, MAX_DETAIL - 1) + "…";
    }
}
