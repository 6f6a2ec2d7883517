package dev.punctual.ledger.dynamodb;

import static dev.punctual.ledger.dynamodb.Av.enumOf;
import static dev.punctual.ledger.dynamodb.Av.instant;
import static dev.punctual.ledger.dynamodb.Av.num;
import static dev.punctual.ledger.dynamodb.Av.str;

import dev.punctual.ledger.Attempt;
import dev.punctual.ledger.EntityTombstone;
import dev.punctual.ledger.LeaseKind;
import dev.punctual.ledger.LockState;
import dev.punctual.ledger.MaintenanceHold;
import dev.punctual.ledger.OperatorSkip;
import dev.punctual.ledger.PauseMark;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.Slot;
import dev.punctual.ledger.Trigger;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Items to ledger values and back. */
final class Codec {

    private Codec() {}

    static LockState lock(String id, Map<String, AttributeValue> item) {
        if (item == null || item.isEmpty()) {
            return LockState.absent(id);
        }
        String reason = str(item, Attr.MAINT_REASON);
        MaintenanceHold hold = reason == null
                ? null
                : new MaintenanceHold(
                        reason,
                        str(item, Attr.MAINT_BY),
                        instant(item, Attr.LEASE_UNTIL),
                        Optional.ofNullable(str(item, Attr.MAINT_COMMAND)));
        return new LockState(
                id,
                num(item, Attr.LEASE_FENCE),
                str(item, Attr.LEASE_OWNER),
                instant(item, Attr.LEASE_UNTIL),
                instant(item, Attr.LEASE_ACQUIRED_AT),
                str(item, Attr.LEASE_HOLDER),
                enumOf(item, Attr.LEASE_KIND, LeaseKind.class),
                hold,
                instant(item, Attr.CURSOR),
                slot(item),
                tombstone(item),
                skips(item),
                instant(item, Attr.ENTITY_LEASED_AT),
                instant(item, Attr.LAST_SUCCESS_AT),
                pause(item),
                marks(item, Attr.APPROVALS));
    }

    /** An operator's pause (decision 0040); a mark without its start is no mark (NOT_PAUSED reads only it). */
    static PauseMark pause(Map<String, AttributeValue> item) {
        Instant from = instant(item, Attr.PAUSED_FROM);
        if (from == null) {
            return null;
        }
        AttributeValue catchUp = item.get(Attr.PAUSE_CATCH_UP);
        return new PauseMark(
                from,
                Optional.ofNullable(instant(item, Attr.PAUSED_TO)),
                Objects.requireNonNullElse(str(item, Attr.PAUSED_BY), "unknown"),
                Objects.requireNonNullElse(str(item, Attr.PAUSED_WHY), ""),
                catchUp != null && Boolean.TRUE.equals(catchUp.bool()));
    }

    /** The occurrences an operator skipped ahead (decision 0033), a number set of epoch millis; sorted. */
    private static List<java.time.Instant> skips(Map<String, AttributeValue> item) {
        return marks(item, Attr.SKIPS);
    }

    /** A number set of epoch millis (skips, approvals), sorted. */
    private static List<java.time.Instant> marks(Map<String, AttributeValue> item, String name) {
        AttributeValue set = item.get(name);
        if (set == null || !set.hasNs()) {
            return List.of();
        }
        return set.ns().stream()
                .map(n -> java.time.Instant.ofEpochMilli(Long.parseLong(n)))
                .sorted()
                .toList();
    }

    private static EntityTombstone tombstone(Map<String, AttributeValue> item) {
        if (!item.containsKey(Attr.DELETED_AT)) {
            return null;
        }
        // A tombstone edited by hand without its name still refuses claims: the mark is deletedAt alone.
        String by = str(item, Attr.DELETED_BY);
        return new EntityTombstone(instant(item, Attr.DELETED_AT), by == null || by.isBlank() ? "(unknown)" : by);
    }

