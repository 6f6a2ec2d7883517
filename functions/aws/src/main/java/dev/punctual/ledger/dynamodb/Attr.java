package dev.punctual.ledger.dynamodb;

/** Attribute names of the ledger table; docs/ledger.md describes each. Times are epoch millis except ttl. */
final class Attr {
    static final String PK = "pk";
    static final String SK = "sk";
    /** Epoch seconds, DynamoDB TTL's unit; cleanup only. */
    static final String TTL = "ttl";

    // Lock item: the lease of the group with this id.
    static final String LEASE_OWNER = "leaseOwner";
    static final String LEASE_UNTIL = "leaseUntil";
    static final String LEASE_FENCE = "leaseFence";
    static final String LEASE_ACQUIRED_AT = "leaseAcquiredAt";
    static final String LEASE_HOLDER = "leaseHolder";
    static final String LEASE_KIND = "leaseKind";
    static final String MAINT_REASON = "maintReason";
    static final String MAINT_BY = "maintBy";
    /** The command a {@code maintenance hold} runs (decision 0036); absent on a hold switched on by hand. */
    static final String MAINT_COMMAND = "maintCommand";
    /**
     * A per-entity job's group item: when the last entity lease under it was taken (epoch ms, the
     * claimant's clock), written by the claim's own transaction; a hold waits for entity runs only while
     * one taken then can still hold its lease (decision 0036, addendum).
     */
    static final String ENTITY_LEASED_AT = "entityLeasedAt";

    // Lock item: the job with this id (its own group carries its name).
    static final String CURSOR = "cursor";
    /** N ms: when the job's (or entity's) last success was recorded (decision 0042). */
    static final String LAST_SUCCESS_AT = "lastSuccessAt";

    static final String OCC = "occ";
    static final String OCC_STATUS = "occStatus";
    static final String OCC_ATTEMPTS = "occAttempts";
    static final String OCC_OWNER = "occOwner";
    static final String OCC_FENCE = "occFence";
    static final String OCC_TRIGGER = "occTrigger";
    static final String OCC_SCHEDULER_ATTEMPT = "occSchedulerAttempt";
    static final String OCC_STARTED_AT = "occStartedAt";

    // Lock item of an entity (job:entity): the tombstone its delete writes (decision 0029, 8).
    static final String DELETED_AT = "deletedAt";
    static final String DELETED_BY = "deletedBy";
    // Lock item of an entity (job:entity): the due watch's note (decision 0031).
    /** The entity's next occurrence after its newest completed one, epoch millis: the due index's sort key. */
    static final String NEXT_DUE = "nextDue";
    /** Lock item: the occurrences operators skipped ahead (decision 0033), a number set of epoch millis. */
    static final String SKIPS = "skips";
    /** Run item of an operator's skip: who, why, when set, when a delivery met it. */
    static final String SKIP_BY = "skipBy";

    static final String SKIP_WHY = "skipWhy";
    static final String SKIP_SET_AT = "skipSetAt";
    static final String SKIP_ACTED_AT = "skipActedAt";
    /**
     * Lock item: an operator's pause of what it locks (decision 0040): from (epoch millis, the ledger's
     * clock at the pause), to (epoch millis; absent: until resumed), who, why, and whether the span is
     * caught up once it ends.
     */
    static final String PAUSED_FROM = "pausedFrom";

    static final String PAUSED_TO = "pausedTo";
    static final String PAUSED_BY = "pausedBy";
    static final String PAUSED_WHY = "pausedWhy";
    static final String PAUSE_CATCH_UP = "pauseCatchUp";

    /** Lock item: the occurrences operators approved ahead (decision 0041), a number set of epoch millis. */
    static final String APPROVALS = "approvals";
    /** Run item of an approval not yet used: who, why, when, and the preview they saw (decision 0041). */
    static final String APPROVED_BY = "approvedBy";

    static final String APPROVED_WHY = "approvedWhy";
    static final String APPROVED_AT = "approvedAt";
    static final String APPROVAL_PREVIEW = "approvalPreview";
    /** The due index's partition key ({@code DueBuckets}: the occurrence's UTC hour and a shard). */
    static final String DUE_BUCKET = "dueBucket";

    // Run item.
    static final String JOB = "job";
    static final String SCHEDULED_AT = "scheduledAt";
    static final String STATUS = "status";
    static final String ATTEMPTS = "attempts";
    static final String OWNER = "owner";
    static final String FENCE = "fence";
    static final String TRIGGER = "trigger";
    static final String SCHEDULER_ATTEMPT = "schedulerAttempt";
    static final String STARTED_AT = "startedAt";
    static final String FINISHED_AT = "finishedAt";
    static final String DURATION_MS = "durationMs";
    static final String REASON = "reason";
    static final String ERROR = "error";
    static final String RESULT = "result";
    /** A chunk record's writer: the token of the one call that wrote its last attempt (decision 0039). */
    static final String WRITER = "writer";

    static final String MISSED_UNTIL = "missedUntil";
    static final String MISSED_COUNT = "missedCount";
    /** A list of maps, oldest first: the attempts the record replaced (ledger.Attempt). */
    static final String EARLIER = "earlier";
    /** In an {@link #EARLIER} entry: the attempt's number (the other keys are the run item's names). */
    static final String ATTEMPT = "attempt";

    // Execution record of a long occurrence (decision 0039); also JOB, SCHEDULED_AT, FENCE, STARTED_AT, TTL.
    /** The Step Functions execution's name and ARN. */
    static final String EXECUTION = "execution";

    static final String EXECUTION_ARN = "executionArn";
    /** The chunks the plan listed; -1 until the plan step noted them. */
    static final String PLANNED = "planned";

    // Chunk record of a long occurrence; also JOB, SCHEDULED_AT, STATUS, ATTEMPTS, FENCE, ERROR, RESULT, TTL.
    /** When the chunk's last attempt was recorded, epoch millis. */
    static final String AT = "at";

    private Attr() {}
}
