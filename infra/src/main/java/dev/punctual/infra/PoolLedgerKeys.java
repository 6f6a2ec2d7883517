package dev.punctual.infra;

import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.runtime.MissedRunWatchdog;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The ledger items one pool's function reads and writes, worked out from the catalog the way the
 * handler's code touches them (docs/ledger.md): the pool's role is confined to these with
 * {@code dynamodb:LeadingKeys}, so a job with its own SDK client cannot rewrite another pool's jobs.
 *
 * <p>Writes: each of its jobs' run items and missed ranges ({@code run#<job>}: claims, skips, missed
 * ranges, and the commit transaction's put) and own lock item ({@code lock#<job>}: fast-path claim, slot,
 * cursor, and its own group's lease); and the lease of each shared group its jobs take
 * ({@code lock#<group>}: take, heartbeat, release), lease attributes only, since a group named after a
 * job of another pool is that job's own item, cursor and slot included.
 *
 * <p>Reads, wider: the group items (a lease write's read-back), and the items of every job that shares
 * a group with one of its jobs, wherever that job runs ({@code CatalogOrder}: a delivery waits while an
 * earlier job of its group, due at the same instant, has no run item yet). The pool hosting the
 * built-in missed-run watchdog reads every job's cursor and run items ({@code RunHistory}), so it reads
 * every item.
 *
 * @param pool the pool's name
 * @param runItems {@code run#<job>} of each of its jobs: PutItem and GetItem
 * @param jobItems {@code lock#<job>} of each of its jobs: UpdateItem and GetItem
 * @param groupItems {@code lock#<group>} of each group its jobs share that is not one of its jobs' own
 *     items: UpdateItem of {@link LedgerLayout#LEASE_ATTRIBUTES} only
 * @param reads what else it reads (GetItem): the group items and the items of the other jobs of its
 *     groups; empty when it reads everything
 * @param readsEveryItem whether it hosts the watchdog, which reads every job's items
 * @param queriesDueIndex whether it hosts the watchdog of a catalog with a per-entity job, which queries
 *     the ledger's due index (decision 0031)
 * @param entityRunItems {@code run#<job>:*} of each of its per-entity jobs: each entity's run items, as
 *     {@code runItems} are a job's (PutItem and GetItem); a job id holds no {@code :}, so the pattern
 *     matches that job's entities only
 * @param entityJobItems {@code lock#<job>:*} of each of its per-entity jobs: each entity's own lock
 *     item (cursor, slot, lease; UpdateItem and GetItem)
 * @param completedItems {@code done#<job>#*} of each of its per-entity jobs: the completed one-time
 *     entities' notes a completion puts in its transaction (decision 0047; PutItem only, never read)
 * @param longRunItems the records of each of its long jobs (decision 0039), as StringLike patterns: the
 *     execution record {@code long#<job>} and the chunk records {@code chunk#<job>#*}, and for a
 *     per-entity long job its entities' {@code long#<job>:*} and {@code chunk#<job>:*}
 * @param longRunLeaseItems the lock items whose lease a long job's record writes check (a transaction's
 *     ConditionCheck, decision 0039): {@code lock#<group>} of each long job, and {@code lock#<job>:*} of a
 *     per-entity long job's entities; ConditionCheckItem only
 */
record PoolLedgerKeys(
        String pool,
        List<String> runItems,
        List<String> jobItems,
        List<String> groupItems,
        List<String> reads,
        boolean readsEveryItem,
        boolean queriesDueIndex,
        List<String> entityRunItems,
        List<String> entityJobItems,
        List<String> completedItems,
        List<String> longRunItems,
        List<String> longRunLeaseItems) {

    PoolLedgerKeys {
        longRunLeaseItems = List.copyOf(longRunLeaseItems);
        runItems = List.copyOf(runItems);
        jobItems = List.copyOf(jobItems);
        groupItems = List.copyOf(groupItems);
        reads = List.copyOf(reads);
        entityRunItems = List.copyOf(entityRunItems);
        entityJobItems = List.copyOf(entityJobItems);
        completedItems = List.copyOf(completedItems);
        longRunItems = List.copyOf(longRunItems);
    }

    /** The keys of {@code pool}'s jobs in the catalog. */
    static PoolLedgerKeys of(JobCatalog catalog, String pool) {
        List<JobDefinition> own = new ArrayList<>(catalog.inPool(pool));
        if (own.stream().anyMatch(job -> job.id().equals(MissedRunWatchdog.ID))) {
            // The watchdog's sweep records a long occurrence whose execution ended unseen, and starts one whose
            // starter died (decision 0039, 5): the items the long job's own pool writes for it.
            catalog.jobs().stream()
                    .filter(job -> job.isLong() && !job.isPerEntity() && !own.contains(job))
                    .forEach(own::add);
        }
        Set<String> ids =
                new LinkedHashSet<>(own.stream().map(JobDefinition::id).toList());
        Set<String> groups =
                new LinkedHashSet<>(own.stream().map(JobDefinition::lockGroup).toList());
        // A group of capacity N (decision 0051) is N lease items: its claims take, renew and release any of
        // its slots, and read the others to tell a live run of their job from a dead one.
        List<String> groupItems = groups.stream()
                .filter(group -> !ids.contains(group))
                .flatMap(group -> dev.punctual.ledger.LockSlots.slotIds(group, catalog.groupCapacity(group)).stream())
                .map(LedgerLayout::lock)
                .toList();
        boolean everything = ids.contains(MissedRunWatchdog.ID);
        List<String> reads = new ArrayList<>();
        if (!everything) {
            reads.addAll(groupItems);
            catalog.jobs().stream()
                    .filter(job -> !ids.contains(job.id()) && groups.contains(job.lockGroup()))
                    .forEach(job -> {
                        reads.add(LedgerLayout.run(job.id()));
                        reads.add(LedgerLayout.lock(job.id()));
                    });
        }
        return new PoolLedgerKeys(
                pool,
                ids.stream().map(LedgerLayout::run).toList(),
                ids.stream().map(LedgerLayout::lock).toList(),
                groupItems,
                reads.stream().distinct().toList(),
                everything,
                everything && catalog.jobs().stream().anyMatch(JobDefinition::isPerEntity),
                perEntity(own, LedgerLayout::run),
                perEntity(own, LedgerLayout::lock),
                own.stream()
                        .filter(JobDefinition::isPerEntity)
                        .map(job -> LedgerLayout.completed(job.id()))
                        .toList(),
                longRuns(own),
                longRunLeases(own));
    }

    /** The lock items a long job's record writes are fenced by: its group's, and its entities' own. */
    private static List<String> longRunLeases(List<JobDefinition> jobs) {
        List<String> keys = new ArrayList<>();
        for (JobDefinition job : jobs) {
            if (!job.isLong()) {
                continue;
            }
            keys.add(LedgerLayout.lock(job.lockGroup()));
            if (job.isPerEntity()) {
                keys.add(LedgerLayout.lock(job.id()) + ":*");
            }
        }
        return keys.stream().distinct().toList();
    }

    /** Each long job's execution and chunk records, and its entities' when it runs per entity. */
    private static List<String> longRuns(List<JobDefinition> jobs) {
        List<String> keys = new ArrayList<>();
        for (JobDefinition job : jobs) {
            if (!job.isLong()) {
                continue;
            }
            keys.add(LedgerLayout.longRun(job.id()));
            keys.add(LedgerLayout.chunks(job.id()));
            if (job.isPerEntity()) {
                keys.add(LedgerLayout.longRun(job.id()) + ":*");
                keys.add(LedgerLayout.entityChunks(job.id()));
            }
        }
        return keys;
    }

    /** The entities' items of each per-entity job, as a pattern: the job's item, then {@code :*}. */
    private static List<String> perEntity(List<JobDefinition> jobs, java.util.function.Function<String, String> item) {
        return jobs.stream()
                .filter(JobDefinition::isPerEntity)
                .map(job -> item.apply(job.id()) + ":*")
                .toList();
    }
}
