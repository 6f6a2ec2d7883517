package dev.punctual.infra;

import java.util.List;

/**
 * The ledger's partition keys and lease attributes as the DynamoDB adapter writes them
 * ({@code Keys} and {@code Attr} in {@code dev.punctual.ledger.dynamodb}, package-private there;
 * docs/ledger.md "Item types"): what the IAM conditions on the ledger name. LedgerGrantsTest runs the
 * adapter itself and checks every request it sends against the policies built from these, so a key or
 * an attribute renamed there fails a test here.
 */
final class LedgerLayout {

    /** Every lock item: a lock group's lease, and on a job's own item its cursor and slot too. */
    static final String LOCK_ITEMS = "lock#*";

    /** Every run item and missed range, of every job. */
    static final String RUN_ITEMS = "run#*";

    /**
     * What a lease write names: taking, extending and releasing a group's lease, and holding it for
     * maintenance (reason, who set it, the command a hold runs; its expiry is {@code leaseUntil}), plus the table's keys, which a
     * policy limiting {@code dynamodb:Attributes} must list (AWS: "you must specify the names of all of the
     * primary key ... attributes"). Nothing of a job's own part (cursor, slot) and nothing of a run item.
     */
    static final List<String> LEASE_ATTRIBUTES = List.of(
            LedgerTables.PARTITION_KEY,
            LedgerTables.SORT_KEY,
            "leaseOwner",
            "leaseFence",
            "leaseUntil",
            "leaseAcquiredAt",
            "leaseHolder",
            "leaseKind",
            "maintReason",
            "maintBy",
            "maintCommand");

    /**
     * What an operator's maintenance writes name ({@code maintenance on}, {@code off}, {@code hold} and
     * its renewals, verify's hold): {@link #LEASE_ATTRIBUTES} but the fence. A hold leaves the fence as
     * it is (decision 0037), so an operator never needs to name it, and a write that could name it
     * could set a group's fence back.
     */
    static final List<String> HOLD_ATTRIBUTES =
            LEASE_ATTRIBUTES.stream().filter(name -> !name.equals("leaseFence")).toList();

    /**
     * What {@code skip} and {@code unskip} name on the job's (or entity's) lock item (decision 0033): the
     * number set of skipped occurrences ({@code ADD}/{@code DELETE}), and the slot's occurrence and status,
     * which the skip's condition reads (the occurrence not in flight). IAM counts a name a condition reads
     * as one the request accesses, so these two are the narrowest a skip can be granted (decision 0037):
     * never the cursor, the lease or the fence, nor the slot's owner, fence or attempts.
     */
    static final List<String> SKIP_MARK_ATTRIBUTES =
            List.of(LedgerTables.PARTITION_KEY, LedgerTables.SORT_KEY, "skips", "occ", "occStatus");

    /**
     * What {@code pause} and {@code resume} name on a lock item (decision 0040): the pause's mark only
     * ({@code PAUSE_SET}, {@code PAUSE_UNTIL}, {@code RESUME_*}; their conditions read {@code pausedFrom}
     * and {@code pausedTo}). Never the cursor, the lease, the fence or the slot (decision 0037).
     */
    static final List<String> PAUSE_ATTRIBUTES = List.of(
            LedgerTables.PARTITION_KEY,
            LedgerTables.SORT_KEY,
            "pausedFrom",
            "pausedTo",
            "pausedBy",
            "pausedWhy",
            "pauseCatchUp");

    /**
     * What every claim's lease take reads on a lock item (NOT_PAUSED, decision 0040): a pool's job taking a
     * shared group's lease names these in its condition, and IAM counts a name a condition reads as one the
     * request accesses. Written only by operators (the pools' grants on group items allow naming them,
     * which IAM cannot tell from reading them).
     */
    static final List<String> PAUSE_READ_ATTRIBUTES = List.of("pausedFrom", "pausedTo", "pauseCatchUp");

    /**
     * What {@code skip}'s planned run item names (decision 0033: status SKIPPED, who, why, when set,
     * its expiry) and what its condition reads ({@code SKIP_MAY_PLAN}: no run, or a refusal without an
     * operator's skip). Not a run's owner, result, error, timings or attempt history.
     */
    static final List<String> SKIP_RUN_ATTRIBUTES = List.of(
            LedgerTables.PARTITION_KEY,
            LedgerTables.SORT_KEY,
            "job",
            "scheduledAt",
            "status",
            "attempts",
            "fence",
            "schedulerAttempt",
            "missedCount",
            "trigger",
            "reason",
            "ttl",
            "skipBy",
            "skipWhy",
            "skipSetAt");