    private static Slot slot(Map<String, AttributeValue> item) {
        if (!item.containsKey(Attr.OCC)) {
            return null;
        }
        return new Slot(
                instant(item, Attr.OCC),
                enumOf(item, Attr.OCC_STATUS, RunStatus.class),
                (int) num(item, Attr.OCC_ATTEMPTS),
                str(item, Attr.OCC_OWNER),
                num(item, Attr.OCC_FENCE),
                enumOf(item, Attr.OCC_TRIGGER, Trigger.class),
                (int) num(item, Attr.OCC_SCHEDULER_ATTEMPT),
                instant(item, Attr.OCC_STARTED_AT));
    }

    static Optional<RunRecord> run(Map<String, AttributeValue> item) {
        if (item == null || item.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new RunRecord(
                new RunKey(str(item, Attr.JOB), instant(item, Attr.SCHEDULED_AT)),
                enumOf(item, Attr.STATUS, RunStatus.class),
                (int) num(item, Attr.ATTEMPTS),
                str(item, Attr.OWNER),
                num(item, Attr.FENCE),
                enumOf(item, Attr.TRIGGER, Trigger.class),
                (int) num(item, Attr.SCHEDULER_ATTEMPT),
                instant(item, Attr.STARTED_AT),
                instant(item, Attr.FINISHED_AT),
                str(item, Attr.REASON),
                str(item, Attr.ERROR),
                str(item, Attr.RESULT),
                instant(item, Attr.MISSED_UNTIL),
                (int) num(item, Attr.MISSED_COUNT),
                Av.ttlInstant(item),
                earlier(item),
                operatorSkip(item),
                approval(item)));
    }

    /** An approval not yet used (decision 0041): {@code approvedBy} marks it. */
    private static dev.punctual.ledger.Approval approval(Map<String, AttributeValue> item) {
        if (!item.containsKey(Attr.APPROVED_BY)) {
            return null;
        }
        return new dev.punctual.ledger.Approval(
                str(item, Attr.APPROVED_BY),
                str(item, Attr.APPROVED_WHY),
                instant(item, Attr.APPROVED_AT),
                str(item, Attr.APPROVAL_PREVIEW));
    }

    /** An operator's skip (decision 0033): {@code skipBy} marks it; acted once {@code skipActedAt} is set. */
    private static OperatorSkip operatorSkip(Map<String, AttributeValue> item) {
        if (!item.containsKey(Attr.SKIP_BY)) {
            return null;
        }
        String why = str(item, Attr.SKIP_WHY);
        return new OperatorSkip(
                str(item, Attr.SKIP_BY),
                why == null ? "" : why,
                instant(item, Attr.SKIP_SET_AT),
                instant(item, Attr.SKIP_ACTED_AT));
    }

