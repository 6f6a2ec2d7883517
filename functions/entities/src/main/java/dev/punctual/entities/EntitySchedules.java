package dev.punctual.entities;

import dev.punctual.entity.EntitySchedule;
import dev.punctual.entity.EntityScheduleException;
import dev.punctual.entity.EntityScheduleName;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.ledger.CompletedPage;
import dev.punctual.ledger.CompletedShards;
import dev.punctual.ledger.RunRecord;
import dev.punctual.observability.VisibleText;
import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.services.scheduler.SchedulerClient;
import software.amazon.awssdk.services.scheduler.SchedulerClientBuilder;
import software.amazon.awssdk.services.scheduler.model.ConflictException;
import software.amazon.awssdk.services.scheduler.model.GetScheduleResponse;
import software.amazon.awssdk.services.scheduler.model.ResourceNotFoundException;
import software.amazon.awssdk.services.scheduler.model.ScheduleSummary;

/**
 * What a team's services manage per-entity schedules with: one EventBridge Scheduler schedule per job
 * and entity, named {@link EntityScheduleName#of} in the stage's entity group, whose delivery carries
 * the entity's expression, zone and parameters ({@code ScheduledPayload.forEntity}).
 *
 * <p>Every call checks the job against the catalog (it must be one of its per-entity jobs) and the
 * entity id, and refuses what it cannot accept before anything is sent, naming the field and what is
 * accepted ({@link EntityScheduleException}, {@link EntityTargetsException}). A schedule read back that
 * is not what its name stands for is reported ({@link UnreadableScheduleException}), never returned.
 * A failed call to the API is a {@link SchedulerCallException} naming the operation and the schedule;
 * a failed ledger call (a delete's tombstone, a put's clearing of it) is the ledger's own exception,
 * thrown before any schedule is written.
 *
 * <p>Throttling: a burst of puts (an import, a migration) meets the API's request quotas. The client
 * {@link #clientBuilder} builds uses the SDK's adaptive retry strategy with {@value #MAX_ATTEMPTS}
 * attempts per call: a throttled call backs off and the client lowers its own send rate, instead of
 * failing the put. A client built elsewhere keeps whatever retry strategy it was built with.
 *
 * <p>Thread-safe: it holds no state of its own, and the SDK client is thread-safe.
 */
public final class EntitySchedules {

    /** SDK attempts per call, throttled ones included, in the client {@link #clientBuilder} builds. */
    public static final int MAX_ATTEMPTS = 8;

    /** ListSchedules' largest page. */
    static final int PAGE_SIZE = 100;

    /**
     * Rounds of read-then-write one put makes. A round ends early only when another put or a delete of
     * the same entity changed the schedule between its read and its write; a few cover any real contention.
     */
    static final int MAX_ROUNDS = 5;

    private final SchedulerClient scheduler;
    private final JobCatalog catalog;
    private final EntityTargets targets;
    private final EntityTombstones tombstones;
    private final int pageSize;

    /**
     * For a team's service: {@code new EntitySchedules(scheduler, catalog, EntityTargets.fromStageOutputs(
     * outputs, catalog), EntityTombstones.onStage(dynamo, outputs, "billing-service"))}.
     *
     * @param scheduler the caller's client, which it keeps owning (and closes)
     * @param catalog the jobs; only its per-entity jobs are accepted
     * @param targets the stage's group and its pools' targets
     * @param tombstones the stage's ledger, which a delete marks and a put clears
     */
    public EntitySchedules(
            SchedulerClient scheduler, JobCatalog catalog, EntityTargets targets, EntityTombstones tombstones) {
        this(scheduler, catalog, targets, tombstones, PAGE_SIZE);
    }

    /** With a smaller page, so a test crosses ListSchedules' pages with a handful of schedules. */
    EntitySchedules(
            SchedulerClient scheduler,
            JobCatalog catalog,
            EntityTargets targets,
            EntityTombstones tombstones,
            int pageSize) {
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.targets = Objects.requireNonNull(targets, "targets");
        this.tombstones = Objects.requireNonNull(tombstones, "tombstones");
        this.pageSize = pageSize;
    }

    /**
     * A Scheduler client builder as this class wants one: the region given (never guessed), the light
     * URLConnection HTTP client, and the adaptive retry strategy (above). Add credentials, an endpoint
     * or interceptors before building; keep the override configuration's retry strategy when replacing it.
     */
    public static SchedulerClientBuilder clientBuilder(Region region) {
        return SchedulerClient.builder()
                .region(Objects.requireNonNull(region, "region"))
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .overrideConfiguration(c -> c.retryStrategy(retryStrategy()));
    }

