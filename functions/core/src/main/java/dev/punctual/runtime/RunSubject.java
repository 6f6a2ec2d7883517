package dev.punctual.runtime;

import dev.punctual.entity.EntitySchedule;
import dev.punctual.job.JobContext;
import dev.punctual.job.JobDefinition;
import dev.punctual.ledger.RunKey;
import dev.punctual.time.Schedule;
import java.time.Instant;
import java.util.Optional;

/**
 * Whose occurrences an invocation runs: a job with one schedule, or one entity of a per-entity job. It
 * says which schedule the occurrences follow and under which ledger id their run items and cursor are
 * kept, so the runtime's every path (catch-up, replay, a manual run, the outcome line) reads them from one
 * place instead of from the job's definition.
 *
 * @param job the catalog's definition: the job's code, its guards, its catch-up and attempts
 * @param schedule the occurrences' rules: the job's own, or the entity's expression in the entity's zone
 * @param ledgerId the run items' and cursor's id: the job's id, or {@code job:entity}
 * @param entity the entity and its parameters, for a per-entity job's occurrence
 */
public record RunSubject(JobDefinition job, Schedule schedule, String ledgerId, Optional<JobContext.Entity> entity) {

    /** A job with one schedule. */
    public static RunSubject of(JobDefinition job) {
        return new RunSubject(job, job.schedule(), job.id(), Optional.empty());
    }

    /** One entity of a per-entity job, as its schedule was checked ({@link EntitySchedule#of}). */
    public static RunSubject of(JobDefinition job, EntitySchedule entity) {
        return new RunSubject(
                job,
                entity.schedule(),
                entity.ledgerId(),
                Optional.of(new JobContext.Entity(entity.entity(), entity.parameters())));
    }

    /**
     * The occurrences it runs: its schedule's minus the job's calendar and blackouts (decision 0034), the
     * one view catch-up, replay and the in-order claim all walk.
     */
    public dev.punctual.time.OccurrenceCalculator occurrences() {
        return dev.punctual.time.OccurrenceCalculator.of(schedule, job.exclusions());
    }

    /** The run item of one occurrence. */
    public RunKey key(Instant occurrence) {
        return new RunKey(ledgerId, occurrence);
    }

    /**
     * The lease's group: the job's; for an entity its own ledger id (decision 0029, 5), unless the job
     * keeps its entities under one lease ({@code EntityJob.sharingOneLease()}) or shares a named lock
     * group with other jobs, which its entities must not overlap either.
     */
    public String lockGroup() {
        return ownEntityLease() ? ledgerId : job.lockGroup();
    }

    /** Whether the entity's claims take its own lease, held off by a maintenance hold on the job's group. */
    public boolean ownEntityLease() {
        return entity.isPresent() && EntityLeaseTerms.ownLeases(job);
    }

    /** The entity's id, or null for a job with one schedule (the outcome line's {@code entity}). */
    public String entityId() {
        return entity.map(JobContext.Entity::id).orElse(null);
    }

    /** The name of the schedule that delivers its occurrences: the job's id, or the entity schedule's name. */
    public String scheduleName() {
        return entity.map(e -> dev.punctual.entity.EntityScheduleName.of(job.id(), e.id()))
                .orElse(job.id());
    }

    /** How messages name it: {@code nightly}, or {@code tenant-report for entity acme}. */
    public String described() {
        return entity.map(e -> job.id() + " for entity " + e.id()).orElse(job.id());
    }
}
