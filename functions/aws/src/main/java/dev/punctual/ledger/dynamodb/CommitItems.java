package dev.punctual.ledger.dynamodb;

import static dev.punctual.ledger.dynamodb.Expressions.CURSOR_ADVANCE;
import static dev.punctual.ledger.dynamodb.Expressions.CURSOR_BEHIND;
import static dev.punctual.ledger.dynamodb.Expressions.DUE_CLEARED;
import static dev.punctual.ledger.dynamodb.Expressions.DUE_NOTE;
import static dev.punctual.ledger.dynamodb.Expressions.LAST_SUCCESS;
import static dev.punctual.ledger.dynamodb.Expressions.LEASE_OURS;
import static dev.punctual.ledger.dynamodb.Expressions.RELEASE;
import static dev.punctual.ledger.dynamodb.Expressions.RELEASE_REMOVES;
import static dev.punctual.ledger.dynamodb.Expressions.SLOT_FINISHED;
import static dev.punctual.ledger.dynamodb.Expressions.SLOT_OURS;

import dev.punctual.ledger.DueBuckets;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.spi.CompletionPlan;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * The completion transaction: [0] the final run item, [1] the group's lock item (lease ours, then
 * released), [2] the job's item when it is a different item (slot finished, cursor advanced, last success
 * noted). On the
 * job's own group [1] carries the job part too, because a transaction may touch an item only once. Last,
 * for a one-time entity done (its due note cleared), its completed note {@code done#<job>#<NN>} (decision
 * 0047): a Put in the same request, so a delivery sends no request more.
 */
final class CommitItems {

    static final int RUN = 0;
    static final int GROUP = 1;
    static final int JOB = 2;

    private final Requests requests;
    private final CompletionPlan plan;
    private final Values values;

    CommitItems(Requests requests, CompletionPlan plan) {
        this.requests = requests;
        this.plan = plan;
        this.values = Values.of()
                .put(":token", Av.s(plan.lease().ownerToken()))
                .put(":now", Av.millis(plan.now()))
                .occurrence(plan.record().key().scheduledTime())
                .status(":running", RunStatus.RUNNING)
                .status(":final", plan.record().status());
        plan.due()
                .flatMap(d -> d.at())
                .ifPresent(next -> values.put(":nextDue", Av.millis(next))
                        .put(":dueBucket", Av.s(DueBuckets.of(plan.jobId(), next))));
    }

    List<TransactWriteItem> items() {
        List<TransactWriteItem> items = new ArrayList<>();
        // No condition on the run item: the lease condition in the same transaction fences it, and a
        // forced re-run must be able to replace an earlier success.
        items.add(requests.transactPut(plan.record(), null, values));
        if (plan.ownGroup()) {
            items.add(update(plan.lease().group(), jobSets(), withJobConditions(LEASE_OURS), removes(RELEASE_REMOVES)));
        } else {
            items.add(requests.transactUpdate(Keys.lock(plan.lease().group()), RELEASE, LEASE_OURS, values));
            List<String> sets = jobSets();
            String removes = removes(null);
            if (!sets.isEmpty() || removes != null) {
                items.add(update(plan.jobId(), sets, withJobConditions(null), removes));
            }
        }
        // No condition: the lease condition in the same transaction fences it, as it fences the run item.
        plan.completedNote()
                .ifPresent(note -> items.add(requests.transactPut(CompletedNotes.item(note), null, values)));
        return items;
    }

    private TransactWriteItem update(String id, List<String> sets, String condition, String removes) {
        StringBuilder update = new StringBuilder();
        if (!sets.isEmpty()) {
            update.append("SET ").append(String.join(", ", sets));
        }
        if (removes != null) {
            update.append(update.isEmpty() ? "" : " ").append("REMOVE ").append(removes);
        }
        return requests.transactUpdate(Keys.lock(id), update.toString(), condition, values);
    }

    private List<String> jobSets() {
        List<String> sets = new ArrayList<>();
        if (plan.onSlot()) {
            sets.add(SLOT_FINISHED);
        }
        if (plan.advanceCursor()) {
            sets.add(CURSOR_ADVANCE);
        }
        if (plan.record().status() == RunStatus.SUCCEEDED) {
            // Every success, a replay's too: freshness asks when the job last worked, not which occurrence.
            sets.add(LAST_SUCCESS);
        }
        if (plan.due().flatMap(d -> d.at()).isPresent()) {
            sets.add(DUE_NOTE);
        }
        return sets;
    }

    /** The release's removals (own group), and the due note's when the entity has no next occurrence. */
    private String removes(String base) {
        boolean cleared = plan.due().filter(d -> d.at().isEmpty()).isPresent();
        if (!cleared) {
            return base;
        }
        return base == null ? DUE_CLEARED : base + ", " + DUE_CLEARED;
    }

    private String withJobConditions(String base) {
        List<String> clauses = new ArrayList<>();
        if (base != null) {
            clauses.add(base);
        }
        if (plan.onSlot()) {
            clauses.add(SLOT_OURS);
        }
        if (plan.advanceCursor()) {
            clauses.add(CURSOR_BEHIND);
        }
        return clauses.isEmpty() ? null : String.join(" AND ", clauses);
    }
}