    /**
     * A client of {@link #clientBuilder} with the default credentials chain.
     *
     * @param endpointOverride another endpoint than the region's, e.g. a local emulator in tests
     */
    public static SchedulerClient schedulerClient(Region region, Optional<URI> endpointOverride) {
        SchedulerClientBuilder builder = clientBuilder(region);
        endpointOverride.ifPresent(builder::endpointOverride);
        return builder.build();
    }

    static RetryStrategy retryStrategy() {
        return AwsRetryStrategy.adaptiveRetryStrategy().toBuilder()
                .maxAttempts(MAX_ATTEMPTS)
                .build();
    }

    /**
     * Makes the entity's schedule the one asked for, idempotently: reads it (GetSchedule); creates it
     * when absent; writes nothing when it is equal in everything Punctual owns (expression and zone as
     * deployed, target and role, input compared as JSON, state ENABLED, no flexible time window,
     * retries, dead-letter queue); replaces it in place (UpdateSchedule, a full replacement, so fields
     * Punctual never sets, such as an end date added by hand, are cleared) when it differs.
     *
     * <p>Concurrent puts of one entity: a create that meets another put's create (ConflictException)
     * reads again and updates only if that one differs, so identical puts end with one schedule and
     * one CREATED. Puts of different states race last-writer-wins, as UpdateSchedule has no condition.
     * A schedule of that name whose input is not this job's for this entity is refused, not replaced.
     *
     * <p>A deleted entity put again: its ledger tombstone is cleared first (before the schedule is
     * written), so its next delivery runs. If the schedule write then fails, the tombstone is already gone
     * and a delivery of the old schedule still in flight would run: repeat the put, or delete.
     *
     * <p>Puts and deletes of one entity at the same time are serialised by the entity's write lock on its
     * ledger item ({@link EntityTombstones#write}, issue 40), held from the tombstone's clearing to the
     * schedule write and renewed before it: one waits for the other, so the scheduler and the ledger end
     * as the later of them left both (never a schedule whose deliveries its tombstone refuses). A writer
     * that stops while holding it holds the entity's writes for its term, two minutes.
     *
     * <p>Cost: on the ledger, the lock's take and release, one conditional UpdateItem clearing the
     * tombstone (refused, at one write unit, unless the entity was deleted) and, unless UNCHANGED, the
     * lock's renewal and one UpdateItem noting the entity's next occurrence for the due watch (decision
     * 0031); on the scheduler one GetSchedule, plus, unless UNCHANGED, one CreateSchedule or UpdateSchedule.
     *
     * @param desired checked again here ({@link EntitySchedule#of}), as its record constructor checks nothing
     * @return what the put did
     */
    public PutResult put(EntitySchedule desired) {
        Objects.requireNonNull(desired, "desired");
        JobDefinition definition = perEntityJob(desired.job());
        EntitySchedule checked = EntitySchedule.of(
                definition,
                desired.entity(),
                desired.schedule().expression().source(),
                desired.schedule().zone().getId(),
                desired.parameters());
        DeployedForm form = DeployedForm.of(
                checked, targets, targets.of(definition.id(), definition.pool().name()));
        String name = checked.name();
        try (EntityTombstones.EntityWrite lock = writeLock("put", checked.job(), checked.entity(), name)) {
            // Under the entity's write lock no delete of it interleaves (issue 40): its tombstone is lifted
            // once, before the schedule is written. A ledger failure throws here, before any schedule write.
            tombstones.clear(checked.job(), checked.entity());
            for (int round = 1; round <= MAX_ROUNDS; round++) {
                Optional<GetScheduleResponse> current = read(name);
                if (current.isEmpty()) {
                    requireStill(lock, "put", name);
                    if (create(form, name)) {
                        tombstones.noteDue(checked.job(), checked.entity(), checked.schedule());
                        return PutResult.CREATED;
                    }
                    continue; // created by a writer outside the lock (a hand edit): compare with it next round
                }
                if (!ReadBack.isOf(current.get(), checked.job(), checked.entity())) {
                    throw ReadBack.notOf(where(name), current.get(), checked.job(), checked.entity());
                }
                if (form.sameAs(current.get())) {
                    return PutResult.UNCHANGED;
                }
                requireStill(lock, "put", name);
                if (update(form, name)) {
                    tombstones.noteDue(checked.job(), checked.entity(), checked.schedule());
                    return PutResult.UPDATED;
                }
                // deleted between the read and the update (outside the lock): the next round creates it
            }
        }
        throw new SchedulerCallException(
                "put",
                where(name),
                "the schedule changed between read and write in each of " + MAX_ROUNDS + " rounds (writers other"
                        + " than this client, such as hand edits, at the same time); it may hold any of their states,"
                        + " repeat the put to make it this one");
    }