    static Map<String, AttributeValue> runItem(RunRecord r, Map<String, AttributeValue> key) {
        Map<String, AttributeValue> item = new HashMap<>(key);
        item.put(Attr.JOB, Av.s(r.key().jobId()));
        item.put(Attr.SCHEDULED_AT, Av.millis(r.key().scheduledTime()));
        item.put(Attr.STATUS, Av.s(r.status().name()));
        item.put(Attr.ATTEMPTS, Av.n(r.attempts()));
        item.put(Attr.FENCE, Av.n(r.fence()));
        item.put(Attr.SCHEDULER_ATTEMPT, Av.n(r.schedulerAttempt()));
        item.put(Attr.MISSED_COUNT, Av.n(r.missedCount()));
        putIfPresent(item, Attr.OWNER, r.ownerToken() == null ? null : Av.s(r.ownerToken()));
        putIfPresent(
                item,
                Attr.TRIGGER,
                r.trigger() == null ? null : Av.s(r.trigger().name()));
        putIfPresent(item, Attr.STARTED_AT, r.startedAt() == null ? null : Av.millis(r.startedAt()));
        putIfPresent(item, Attr.FINISHED_AT, r.finishedAt() == null ? null : Av.millis(r.finishedAt()));
        putIfPresent(
                item,
                Attr.DURATION_MS,
                r.duration().map(d -> Av.n(d.toMillis())).orElse(null));
        putIfPresent(item, Attr.REASON, r.reason() == null ? null : Av.s(r.reason()));
        putIfPresent(item, Attr.ERROR, r.errorSummary() == null ? null : Av.s(r.errorSummary()));
        putIfPresent(item, Attr.RESULT, r.resultSummary() == null ? null : Av.s(r.resultSummary()));
        putIfPresent(item, Attr.MISSED_UNTIL, r.missedUntil() == null ? null : Av.millis(r.missedUntil()));
        putIfPresent(item, Attr.TTL, r.expiresAt() == null ? null : Av.ttl(r.expiresAt()));
        r.skip().ifPresent(skip -> {
            item.put(Attr.SKIP_BY, Av.s(skip.by()));
            item.put(Attr.SKIP_WHY, Av.s(skip.why()));
            item.put(Attr.SKIP_SET_AT, Av.millis(skip.setAt()));
            putIfPresent(item, Attr.SKIP_ACTED_AT, skip.actedAt() == null ? null : Av.millis(skip.actedAt()));
        });
        r.plannedApproval().ifPresent(a -> {
            item.put(Attr.APPROVED_BY, Av.s(a.by()));
            item.put(Attr.APPROVED_WHY, Av.s(a.why()));
            item.put(Attr.APPROVED_AT, Av.millis(a.at()));
            item.put(Attr.APPROVAL_PREVIEW, Av.s(a.preview()));
        });
        if (!r.earlier().isEmpty()) {
            item.put(
                    Attr.EARLIER,
                    AttributeValue.fromL(
                            r.earlier().stream().map(Codec::attemptItem).toList()));
        }
        return item;
    }

    private static AttributeValue attemptItem(Attempt a) {
        Map<String, AttributeValue> m = new HashMap<>();
        m.put(Attr.ATTEMPT, Av.n(a.attempt()));
        m.put(Attr.STATUS, Av.s(a.status().name()));
        m.put(Attr.FENCE, Av.n(a.fence()));
        putIfPresent(m, Attr.OWNER, a.ownerToken() == null ? null : Av.s(a.ownerToken()));
        putIfPresent(
                m, Attr.TRIGGER, a.trigger() == null ? null : Av.s(a.trigger().name()));
        putIfPresent(m, Attr.STARTED_AT, a.startedAt() == null ? null : Av.millis(a.startedAt()));
        putIfPresent(m, Attr.FINISHED_AT, a.finishedAt() == null ? null : Av.millis(a.finishedAt()));
        putIfPresent(m, Attr.REASON, a.reason() == null ? null : Av.s(a.reason()));
        return AttributeValue.fromM(m);
    }

    private static List<Attempt> earlier(Map<String, AttributeValue> item) {
        AttributeValue list = item.get(Attr.EARLIER);
        if (list == null || !list.hasL()) {
            return List.of();
        }
        return list.l().stream().map(AttributeValue::m).map(Codec::attempt).toList();
    }

    private static Attempt attempt(Map<String, AttributeValue> m) {
        return new Attempt(
                (int) num(m, Attr.ATTEMPT),
                enumOf(m, Attr.STATUS, RunStatus.class),
                num(m, Attr.FENCE),
                str(m, Attr.OWNER),
                enumOf(m, Attr.TRIGGER, Trigger.class),
                instant(m, Attr.STARTED_AT),
                instant(m, Attr.FINISHED_AT),
                str(m, Attr.REASON));
    }

    private static void putIfPresent(Map<String, AttributeValue> item, String name, AttributeValue value) {
        if (value != null) {
            item.put(name, value);
        }
    }
}
