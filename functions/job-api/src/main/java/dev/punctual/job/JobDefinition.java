package dev.punctual.job;

import dev.punctual.catchup.CatchUpPolicy;
import dev.punctual.ledger.Retention;
import dev.punctual.time.Blackout;
import dev.punctual.time.CalendarRule;
import dev.punctual.time.Exclusion;
import dev.punctual.time.Exclusions;
import dev.punctual.time.HolidayCalendar;
import dev.punctual.time.OccurrenceCalculator;
import dev.punctual.time.Schedule;
import dev.punctual.time.Spread;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Everything about one job, written once: the Lambda runtime runs it from this and the CDK app deploys
 * its schedule, function pool and alarms from this.
 *
 * @param id stable id: the run items' key, the schedule's name, the metric dimension
 * @param schedule expression and IANA zone
 * @param lockGroup jobs sharing a group never overlap; the job's own id unless shared
 * @param catchUp how many missed occurrences it may replay, and how old
 * @param maxAttempts failed attempts of one occurrence before it is exhausted
 * @param retention how long its run items are kept
 * @param pool the function that hosts it
 * @param destructive refused (SKIP DESTRUCTIVE_DISABLED) unless the stage allows destructive jobs
 * @param externalDelivery it sends push or mail through its delivery port
 * @param perJobMetrics publishes its own CloudWatch metrics (dimension {@code job}) besides the stage-wide
 *     ones; off by default because each job's metrics are billed per metric and month (docs/cost.md)
 * @param safeToVerify {@code punctual verify --activate} may run it once in a deployed stage: its run has
 *     no effect a person would notice (no destructive change, deliveries suppressed where delivery is off)
 * @param tables the tables it uses: the CDK app creates them and grants its pool's function their actions
 * @param description one line for people
 * @param factory builds the job from the services the runtime provides
 * @param perEntity set for a job that runs per entity ({@link EntityJob}): its schedules are created at
 *     runtime, one per entity, and the stage deploys none for it; null for a job with one schedule
 * @param startDeadline the latest an occurrence may start after its time (maximum lateness, decision 0032):
 *     a delivery or catch-up later than that is recorded as a SKIP DEADLINE_PASSED and counted as missed,
 *     never run; null for none (an occurrence runs however late its delivery or catch-up comes)
 * @param exclusions what takes occurrences out of the schedule (decision 0034): the job's calendar rule
 *     and blackouts, then its lock group's and the catalog's; an excluded occurrence is recorded as a SKIP
 *     CALENDAR or BLACKOUT, never run, never due and never counted as missed
 * @param spread where in its spread window the job's schedule fires (decision 0035): deployed its offset
 *     after each occurrence, which is still what runs; null for a schedule deployed at its occurrences
 * @param longRun set for a job that runs long ({@link LongJob}, decision 0039): each occurrence is one Step
 *     Functions execution of plan, chunks and finish; null for a job that runs in one invocation
 * @param freshWithin the longest a job may go without a success before the watchdog reports it stale
 *     (decision 0042); null to take the stage's default ({@link dev.punctual.stage.StageFreshness}),
 *     {@link #NOT_WATCHED_FOR_FRESHNESS} to opt out of it
 * @param approval whether an occurrence runs only after an operator approved it (decision 0041); an
 *     occurrence without an approval is recorded as a SKIP UNAPPROVED, never run, and pages
 */
public record JobDefinition(
        String id,
        Schedule schedule,
        String lockGroup,
        CatchUpPolicy catchUp,
        int maxAttempts,
        Retention retention,
        FunctionPool pool,
        boolean destructive,
        boolean externalDelivery,
        boolean perJobMetrics,
        boolean safeToVerify,
        List<JobTable> tables,
        String description,
        Function<JobServices, Job> factory,
        EntityJob perEntity,
        Duration startDeadline,
        Exclusions exclusions,
        JobSpread spread,
        LongRun longRun,
        Duration freshWithin,
        ApprovalRule approval) {

    /**
     * The longest start deadline accepted: EventBridge Scheduler's longest maximum event age. A scheduler
     * delivery never arrives later than that, so a longer deadline would only ever be met by catch-up, whose
     * own age bound ({@code catchUp.maxAge}) already says how late is too late.
     */
    public static final Duration LONGEST_START_DEADLINE = Duration.ofHours(24);

    /**
     * A job's {@code freshWithin} that opts it out of freshness, whatever the stage's default: the zero
     * duration, which no bound can be.
     */
    public static final Duration NOT_WATCHED_FOR_FRESHNESS = Duration.ZERO;

    /**
     * The shortest freshness bound accepted: the watchdog looks once an hour (minute 7), so a bound of an
     * hour or less would flap between two looks at a job that runs every few minutes.
     */
    public static final Duration SHORTEST_FRESH_WITHIN = dev.punctual.stage.StageFreshness.SHORTEST;

    /**
     * Added to one period of the schedule for the shortest bound a job may have: a daily job that
     * succeeded at 09:00:30 yesterday is not stale at 09:07 today before today's run has finished. The
     * watchdog's cadence (an hour) covers the run's own length and the scheduler's retries.
     */
    public static final Duration FRESHNESS_SLACK = dev.punctual.stage.StageFreshness.SLACK;

    /**
     * The longest freshness bound accepted: a year and a month, so a yearly job can have one. The last
     * success lives on the job's lock item, which never expires, so the bound is not limited by retention.
     */
    public static final Duration LONGEST_FRESH_WITHIN = dev.punctual.stage.StageFreshness.LONGEST;

    private static final String ID = "[a-z][a-z0-9-]{0,47}";

    public JobDefinition {
        Objects.requireNonNull(schedule, "schedule");
        Objects.requireNonNull(catchUp, "catchUp");
        Objects.requireNonNull(retention, "retention");
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(factory, "factory");
        description = description == null ? "" : description;
        exclusions = exclusions == null ? Exclusions.NONE : exclusions;
        approval = approval == null ? ApprovalRule.NEVER : approval;
        tables = tables == null ? List.of() : List.copyOf(tables);
        check(
                id != null && id.matches(ID),
                id,
                "id",
                id,
                "lower-case letters, digits and '-', starting with a letter, 1-48");
        lockGroup = lockGroup == null ? id : lockGroup;
        check(lockGroup.matches(ID), id, "lockGroup", lockGroup, "the same form as a job id");
        check(maxAttempts >= 1 && maxAttempts <= 10, id, "maxAttempts", Integer.toString(maxAttempts), "1 to 10");
        java.util.Optional<Duration> period = schedule.longestPeriod();
        if (period.isPresent() && !catchUp.reachesBackOne(period.get())) {
            // A weekly job with "3 within 2 days" ran nothing after a six-week outage and said nothing:
            // the next delivery always comes a week after what it missed.
            throw new CatalogDefinitionException("job " + id + ": catchUp '" + catchUp.describe()
                    + "' is not accepted: its"
                    + " maxAge is shorter than one period of the schedule (" + period.get() + " between occurrences),"
                    + " so nothing missed could ever be caught up; expected a maxAge of at least " + period.get()
                    + ", e.g. CatchUpPolicy.oldestFirst(" + Math.max(1, catchUp.maxOccurrences()) + ", "
                    + javaSource(period.get()
                            .multipliedBy(Math.max(1, catchUp.maxOccurrences()))
                            .plusHours(1))
                    + "), or CatchUpPolicy.none() to catch up nothing");
        }
        if (startDeadline != null) {
            check(
                    startDeadline.isPositive() && startDeadline.compareTo(LONGEST_START_DEADLINE) <= 0,
                    id,
                    "startDeadline",
                    startDeadline.toString(),
                    "a positive duration of at most " + LONGEST_START_DEADLINE
                            + " (the scheduler's longest event age), e.g. Duration.ofMinutes(10)");
        }
        for (Exclusion exclusion : exclusions.items()) {
            if (exclusion instanceof CalendarRule rule) {
                // An entity names its own zone: one calendar read in the job's zone would be wrong for most.
                check(
                        perEntity == null,
                        id,
                        "calendar",
                        rule.calendar().name(),
                        "a job with one schedule"
                                + " (a per-entity job's entities each name their own zone; a calendar is not read per entity)");
                check(
                        rule.zone().equals(schedule.zone()),
                        id,
                        "calendar zone",
                        rule.zone().getId(),
                        "the job's own zone " + schedule.zone().getId());
            }
        }
        if (freshWithin != null && !freshWithin.equals(NOT_WATCHED_FOR_FRESHNESS)) {
            checkFreshWithin(id, freshWithin, schedule, perEntity != null);
        }
        if (longRun != null) {
            // Each attempt of a chunk writes history events; the chunk bound holds only up to this many.
            check(
                    maxAttempts <= LongRun.MOST_ATTEMPTS,
                    id,
                    "maxAttempts",
                    Integer.toString(maxAttempts),
                    "1 to " + LongRun.MOST_ATTEMPTS + " for a long job (each chunk's retries are written to the"
                            + " execution's history, which holds 25,000 events)");
        }
        if (spread != null) {
            // An entity names its own schedule: its place in the window is the entity's (EntityJob.spreadOver).
            check(
                    perEntity == null,
                    id,
                    "spreadOver",
                    spread.window().describe(),
                    "a job with one schedule (a per-entity job spreads its entities with EntityJob.spreadOver)");
            // Only the hash is checked here, not the exactness proof JobSpread.of made: every copy of the
            // definition (withExclusions at catalog load, on cold start) would prove it again, and an inexact
            // offset is refused where it is deployed (StageStack, naming the job).
            check(
                    spread.wantedMinutes() == spread.window().offsetMinutes(id),
                    id,
                    "spread",
                    spread.describe(),
                    "JobSpread.of(window, id, schedule): the offset is derived from the job's id and schedule");
            if (startDeadline != null) {
                // Fired up to window - 1 minutes late by design, it would be skipped as too late on every run.
                check(
                        startDeadline.compareTo(spread.window().window()) >= 0,
                        id,
                        "spreadOver",
                        spread.window().describe(),
                        "a window no longer than the startDeadline " + startDeadline
                                + " (the schedule fires up to the window less a minute after each occurrence)");
            }
        }
    }

    /** Without a freshness bound of its own or an approval rule (the form before decisions 0041 and 0042). */
    public JobDefinition(
            String id,
            Schedule schedule,
            String lockGroup,
            CatchUpPolicy catchUp,
            int maxAttempts,
            Retention retention,
            FunctionPool pool,
            boolean destructive,
            boolean externalDelivery,
            boolean perJobMetrics,
            boolean safeToVerify,
            List<JobTable> tables,
            String description,
            Function<JobServices, Job> factory,
            EntityJob perEntity,
            Duration startDeadline,
            Exclusions exclusions,
            JobSpread spread,
            LongRun longRun) {
        this(
                id,
                schedule,
                lockGroup,
                catchUp,
                maxAttempts,
                retention,
                pool,
                destructive,
                externalDelivery,
                perJobMetrics,
                safeToVerify,
                tables,
                description,
                factory,
                perEntity,
                startDeadline,
                exclusions,
                spread,
                longRun,
                null,
                ApprovalRule.NEVER);
    }

    /** A job that runs in one invocation (the form before decision 0039). */
    public JobDefinition(
            String id,
            Schedule schedule,
            String lockGroup,
            CatchUpPolicy catchUp,
            int maxAttempts,
            Retention retention,
            FunctionPool pool,
            boolean destructive,
            boolean externalDelivery,
            boolean perJobMetrics,
            boolean safeToVerify,
            List<JobTable> tables,
            String description,
            Function<JobServices, Job> factory,
            EntityJob perEntity,
            Duration startDeadline,
            Exclusions exclusions,
            JobSpread spread) {
        this(
                id,
                schedule,
                lockGroup,
                catchUp,
                maxAttempts,
                retention,
                pool,
                destructive,
                externalDelivery,
                perJobMetrics,
                safeToVerify,
                tables,
                description,
                factory,
                perEntity,
                startDeadline,
                exclusions,
                spread,
                (LongRun) null);
    }

    /** Without a spread (the form before decision 0035). */
    public JobDefinition(
            String id,
            Schedule schedule,
            String lockGroup,
            CatchUpPolicy catchUp,
            int maxAttempts,
            Retention retention,
            FunctionPool pool,
            boolean destructive,
            boolean externalDelivery,
            boolean perJobMetrics,
            boolean safeToVerify,
            List<JobTable> tables,
            String description,
            Function<JobServices, Job> factory,
            EntityJob perEntity,
            Duration startDeadline,
            Exclusions exclusions) {
        this(
                id,
                schedule,
                lockGroup,
                catchUp,
                maxAttempts,
                retention,
                pool,
                destructive,
                externalDelivery,
                perJobMetrics,
                safeToVerify,
                tables,
                description,
                factory,
                perEntity,
                startDeadline,
                exclusions,
                (JobSpread) null);
    }

    /** With a start deadline and no calendar or blackout (the form before decision 0034). */
    public JobDefinition(
            String id,
            Schedule schedule,
            String lockGroup,
            CatchUpPolicy catchUp,
            int maxAttempts,
            Retention retention,
            FunctionPool pool,
            boolean destructive,
            boolean externalDelivery,
            boolean perJobMetrics,
            boolean safeToVerify,
            List<JobTable> tables,
            String description,
            Function<JobServices, Job> factory,
            EntityJob perEntity,
            Duration startDeadline) {
        this(
                id,
                schedule,
                lockGroup,
                catchUp,
                maxAttempts,
                retention,
                pool,
                destructive,
                externalDelivery,
                perJobMetrics,
                safeToVerify,
                tables,
                description,
                factory,
                perEntity,
                startDeadline,
                Exclusions.NONE);
    }

    /**
     * The job's occurrences: its schedule's minus its exclusions. Every path that asks which occurrences
     * the job has asks this (decision 0034).
     */
    public OccurrenceCalculator occurrences() {
        return OccurrenceCalculator.of(schedule, exclusions);
    }

    /** The same job with more exclusions after its own: its lock group's and the catalog's blackouts. */
    public JobDefinition withExclusions(List<? extends Exclusion> more) {
        return new JobDefinition(
                id,
                schedule,
                lockGroup,
                catchUp,
                maxAttempts,
                retention,
                pool,
                destructive,
                externalDelivery,
                perJobMetrics,
                safeToVerify,
                tables,
                description,
                factory,
                perEntity,
                startDeadline,
                exclusions.plus(more),
                spread,
                longRun,
                freshWithin,
                approval);
    }

    /**
     * The freshness bound the watchdog holds this job to (decision 0042): its own {@code freshWithin}, else
     * the stage's default for its schedule; empty when it opted out, when the stage sets no default, or for a
     * per-entity job (its successes are its entities', which the watchdog does not read one by one).
     */
    public java.util.Optional<Duration> freshnessBound(dev.punctual.stage.StageFreshness stage) {
        if (freshWithin != null) {
            return freshWithin.equals(NOT_WATCHED_FOR_FRESHNESS)
                    ? java.util.Optional.empty()
                    : java.util.Optional.of(freshWithin);
        }
        if (perEntity != null) {
            return java.util.Optional.empty();
        }
        return schedule.longestPeriod().flatMap(stage::boundFor);
    }

    /** The shortest bound accepted for a schedule: one period plus {@link #FRESHNESS_SLACK}, at least 2 h. */
    public static Duration shortestFreshWithin(Duration period) {
        Duration byPeriod = period.plus(FRESHNESS_SLACK);
        return byPeriod.compareTo(SHORTEST_FRESH_WITHIN) > 0 ? byPeriod : SHORTEST_FRESH_WITHIN;
    }

    private static void checkFreshWithin(String id, Duration bound, Schedule schedule, boolean perEntity) {
        // Per job, the last success rides on the completion's write of the job's lock item; an entity's
        // completion writes the entity's item, so a per-job bound would cost a write per entity run.
        check(
                !perEntity,
                id,
                "freshWithin",
                bound.toString(),
                "no bound on a per-entity job (its successes are its entities', each on its own item)");
        java.util.Optional<Duration> period = schedule.longestPeriod();
        check(
                period.isPresent(),
                id,
                "freshWithin",
                bound.toString(),
                "no bound on a schedule that does not repeat (it has no period to be fresh within)");
        Duration shortest = shortestFreshWithin(period.get());
        check(
                bound.compareTo(shortest) >= 0 && bound.compareTo(LONGEST_FRESH_WITHIN) <= 0,
                id,
                "freshWithin",
                bound.toString(),
                "a duration from " + javaSource(shortest) + " (one period of the schedule, " + period.get()
                        + ", plus an hour, and at least 2 hours) to " + javaSource(LONGEST_FRESH_WITHIN)
                        + ", or NOT_WATCHED_FOR_FRESHNESS to opt out of the stage's default");
    }

    /** How far after each occurrence the deployed schedule fires: the spread's offset, 0 without one. */
    public int offsetMinutes() {
        return spread == null ? 0 : spread.offsetMinutes();
    }

    /**
     * What EventBridge Scheduler is given for this job: its schedule's deployment shifted by its spread
     * offset (decision 0035). Every place that deploys, checks or shows the deployed form asks this.
     */
    public Schedule.Deployment deployment() {
        return schedule.deployment(offsetMinutes());
    }

    /** With one schedule or per entity, without a start deadline (the form before decision 0032). */
    public JobDefinition(
            String id,
            Schedule schedule,
            String lockGroup,
            CatchUpPolicy catchUp,
            int maxAttempts,
            Retention retention,
            FunctionPool pool,
            boolean destructive,
            boolean externalDelivery,
            boolean perJobMetrics,
            boolean safeToVerify,
            List<JobTable> tables,
            String description,
            Function<JobServices, Job> factory,
            EntityJob perEntity) {
        this(
                id,
                schedule,
                lockGroup,
                catchUp,
                maxAttempts,
                retention,
                pool,
                destructive,
                externalDelivery,
                perJobMetrics,
                safeToVerify,
                tables,
                description,
                factory,
                perEntity,
                null);
    }

    /** The start deadline, if the job has one ({@link #startDeadline()}). */
    public java.util.Optional<Duration> deadline() {
        return java.util.Optional.ofNullable(startDeadline);
    }

    /** A job with one schedule, deployed with the stage (the form before entity jobs). */
    public JobDefinition(
            String id,
            Schedule schedule,
            String lockGroup,
            CatchUpPolicy catchUp,
            int maxAttempts,
            Retention retention,
            FunctionPool pool,
            boolean destructive,
            boolean externalDelivery,
            boolean perJobMetrics,
            boolean safeToVerify,
            List<JobTable> tables,
            String description,
            Function<JobServices, Job> factory) {
        this(
                id,
                schedule,
                lockGroup,
                catchUp,
                maxAttempts,
                retention,
                pool,
                destructive,
                externalDelivery,
                perJobMetrics,
                safeToVerify,
                tables,
                description,
                factory,
                (EntityJob) null);
    }

    /** Whether the job runs long: one Step Functions execution per occurrence ({@link #longRun()}). */
    public boolean isLong() {
        return longRun != null;
    }

    /**
     * Whether an occurrence of the job runs only after an operator approved it in a stage that does (or does
     * not) allow destructive jobs (decision 0041).
     */
    public boolean requiresApproval(boolean destructiveEnabled) {
        return approval.requiredIn(destructiveEnabled);
    }

    /** Whether the job runs per entity, with schedules created at runtime ({@link #perEntity()}). */
    public boolean isPerEntity() {
        return perEntity != null;
    }

    public static Builder builder(String id) {
        return new Builder(id);
    }

    /**
     * A duration as the Java that makes it, for a suggestion a team can paste: {@code Duration.ofHours(169)},
     * never its ISO form ({@code PT169H}), which is not Java.
     */
    static String javaSource(Duration duration) {
        if (duration.toSeconds() % 86_400 == 0) {
            return "Duration.ofDays(" + duration.toDays() + ")";
        }
        if (duration.toSeconds() % 3_600 == 0) {
            return "Duration.ofHours(" + duration.toHours() + ")";
        }
        if (duration.toSeconds() % 60 == 0) {
            return "Duration.ofMinutes(" + duration.toMinutes() + ")";
        }
        return "Duration.ofSeconds(" + duration.toSeconds() + ")";
    }

    private static void check(boolean ok, String job, String field, String given, String accepted) {
        if (!ok) {
            throw new CatalogDefinitionException(
                    "job " + job + ": " + field + " '" + given + "' is not accepted; expected " + accepted);
        }
    }

    /** Fluent construction with Punctual's defaults; {@code schedule} and {@code job} are required. */
    public static final class Builder {
        private final String id;
        private Schedule schedule;
        private String lockGroup;
        /** Unset: {@link CatchUpPolicy#defaultFor} the job's schedule (3 occurrences within 3 periods, at least 6 h). */
        private CatchUpPolicy catchUp;

        private int maxAttempts = 3;
        private Retention retention = Retention.DEFAULT;
        private FunctionPool pool = FunctionPool.DEFAULT;
        private boolean destructive;
        private boolean externalDelivery;
        private boolean perJobMetrics;
        private boolean safeToVerify;
        private final List<JobTable> tables = new ArrayList<>();
        private String description = "";
        private Function<JobServices, Job> factory;
        private EntityJob perEntity;
        private Duration startDeadline;
        private final List<HolidayCalendar> businessDaysOf = new ArrayList<>();
        private final List<HolidayCalendar> exceptDatesOf = new ArrayList<>();
        private final List<Blackout> blackouts = new ArrayList<>();
        private Spread spreadOver;
        private LongRun longRun;
        private Duration freshWithin;
        private ApprovalRule approval = ApprovalRule.NEVER;

        private Builder(String id) {
            this.id = id;
        }

        /** Parses the expression (any accepted dialect) in the given IANA zone; there is no default zone. */
        public Builder schedule(String expression, String zone) {
            this.schedule = Schedule.parse(expression, zone);
            return this;
        }

        public Builder lockGroup(String group) {
            this.lockGroup = group;
            return this;
        }

        /**
         * How much the job catches up after missed occurrences. Unless set: up to 3, oldest first, within 3
         * periods of its schedule and at least 6 hours ({@link CatchUpPolicy#defaultFor}). A policy whose age
         * bound is shorter than one period is refused (it could never replay anything).
         */
        public Builder catchUp(CatchUpPolicy policy) {
            this.catchUp = policy;
            return this;
        }

        public Builder maxAttempts(int attempts) {
            this.maxAttempts = attempts;
            return this;
        }

        public Builder retention(Retention value) {
            this.retention = value;
            return this;
        }

        public Builder pool(FunctionPool value) {
            this.pool = value;
            return this;
        }

        public Builder destructive() {
            this.destructive = true;
            return this;
        }

        /**
         * Every occurrence runs only after an operator approved it ({@code punctual approve JOB --at T},
         * decision 0041), in every stage; one without an approval is recorded as SKIP UNAPPROVED and pages.
         */
        public Builder requiresApproval() {
            this.approval = ApprovalRule.ALWAYS;
            return this;
        }

        /** As {@link #requiresApproval()}, only in stages that allow destructive jobs (see {@link ApprovalRule}). */
        public Builder requiresApprovalWhereDestructiveAllowed() {
            this.approval = ApprovalRule.WHERE_DESTRUCTIVE_ALLOWED;
            return this;
        }

        public Builder externalDelivery() {
            this.externalDelivery = true;
            return this;
        }

        /** Opts in to per-job metrics; see docs/cost.md for what each job's metrics cost. */
        public Builder perJobMetrics() {
            this.perJobMetrics = true;
            return this;
        }

        /** Marks the job as one {@code punctual verify --activate} may run in a deployed stage. */
        public Builder safeToVerify() {
            this.safeToVerify = true;
            return this;
        }

        /** Declares tables the job uses; several jobs may use the same one (the same declaration). */
        public Builder uses(JobTable... used) {
            tables.addAll(List.of(used));
            return this;
        }

        public Builder description(String text) {
            this.description = text;
            return this;
        }

        /**
         * Runs the job per entity, with schedules created at runtime ({@link EntityJob}); the {@link
         * #schedule} given is each entity's default expression (an entity always names its own zone).
         */
        public Builder perEntity(EntityJob entities) {
            this.perEntity = entities;
            return this;
        }

        /**
         * The latest an occurrence may start after its time (Kubernetes' {@code startingDeadlineSeconds}):
         * later, it is recorded as a SKIP DEADLINE_PASSED and counted as missed, never run; a replay runs
         * it only with {@code --force}. Positive, at most {@link #LONGEST_START_DEADLINE}; none unless set.
         */
        public Builder startDeadline(Duration deadline) {
            this.startDeadline = deadline;
            return this;
        }

        /**
         * Runs on business days only: not on Saturdays, Sundays or the calendar's dates, each read in the
         * job's own zone (decision 0034). An excluded occurrence is recorded as SKIP CALENDAR, never run and
         * never counted as missed; one on a date past the calendar's range is refused (CALENDAR_ENDED) and
         * counted as missed, so an out-of-date calendar is alarmed.
         */
        public Builder businessDaysOf(HolidayCalendar calendar) {
            businessDaysOf.add(java.util.Objects.requireNonNull(calendar, "calendar"));
            return this;
        }

        /** Runs on every day of its schedule except the calendar's dates (weekends run): see {@link #businessDaysOf}. */
        public Builder exceptDatesOf(HolidayCalendar calendar) {
            exceptDatesOf.add(java.util.Objects.requireNonNull(calendar, "calendar"));
            return this;
        }

        /**
         * A window with no occurrences of this job (decision 0034): an occurrence inside is recorded as SKIP
         * BLACKOUT with the window's reason, not counted as missed and not caught up afterwards.
         */
        public Builder blackout(Blackout window) {
            blackouts.add(java.util.Objects.requireNonNull(window, "window"));
            return this;
        }

        /**
         * Fires the job's schedule a stable number of whole minutes after each occurrence, within the
         * window (decision 0035): derived from the job's id, the same on every deploy, and cut to what the
         * schedule shifts by exactly (a daylight-saving change or a minute carrying into another hour cuts
         * it). The job still runs, keys and reports the occurrence itself; {@code jobs} and {@code plan}
         * show the offset. 2 to 60 whole minutes, and no longer than a start deadline.
         */
        public Builder spreadOver(Duration window) {
            this.spreadOver = new Spread(window);
            return this;
        }

        /**
         * Runs each occurrence as one Step Functions execution (decision 0039): the job's factory must build a
         * {@link LongJob}, whose plan lists chunks that each run once in an invocation of their own. The
         * stage deploys the state machine; the lock group stays held until the execution's outcome is
         * recorded, for at most {@code limits.maxDuration()}.
         */
        public Builder runsLong(LongRun limits) {
            this.longRun = java.util.Objects.requireNonNull(limits, "limits");
            return this;
        }

        /**
         * The longest the job may go without a success (decision 0042): the hourly watchdog reports it stale
         * (the stage-wide {@code StaleJobs} metric, its alarm, and a {@code JobStale} event naming it) once
         * its last success, or its go-live when it never succeeded, is older. At least one period of its
         * schedule plus an hour (and 2 hours), at most 400 days; unless set, the stage's default applies.
         */
        public Builder freshWithin(Duration bound) {
            this.freshWithin = java.util.Objects.requireNonNull(bound, "bound");
            return this;
        }

        /** Opts the job out of the stage's default freshness bound: it is never reported stale. */
        public Builder notWatchedForFreshness() {
            this.freshWithin = NOT_WATCHED_FOR_FRESHNESS;
            return this;
        }

        public Builder job(Function<JobServices, Job> jobFactory) {
            this.factory = jobFactory;
            return this;
        }

        public JobDefinition build() {
            check(schedule != null, id, "schedule", "(none)", "an expression and an IANA zone");
            check(factory != null, id, "job", "(none)", "a factory building the job");
            return new JobDefinition(
                    id,
                    schedule,
                    lockGroup,
                    catchUp != null ? catchUp : CatchUpPolicy.defaultFor(schedule.longestPeriod()),
                    maxAttempts,
                    retention,
                    pool,
                    destructive,
                    externalDelivery,
                    perJobMetrics,
                    safeToVerify,
                    tables,
                    description,
                    factory,
                    perEntity,
                    startDeadline,
                    exclusions(),
                    spreadOver == null ? null : JobSpread.of(spreadOver, id, schedule),
                    longRun,
                    freshWithin,
                    approval);
        }

        /** The calendars (in the job's zone), then the blackouts, in the order declared. */
        private Exclusions exclusions() {
            List<Exclusion> all = new ArrayList<>();
            businessDaysOf.forEach(c -> all.add(new CalendarRule(c, true, schedule.zone())));
            exceptDatesOf.forEach(c -> all.add(new CalendarRule(c, false, schedule.zone())));
            all.addAll(blackouts);
            return new Exclusions(all);
        }
    }
}