    /**
     * The entity's write lock (issue 40), waited for while another put or delete of it holds it.
     *
     * @throws SchedulerCallException when another writer held it beyond {@link EntityTombstones#WRITE_WAIT}
     */
    private EntityTombstones.EntityWrite writeLock(String operation, String job, String entity, String name) {
        return tombstones
                .write(job, entity)
                .orElseThrow(() -> new SchedulerCallException(
                        operation,
                        where(name),
                        "another put or delete of this entity held its write lock on the ledger for over "
                                + EntityTombstones.WRITE_WAIT.toSeconds() + " s (one that stopped holds it "
                                + EntityTombstones.WRITE_TERM.toSeconds() + " s); nothing was written, repeat the "
                                + operation));
    }

    /** Before a schedule write: the lock is still ours, so no other put or delete of the entity came between. */
    private void requireStill(EntityTombstones.EntityWrite lock, String operation, String name) {
        if (!lock.renew()) {
            throw new SchedulerCallException(
                    operation,
                    where(name),
                    "this " + operation + " took longer than its write lock's "
                            + EntityTombstones.WRITE_TERM.toSeconds()
                            + " s and another put or delete of the entity took it; the schedule was not written by"
                            + " this one, repeat the " + operation + " if it should stand");
        }
    }

    /**
     * The entity's schedule as it is deployed, read back through its input; empty when it has none.
     *
     * @throws UnreadableScheduleException when the schedule is not one {@link EntitySchedule#of} accepts
     *     (edited by hand) or not Punctual's; a put replaces the former, a delete removes either
     */
    public Optional<EntitySchedule> get(String job, String entity) {
        JobDefinition definition = perEntityJob(job);
        String name = EntityScheduleName.of(job, entity);
        return read(name).map(current -> ReadBack.entitySchedule(current, definition, entity, where(name)));
    }

    /**
     * For an entity without a schedule in the group: what the ledger says of it, so an {@code at()} entity
     * whose schedule the scheduler deleted after its delivery (decision 0043) is answered as completed
     * rather than unknown. Empty while the schedule exists (ask {@link #get}), and for an entity the ledger
     * never saw delivered or that was deleted (its tombstone).
     *
     * <p>Cost: one GetSchedule, then one consistent GetItem on the entity's ledger item and, when its slot
     * is behind its cursor, one on the run item there. Needs {@code dynamodb:GetItem} on the ledger: the
     * stage's operator policy grants it, the services' policy does not.
     */
    public Optional<CompletedSchedule> completed(String job, String entity) {
        perEntityJob(job);
        if (read(EntityScheduleName.of(job, entity)).isPresent()) {
            return Optional.empty();
        }
        return CompletedSchedule.from(
                job,
                entity,
                tombstones.state(job, entity),
                at -> tombstones.run(job, entity, at).map(RunRecord::status));
    }

    /**
     * Deletes the entity: first its ledger tombstone (decision 0029, 8), so a delivery already in flight
     * (a scheduler or Lambda retry, a redrive) is recorded as an ENTITY_DELETED skip and never run, then
     * its schedule. Its run items stay for their retention. A repeated delete is harmless: the first
     * tombstone stays. The tombstone is written even when there is no schedule (a delete that failed
     * after its tombstone is simply repeated); a put of the entity clears it.
     *
     * <p>Under the entity's write lock, as {@link #put}: a put and a delete of one entity never interleave.
     *
     * <p>Cost: four UpdateItems on the ledger (the lock's take, the tombstone, the lock's renewal and
     * release) and one DeleteSchedule.
     *
     * @return false when the entity had no schedule
     */
    public boolean delete(String job, String entity) {
        perEntityJob(job);
        String name = EntityScheduleName.of(job, entity);
        try (EntityTombstones.EntityWrite lock = writeLock("delete", job, entity, name)) {
            // A ledger failure throws here, before the schedule is touched: it stays until a tombstone stands.
            tombstones.tombstone(job, entity);
            requireStill(lock, "delete", name);
            try {
                scheduler.deleteSchedule(r -> r.groupName(targets.group()).name(name));
                return true;
            } catch (ResourceNotFoundException e) {
                return false;
            } catch (SdkException e) {
                throw new SchedulerCallException("DeleteSchedule", where(name), e);
            }
        }
    }