    /**
     * What the dead-letter consumer's UNDELIVERED skip names (decision 0044): a recorded skip's item as the
     * adapter writes it (its fence and missed count are written as for every run item; no owner, result,
     * error, start or attempt history) and what {@code ONLY_SKIP_STORED} reads (no item, or a skip without
     * an operator's {@code skipBy} or an approval not yet used, {@code approvedBy}, decision 0041).
     */
    static final List<String> UNDELIVERED_RUN_ATTRIBUTES = List.of(
            LedgerTables.PARTITION_KEY,
            LedgerTables.SORT_KEY,
            "job",
            "scheduledAt",
            "status",
            "attempts",
            "fence",
            "missedCount",
            "trigger",
            "schedulerAttempt",
            "finishedAt",
            "reason",
            "ttl",
            "skipBy",
            "approvedBy");

    /**
     * What {@code unskip}'s delete of a planned run item names: the keys and what its condition reads
     * ({@code SKIP_STILL_PLANNED}: an operator's skip no delivery has met).
     */
    static final List<String> UNSKIP_ATTRIBUTES =
            List.of(LedgerTables.PARTITION_KEY, LedgerTables.SORT_KEY, "skipBy", "skipActedAt");

    /**
     * What {@code approve} names on the job's (or entity's) lock item (decision 0041): the number set of
     * approved occurrences ({@code ADD}, and {@code DELETE} of those behind the cursor), and the slot's
     * occurrence and status its condition reads (not in flight). Never the cursor, the lease or the fence.
     */
    static final List<String> APPROVAL_MARK_ATTRIBUTES =
            List.of(LedgerTables.PARTITION_KEY, LedgerTables.SORT_KEY, "approvals", "occ", "occStatus");

    /**
     * What {@code approve}'s planned run item names (status SKIPPED with no attempt, who, why, when, the
     * preview, its expiry) and what its condition reads ({@code APPROVAL_OVER_REFUSAL}: the refusal read,
     * no operator's skip, no approval yet). Not a run's owner, result, error, timings or attempt history.
     */
    static final List<String> APPROVAL_RUN_ATTRIBUTES = List.of(
            LedgerTables.PARTITION_KEY,
            LedgerTables.SORT_KEY,
            "job",
            "scheduledAt",
            "status",
            "attempts",
            "fence",
            "schedulerAttempt",
            "missedCount",
            "trigger",
            "reason",
            "ttl",
            "skipBy",
            "approvedBy",
            "approvedWhy",
            "approvedAt",
            "approvalPreview");

    /**
     * What an entity's delete and a put name (decision 0029, 8; decision 0031): the tombstone on the
     * entity's lock item ({@code deletedAt}, {@code deletedBy}) and the put's due note ({@code nextDue},
     * {@code dueBucket}) and the entity's write lock that keeps a put and a delete of one entity from
     * interleaving ({@code entityWriter}, {@code entityWriterUntil}, issue 40), plus the table's keys, as
     * above. Never the lease, the slot or the cursor.
     */
    static final List<String> TOMBSTONE_ATTRIBUTES = List.of(
            LedgerTables.PARTITION_KEY,
            LedgerTables.SORT_KEY,
            "deletedAt",
            "deletedBy",
            "nextDue",
            "dueBucket",
            "entityWriter",
            "entityWriterUntil");

    private LedgerLayout() {}

    /**
     * The lock items of a per-entity job's entities, {@code lock#<job>:<entity>}, as a StringLike pattern:
     * a job id never holds {@code :}, so neither the job's own item nor another job's matches.
     */
    static String entityItems(String jobId) {
        return lock(jobId) + ":*";
    }

    /** The lock item of a group, or a job's own item (its own group carries its id). */
    static String lock(String id) {
        return "lock#" + id;
    }

    /** The partition of a job's run items and missed ranges. */
    static String run(String jobId) {
        return "run#" + jobId;
    }

    /**
     * The partition of a long job's execution records (decision 0039: which execution runs each occurrence,
     * and its plan's count); a per-entity long job's entities have {@code long#<job>:<entity>}.
     */
    static String longRun(String jobId) {
        return "long#" + jobId;
    }

    /**
     * A long job's chunk records, as a StringLike pattern: one partition per occurrence,
     * {@code chunk#<job>#<occurrence>}; a job id never holds {@code #}, so no other job's matches.
     */
    static String chunks(String jobId) {
        return "chunk#" + jobId + "#*";
    }

    /**
     * A per-entity job's completed one-time entities' notes (decision 0047), as a StringLike pattern: one
     * partition per shard, {@code done#<job>#<NN>}; a job id never holds {@code #}, so no other job's matches.
     */
    static String completed(String jobId) {
        return "done#" + jobId + "#*";
    }

    /** The chunk records of a per-entity long job's entities, {@code chunk#<job>:<entity>#...}, as a pattern. */
    static String entityChunks(String jobId) {
        return "chunk#" + jobId + ":*";
    }
}