    /**
     * A page of the job's completed one-time entities, from the ledger (decision 0047): each {@code at()}
     * entity whose delivery's completion left it with no next occurrence, with that occurrence and its
     * status, as the completion noted it; an entity deleted since is left out. The scheduler is not asked:
     * an entity put again after its completion is still listed here until its new {@code at()} completes,
     * so a caller that also lists the group shows such an entity as live and drops its row here.
     *
     * <p>Cost: one eventually consistent Query per shard the page touches (at most 32, each a read unit for
     * up to 8 KB of notes) and one consistent GetItem per note read. Needs {@code dynamodb:Query} and
     * {@code dynamodb:GetItem} on the ledger table: the stage's operator policy grants both, the services'
     * policy neither.
     *
     * @param from {@link CompletedShards.Position#START}, or where the previous page's {@code next} points
     * @param limit at most this many notes read, 1-{@value CompletedPage#MAX_LIMIT}
     */
    public CompletedPage completedPage(String job, CompletedShards.Position from, int limit) {
        perEntityJob(job);
        return tombstones.completed(job, from, limit);
    }

    /**
     * Every entity schedule of the job in the group, by entity id.
     *
     * <p>Cost: ListSchedules returns names, not inputs, so this makes one ListSchedules call per 100
     * schedules (NamePrefix {@code job.}, every page) and then one GetSchedule per schedule: 10,000
     * entities are about 10,100 calls, paced by the account's GetSchedule quota (the adaptive retry
     * backs off when throttled). For a service that needs to enumerate often, keep its own index of
     * entities instead. A schedule deleted between the listing and its read is left out.
     *
     * @throws UnreadableScheduleException for the first schedule that does not read back (see {@link #get})
     */
    public List<EntitySchedule> list(String job) {
        JobDefinition definition = perEntityJob(job);
        // A job id holds no '.', so "job." never matches another job's names.
        String prefix = job + ".";
        List<String> names = new ArrayList<>();
        try {
            for (ScheduleSummary summary : scheduler
                    .listSchedulesPaginator(
                            r -> r.groupName(targets.group()).namePrefix(prefix).maxResults(pageSize))
                    .schedules()) {
                names.add(summary.name());
            }
        } catch (SdkException e) {
            throw new SchedulerCallException("ListSchedules", where(prefix + "*"), e);
        }
        List<EntitySchedule> schedules = new ArrayList<>();
        for (String name : names) {
            read(name).ifPresent(current -> schedules.add(ReadBack.listed(current, definition, name, where(name))));
        }
        schedules.sort(Comparator.comparing(EntitySchedule::entity));
        return List.copyOf(schedules);
    }

    /** The group the schedules are in. */
    public String group() {
        return targets.group();
    }

    /** The schedule of that name in the group, as stored; empty when there is none (the reconcile's reads too). */
    Optional<GetScheduleResponse> read(String name) {
        try {
            return Optional.of(
                    scheduler.getSchedule(r -> r.groupName(targets.group()).name(name)));
        } catch (ResourceNotFoundException e) {
            return Optional.empty();
        } catch (SdkException e) {
            throw new SchedulerCallException("GetSchedule", where(name), e);
        }
    }

    /** False when another put created it first. */
    private boolean create(DeployedForm form, String name) {
        try {
            scheduler.createSchedule(form.createRequest(targets.group(), name));
            return true;
        } catch (ConflictException e) {
            return false;
        } catch (SdkException e) {
            throw new SchedulerCallException("CreateSchedule", where(name), e);
        }
    }

    /** False when it was deleted since it was read. */
    private boolean update(DeployedForm form, String name) {
        try {
            scheduler.updateSchedule(form.updateRequest(targets.group(), name));
            return true;
        } catch (ResourceNotFoundException e) {
            return false;
        } catch (SdkException e) {
            throw new SchedulerCallException("UpdateSchedule", where(name), e);
        }
    }

    private JobDefinition perEntityJob(String job) {
        Optional<JobDefinition> found = job == null ? Optional.empty() : catalog.find(job);
        if (found.isEmpty()) {
            throw new EntityScheduleException(
                    "job",
                    "'" + (job == null ? "(none)" : VisibleText.escaped(job)) + "' is not a job of the catalog;"
                            + " accepted: " + perEntityJobs());
        }
        if (!found.get().isPerEntity()) {
            throw new EntityScheduleException(
                    "job",
                    "'" + job + "' has one schedule of its own, not one per entity; accepted: " + perEntityJobs());
        }
        return found.get();
    }

    private String perEntityJobs() {
        List<String> ids = catalog.jobs().stream()
                .filter(JobDefinition::isPerEntity)
                .map(JobDefinition::id)
                .toList();
        return ids.isEmpty()
                ? "none (the catalog declares no job with perEntity(...))"
                : "a job declared with perEntity(...): " + String.join(", ", ids);
    }

    private String where(String name) {
        return targets.group() + "/" + name;
    }
}
