package dev.punctual.jepsen;

import dev.punctual.catchup.CatchUpMode;
import dev.punctual.catchup.CatchUpPolicy;
import dev.punctual.hold.HeldMaintenance;
import dev.punctual.hold.HoldListener;
import dev.punctual.hold.HoldOutcome;
import dev.punctual.hold.HoldTerms;
import dev.punctual.job.DeliveryReceipt;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.job.JobServices;
import dev.punctual.job.LongRun;
import dev.punctual.ledger.Claim;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.CompletionResult;
import dev.punctual.ledger.Lease;
import dev.punctual.ledger.MaintenanceHold;
import dev.punctual.ledger.MaintenanceReport;
import dev.punctual.ledger.MaintenanceRequest;
import dev.punctual.ledger.OperatorSkipped;
import dev.punctual.ledger.Outcome;
import dev.punctual.ledger.PauseMark;
import dev.punctual.ledger.PauseOutcome;
import dev.punctual.ledger.ResumeChoice;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.SkipPlan;
import dev.punctual.ledger.SkipReason;
import dev.punctual.ledger.Sleeper;
import dev.punctual.ledger.Trigger;
import dev.punctual.ledger.UnderMaintenance;
import dev.punctual.ledger.dynamodb.DynamoDbRunLedger;
import dev.punctual.ledger.testkit.FaultPlan;
import dev.punctual.longrun.LongExecutions;
import dev.punctual.longrun.stepfunctions.EmulatorStateMachines;
import dev.punctual.longrun.stepfunctions.StepFunctionsExecutions;
import dev.punctual.observability.Redactor;
import dev.punctual.observability.StructuredLog;
import dev.punctual.outcome.Reason;
import dev.punctual.outcome.Verdict;
import dev.punctual.runtime.Deadline;
import dev.punctual.runtime.InvalidPayload;
import dev.punctual.runtime.InvocationResult;
import dev.punctual.runtime.LedgerHistory;
import dev.punctual.runtime.LocalExecutionDriver;
import dev.punctual.runtime.OccurrenceReport;
import dev.punctual.runtime.PunctualRuntime;
import dev.punctual.runtime.RuntimeServices;
import dev.punctual.stage.StageFlags;
import dev.punctual.testing.DynamoDbHarness;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * One OS process of the Jepsen-style suite. A {@code worker} walks the rounds: for each occurrence of
 * each job it delivers the occurrence (to the ledger directly, or as a scheduler payload through
 * PunctualRuntime) until it is done or exhausted, interleaving stale redeliveries and bad payloads. A
 * claimed run sleeps for real, sometimes past its lease, writes its fenced side effect into the domain
 * table, sometimes halts the process right there (before the commit), then completes. An
 * {@code operator} turns maintenance on and off for every group, or holds every group for a command
 * (renewed, then given back, or left to lapse by a command that crashed), and skips single occurrences
 * just ahead of the workers (now and then unskipping one again), so skips race the deliveries, and pauses
 * a lock item for a second or so (resumed with either choice, or left to lapse), so pauses race them too. Every call
 * is written to the process's history file with its times on the reference clock and on the process's
 * own skewed clock.
 *
 * <p>Started by {@link JepsenCluster}; the DynamoDB endpoint comes in {@code PUNCTUAL_DYNAMODB_ENDPOINT}.
 */
public final class JepsenWorker {

    /** The exit code of a process that halted itself between a side effect and its commit. */
    public static final int KILLED_EXIT = 99;

    /** A direct delivery's Lambda has this much time left: the lease is it plus the ledger's 2 s margin. */
    static final long REMAINING_MIN_MS = 200;

    static final long REMAINING_MAX_MS = 800;

    /** A runtime delivery: just over the runtime's own minimum (3 s per occurrence plus 2 s safety). */
    static final Duration RUNTIME_REMAINING = Duration.ofMillis(5500);

    static final Duration RUNTIME_LOCK_WAIT = Duration.ofMillis(400);
    private static final int DELIVERIES_PER_OCCURRENCE = 20;

    /** The stage the runtime runs as: the long job's state machine is {@code punctual-jepsen-close}. */
    static final String STAGE = "jepsen";

    /** The share of a long occurrence's deliveries that are manual runs ({@code kind: run}), not scheduled. */
    static final double MANUAL_RUNS = 0.3;

    /**
     * A group held this far ahead is held by a long claim whose process was killed (its lease lasts the
     * execution's bound): no delivery can settle it in this run, so the workers stop delivering it.
     */
    static final Duration HELD_FOR_GOOD = Duration.ofMinutes(2);

    /** The files whose creation (once per run, by whichever process gets there first) arms a long kill. */
    static final String KILL_BEFORE_START = "kill-long-before-start";

    static final String KILL_BEFORE_CHUNK_RECORD = "kill-long-before-chunk-record";

    /**
     * What the operator waits out for the own-lease entity's group (as {@code EntityLeaseTerms} does for
     * a stage, there 15 minutes): the longest lease an entity run holds here, a runtime delivery's (its
     * remaining time plus the margin; the workers never renew a lease).
     */
    static final Duration ENTITY_LEASE_TERM = RUNTIME_REMAINING.plus(Lease.DEADLINE_MARGIN);

    /** The share of the operator's holds that take the own-lease entity's group alone and wait out its term. */
    static final double DRAINING_HOLDS = 0.15;

    /** The share of the operator's planned skips it removes again soon after, racing the deliveries. */
    static final double UNSKIPPED_SKIPS = 0.3;

    /** The share of the operator's pauses that end by themselves ({@code --until}), the others are resumed. */
    static final double LAPSING_PAUSES = 0.4;

    /**
     * How far behind the console's clock is ({@link #console}): six minutes, so a console's pause in the
     * first minute of a run starts before the later half of the {@code ci} profile's occurrences (all due
     * a minute or more before the run starts), which the workers have not delivered yet.
     */
    static final Duration CONSOLE_LAG = Duration.ofMinutes(6);

    /**
     * How many of a run's pauses come from the lagging console (the first open-ended one, then by chance):
     * each keeps the occurrences of its span refused for good, which the workers then deliver in vain.
     */
    static final int CONSOLE_PAUSES = 2;

    /** How long a pause holds: short, so the workers' deliveries of an occurrence outlast it. */
    static final long PAUSE_MIN_MS = 400;

    static final long PAUSE_MAX_MS = 1500;

    /** How far past a job's cursor the operator's skips land: the next occurrence or one of the two after it. */
    static final int SKIP_REACH = 3;

    /**
     * The share of the operator's holds (once it has both released a command hold and crashed in one)
     * that are command holds (decision 0036) instead of {@code maintenance on}.
     */
    static final double COMMAND_HOLDS = 0.2;

    /** The share of command holds (after the first two: one of each) whose command crashes. */
    static final double CRASHED_COMMANDS = 0.3;

    /**
     * A command hold's lapse: HoldTerms' least (30 s), which HeldMaintenance is built with. The workers'
     * clocks are the machine's (skewed), so a crashed command's hold is waited out for real: every crash
     * costs the run a lapse with every group held. Hence {@link #crashesAtMost}.
     */
    static final Duration LAPSE = HoldTerms.MIN_LAPSE;

    /**
     * A command hold's wait for running jobs: the entity runs' term and a second, as the draining holds
     * wait. HeldMaintenance runs no command on a stage still running a job (it gives the take back), so
     * a shorter wait would never take {@code tenant}, whose entity runs it cannot name.
     */
    static final Duration COMMAND_WAIT = ENTITY_LEASE_TERM.plusMillis(1000);

    /** Renewals of a command hold while its command runs, after the take's own: two or three. */
    static final int RENEWALS_MIN = 2;

    static final int RENEWALS_MAX = 3;

    /**
     * The pause between two renewals while a command runs. HeldMaintenance's own renewer renews every
     * quarter lapse (7.5 s); a tool renewing from a loop of its own may renew more often, as here, so
     * a command lasts a second or two and the run still sees its renewals and its release.
     */
    static final long RENEW_PAUSE_MIN_MS = 300;

    static final long RENEW_PAUSE_MAX_MS = 800;

    /**
     * How many command holds of a run may crash: one per three holds the profile asks for, at least one
     * (the {@code ci} profile: one; {@code long}: four). Each costs the workers a {@link #LAPSE} with every
     * group held, which, left to the dice, would make a slow run slower still.
     */
    static int crashesAtMost(int minHolds) {
        return Math.max(1, minHolds / 3);
    }

    private final WorkerConfig config;
    private final Random random;
    private final Clock clock;
    private final HistoryLog history;
    private final RecordingLedger ledger;

    /**
     * The operator's pauses from a console whose clock is {@link #CONSOLE_LAG} behind (another operator's
     * machine), resumed from the operator's own: a SKIP_PAUSED span then reaches back over occurrences
     * the workers have still to deliver, so "no occurrence inside a kept span is ever granted" is tested on
     * occurrences, not on an empty span (the suite's occurrences are all due before any pause starts).
     */
    private final RecordingLedger console;

    private int consolePauses;
    private final FencedDomain domain;
    private final PunctualRuntime runtime;
    private final InjectedFaults faults;
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong writes = new AtomicLong();
    private final List<DynamoDbClient> clients = new ArrayList<>();
    private final SfnClient sfn;

    /** Held while a chunk's side effect is written and recorded, and by a long kill (see {@code Close}). */
    private final Object effects = new Object();

    private int directRuns;
    private int commandsReleased;
    private int commandsCrashed;

    private JepsenWorker(WorkerConfig config) {
        this.config = config;
        this.random = new Random(config.seed());
        this.clock = Clock.offset(Clock.systemUTC(), Duration.ofMillis(config.skewMs()));
        this.history = HistoryLog.append(HistoryLog.fileFor(config.dir(), config.proc()));
        FaultPlan plan =
                config.faultProbability() > 0 ? new FaultPlan(config.seed() ^ 0x5eed, config.faultProbability()) : null;
        this.faults = new InjectedFaults(plan, requests, writes);
        DynamoDbClient ledgerClient = DynamoDbHarness.newClient(b -> b.overrideConfiguration(c -> {
            c.addExecutionInterceptor(faults);
            if (!config.sdkRetries()) {
                c.retryStrategy(AwsRetryStrategy.doNotRetry());
            }
        }));
        InjectedFaults countOnly = new InjectedFaults(null, requests, writes);
        DynamoDbClient domainClient =
                DynamoDbHarness.newClient(b -> b.overrideConfiguration(c -> c.addExecutionInterceptor(countOnly)));
        clients.add(ledgerClient);
        clients.add(domainClient);
        this.ledger = new RecordingLedger(
                DynamoDbRunLedger.create(
                        ledgerClient,
                        config.ledgerTable(),
                        clock,
                        () -> UUID.randomUUID().toString(),
                        Retention.DEFAULT,
                        Sleeper.real()),
                history,
                config.proc(),
                config.skewMs(),
                clock,
                new LongRunKills());
        Clock consoleClock = Clock.offset(clock, CONSOLE_LAG.negated());
        this.console = new RecordingLedger(
                DynamoDbRunLedger.create(
                        ledgerClient,
                        config.ledgerTable(),
                        consoleClock,
                        () -> UUID.randomUUID().toString(),
                        Retention.DEFAULT,
                        Sleeper.real()),
                history,
                config.proc(),
                config.skewMs() - CONSOLE_LAG.toMillis(),
                consoleClock);
        console.via("operator");
        this.domain = new FencedDomain(domainClient, config.domainTable());
        // moto's Step Functions, on the emulator the ledger is on (no faults injected here: the ledger's are).
        this.sfn = SfnClient.builder()
                .endpointOverride(DynamoDbHarness.backend().endpoint())
                .region(DynamoDbHarness.REGION)
                .credentialsProvider(
                        StaticCredentialsProvider.create(AwsBasicCredentials.create("punctual-test", "punctual-test")))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
        StructuredLog stepLog = new StructuredLog(line -> {}, clock, "punctual", Redactor.standard())
                .forInvocation(config.proc() + "-steps", false);
        // The worker that starts an execution drives its steps, as the emulator's adapter does (decision 0039, 6).
        LongExecutions executions = new LocalExecutionDriver(
                new RecordingExecutions(
                        new StepFunctionsExecutions(sfn, EmulatorStateMachines.prefix(DynamoDbHarness.REGION, STAGE)),
                        ledger),
                this::runtime,
                stepLog,
                clock);
        JobCatalog catalog = catalog();
        this.runtime = new PunctualRuntime(new RuntimeServices(
                        catalog,
                        ledger,
                        new StageFlags(STAGE, true, false, false, RUNTIME_LOCK_WAIT),
                        event -> {},
                        clock,
                        Sleeper.real(),
                        new JobServices(clock, catalog, new LedgerHistory(ledger)),
                        message -> new DeliveryReceipt.Sent(message.channel(), message.recipient()))
                .withExecutions(executions));
    }

    /** The runtime, for the driver built before it (it carries the executions' steps out through it). */
    private PunctualRuntime runtime() {
        return runtime;
    }

    public static void main(String[] args) {
        if (System.getenv(DynamoDbHarness.ENDPOINT_VARIABLE) == null) {
            System.err.println(DynamoDbHarness.ENDPOINT_VARIABLE + " must name the emulator the suite shares");
            System.exit(2);
        }
        WorkerConfig config = WorkerConfig.parse(args);
        JepsenWorker worker = new JepsenWorker(config);
        worker.awaitTheOthers();
        worker.record(worker.instant(Op.Kind.START).detail(String.join(" ", config.toArgs())));
        if (WorkerConfig.OPERATOR.equals(config.role())) {
            worker.operate();
        } else {
            worker.work();
        }
        worker.record(worker.instant(Op.Kind.END).counters(worker.counters()));
        worker.history.close();
        worker.clients.forEach(DynamoDbClient::close);
        worker.sfn.close();
        System.exit(0);
    }

    /**
     * Says it is ready and waits for the cluster's go, so that the first processes' JVMs, which come up
     * seconds apart on a loaded machine, start racing together. A restarted process finds the go there.
     */
    private void awaitTheOthers() {
        try {
            Files.writeString(readyFile(config.dir(), config.proc()), "ready\n");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        while (!Files.exists(goFile(config.dir())) && !Files.exists(stopFile(config.dir()))) {
            sleep(20);
        }
    }

    // ---------------------------------------------------------------- worker

    private void work() {
        for (int round = firstRound(); round < config.rounds() && !stopping(); round++) {
            List<String> jobs = new ArrayList<>(JepsenJobs.JOBS);
            Collections.shuffle(jobs, random);
            for (String job : jobs) {
                if (round < JepsenJobs.roundsOf(job, config.rounds())) {
                    settle(job, round);
                }
            }
        }
    }

    /**
     * Where a (re)started process picks up: the earliest round some job's cursor has not passed yet. A
     * restarted Lambda gets the next deliveries, not every old one again (those come as the stale
     * redeliveries).
     */
    private int firstRound() {
        int first = config.rounds();
        for (String job : JepsenJobs.JOBS) {
            try {
                int next = roundAfterCursor(job);
                if (next < JepsenJobs.roundsOf(job, config.rounds())) {
                    first = Math.min(first, next);
                }
            } catch (RuntimeException unknown) {
                return 0;
            }
        }
        return first;
    }

    /** The first round the ledger id's cursor has not passed; throws when the ledger cannot be read. */
    private int roundAfterCursor(String job) {
        int next = ledger.cursor(job)
                .map(c -> (int) (Duration.between(Instant.ofEpochMilli(config.firstOccurrenceMs()), c)
                                .toMinutes()
                        + 1))
                .orElse(0);
        return Math.max(0, next);
    }

    /** Delivers one occurrence until it is done, exhausted, or the deliveries run out. */
    private void settle(String job, int round) {
        Instant occurrence = JepsenJobs.occurrence(config.firstOccurrenceMs(), round);
        for (int delivery = 1; delivery <= DELIVERIES_PER_OCCURRENCE && !stopping(); delivery++) {
            if (chance(config.refusedShare())) {
                refusedPayload(occurrence);
            }
            if (round > 0 && chance(config.redeliveryShare())) {
                String stale = JepsenJobs.SHORT_JOBS.get(random.nextInt(JepsenJobs.SHORT_JOBS.size()));
                int before = Math.min(round, JepsenJobs.roundsOf(stale, config.rounds()));
                if (before > 0) {
                    direct(stale, JepsenJobs.occurrence(config.firstOccurrenceMs(), random.nextInt(before)), 1);
                }
            }
            if (JepsenJobs.isLong(job)) {
                // A long job runs through the runtime only: scheduled deliveries and manual runs race.
                if (viaRuntime(job, occurrence, delivery, chance(MANUAL_RUNS)) || heldForGood(job)) {
                    return;
                }
                continue;
            }
            // Until its scripted first run (a kill or an overrun) has happened, a process delivers
            // directly, so the script runs whenever the process wins a claim at all.
            boolean scriptPending = directRuns == 0 && !config.script().equals(WorkerConfig.NONE);
            boolean settled = !scriptPending && chance(config.runtimeShare())
                    ? viaRuntime(job, occurrence, delivery, false)
                    : direct(job, occurrence, delivery);
            if (settled || (!settled && JepsenJobs.group(job).equals(JepsenJobs.BATCH) && heldForGood(job))) {
                return;
            }
        }
    }

    /**
     * Whether the job's group is held past {@link #HELD_FOR_GOOD} by a lease not this process's: a long
     * claim whose driver was killed. Unknown (the read failed) is not.
     */
    private boolean heldForGood(String job) {
        try {
            var lock = ledger.lock(JepsenJobs.group(job));
            return lock.leaseOwner() != null
                    && lock.leaseUntil() != null
                    && lock.leaseUntil().isAfter(clock.instant().plus(HELD_FOR_GOOD));
        } catch (RuntimeException unknown) {
            return false;
        }
    }

    /** One delivery straight to the ledger; true when the occurrence needs no further delivery. */
    private boolean direct(String job, Instant occurrence, int delivery) {
        long remaining = between(REMAINING_MIN_MS, REMAINING_MAX_MS);
        Instant leaseUntil = Lease.deadline(clock.instant(), Duration.ofMillis(remaining), Lease.DEADLINE_MARGIN);
        ClaimRequest shared = new ClaimRequest(
                        new RunKey(job, occurrence),
                        JepsenJobs.group(job),
                        Trigger.SCHEDULED,
                        delivery,
                        JepsenJobs.MAX_ATTEMPTS,
                        false,
                        leaseUntil)
                // A group of capacity N (decision 0051), as the runtime asks for it from the catalog.
                .withGroupCapacity(JepsenJobs.capacityOf(JepsenJobs.group(job)));
        // An entity's own lease, as the runtime asks for it: held off by its job's group, and the
        // one-request claim conditional on the cursor at the occurrence before (every minute here).
        ClaimRequest request = JepsenJobs.holdGroup(job)
                .map(group -> shared.onEntityLease(group, Optional.of(occurrence.minus(JepsenJobs.EVERY))))
                .orElse(shared);
        ClaimResult result;
        try {
            result = ledger.claim(request);
        } catch (RuntimeException unknown) {
            pause(50, 150);
            return false;
        }
        return switch (result) {
            case ClaimResult.Claimed claimed -> runDirect(claimed.claim(), remaining);
            case ClaimResult.AlreadyDone done -> true;
            case ClaimResult.AttemptsExhausted exhausted -> true;
            case OperatorSkipped skipped -> meetSkip(skipped.record(), delivery);
            case ClaimResult.Paused paused -> metPause(request.key(), paused.mark(), delivery);
            case UnderMaintenance maintenance -> {
                pause(250, 600);
                yield false;
            }
            default -> {
                pause(120, 350);
                yield false;
            }
        };
    }

    /**
     * A delivery that met an operator's skip, as the runtime does it: a planned skip is marked as met,
     * conditional on it still being planned; when an unskip came first the occurrence is delivered again.
     */
    private boolean meetSkip(RunRecord record, int delivery) {
        if (!record.skip().orElseThrow().planned()) {
            return true;
        }
        try {
            return ledger.actOnSkip(record, Trigger.SCHEDULED, delivery).isPresent();
        } catch (RuntimeException unknown) {
            pause(50, 150);
            return false;
        }
    }

    /**
     * A delivery refused by an operator's pause, as the runtime does it (decision 0040): recorded as a
     * {@code SKIP PAUSED} on the occurrence's own run item, never run. Settled when the mark refuses it for
     * good (an ended span kept refused); otherwise delivered again, as the scheduler's retries would.
     */
    private boolean metPause(RunKey key, PauseMark mark, int delivery) {
        try {
            ledger.recordSkip(key, Trigger.SCHEDULED, delivery, SkipReason.PAUSED, mark.describe());
        } catch (RuntimeException unknown) {
            pause(50, 150);
            return false;
        }
        Instant now = clock.instant();
        if (!mark.holdsAt(now) && mark.refuses(key.scheduledTime(), now)) {
            return true;
        }
        pause(120, 350);
        return false;
    }

    /** The job: real time, sometimes past the lease; the fenced side effect; maybe a kill; the commit. */
    private boolean runDirect(Claim claim, long remainingMs) {
        boolean first = directRuns++ == 0;
        boolean overrun =
                chance(config.overrunProbability()) || (first && config.script().equals(WorkerConfig.OVERRUN_FIRST));
        long work = overrun
                ? remainingMs + Lease.DEADLINE_MARGIN.toMillis() + between(100, 700)
                : between(5, Math.min(150, remainingMs / 2));
        sleep(work);
        FencedDomain.Write written = domainWrite(claim);
        if (config.mayKill()
                && (chance(config.killProbability())
                        || (first && config.script().equals(WorkerConfig.KILL_FIRST)))) {
            kill(claim);
        }
        Outcome outcome;
        if (written == null) {
            outcome = new Outcome.Failed("domain write failed");
        } else if (!written.applied()) {
            outcome = new Outcome.Failed(
                    "fenced out of the domain table: fence " + claim.fence() + " < stored " + written.seenFence());
        } else if (chance(config.failProbability())) {
            outcome = new Outcome.Failed("injected job failure");
        } else {
            outcome = new Outcome.Succeeded("seq " + written.seq());
        }
        try {
            CompletionResult done = ledger.complete(claim, outcome);
            return done instanceof CompletionResult.Completed c && c.record().status() == RunStatus.SUCCEEDED;
        } catch (RuntimeException unknown) {
            pause(50, 150);
            return false;
        }
    }

    /** The side effect, recorded; null when the write itself failed (no faults are injected on it). */
    private FencedDomain.Write domainWrite(Claim claim) {
        String group = claim.lease().group();
        Op.Builder op = Op.of(config.proc(), config.skewMs(), Op.Kind.DOMAIN_WRITE)
                .via("job")
                .occurrence(claim.key().jobId(), claim.key().scheduledTime().toEpochMilli(), group)
                .lease(
                        claim.fence(),
                        claim.lease().ownerToken(),
                        claim.lease().expiresAt().toEpochMilli());
        long t0 = RecordingLedger.nowMicros();
        long c0 = clock.millis();
        try {
            FencedDomain.Write w = domain.write(
                    group,
                    claim.fence(),
                    claim.lease().ownerToken(),
                    config.proc() + " " + claim.key().jobId());
            op.times(t0, RecordingLedger.nowMicros(), c0, clock.millis());
            if (w.applied()) {
                record(op.result(Op.APPLIED).landed(w.seq()));
            } else {
                record(op.result(Op.REFUSED).refusedBy(w.seenFence()));
            }
            return w;
        } catch (RuntimeException e) {
            record(op.times(t0, RecordingLedger.nowMicros(), c0, clock.millis())
                    .result(Op.ERROR)
                    .detail(e.toString()));
            return null;
        }
    }

    /** The process dies between the job's side effect and its commit, as a Lambda killed there would. */
    private void kill(Claim claim) {
        record(instant(Op.Kind.KILL).claim(claim).counters(counters()));
        Runtime.getRuntime().halt(KILLED_EXIT);
    }

    // ---------------------------------------------------------------- runtime

    private JobCatalog catalog() {
        List<JobDefinition> definitions = new ArrayList<>();
        // Its entities hold their own leases (the default, decision 0029, 5).
        definitions.add(JobDefinition.builder(JepsenJobs.TENANT_JOB)
                .schedule(JepsenJobs.CRON, "UTC")
                .perEntity(dev.punctual.job.EntityJob.parameters())
                .catchUp(new CatchUpPolicy(3, Duration.ofHours(6), CatchUpMode.OLDEST_FIRST))
                .maxAttempts(JepsenJobs.MAX_ATTEMPTS)
                .job(services -> this::runThroughTheRuntime)
                .build());
        // Its entities are kept under the group's one lease, so the shared path is raced too.
        definitions.add(JobDefinition.builder(JepsenJobs.POOLED_JOB)
                .schedule(JepsenJobs.CRON, "UTC")
                .perEntity(dev.punctual.job.EntityJob.parameters().sharingOneLease())
                .catchUp(new CatchUpPolicy(3, Duration.ofHours(6), CatchUpMode.OLDEST_FIRST))
                .maxAttempts(JepsenJobs.MAX_ATTEMPTS)
                .job(services -> this::runThroughTheRuntime)
                .build());
        for (String id : JepsenJobs.CATALOG_JOBS) {
            definitions.add(JobDefinition.builder(id)
                    .schedule(JepsenJobs.CRON, "UTC")
                    .lockGroup(JepsenJobs.group(id))
                    .catchUp(new CatchUpPolicy(3, Duration.ofHours(6), CatchUpMode.OLDEST_FIRST))
                    .maxAttempts(JepsenJobs.MAX_ATTEMPTS)
                    .job(services -> this::runThroughTheRuntime)
                    .build());
        }
        definitions.add(JobDefinition.builder(JepsenJobs.TIDY)
                .schedule(JepsenJobs.CRON, "UTC")
                .lockGroup(JepsenJobs.BATCH)
                .catchUp(new CatchUpPolicy(3, Duration.ofHours(6), CatchUpMode.OLDEST_FIRST))
                .maxAttempts(JepsenJobs.MAX_ATTEMPTS)
                .job(services -> this::runThroughTheRuntime)
                .build());
        definitions.add(longJob(
                JobDefinition.builder(JepsenJobs.CLOSE)
                        .schedule(JepsenJobs.CRON, "UTC")
                        .lockGroup(JepsenJobs.BATCH)
                        .catchUp(new CatchUpPolicy(3, Duration.ofHours(6), CatchUpMode.OLDEST_FIRST))
                        .maxAttempts(JepsenJobs.MAX_ATTEMPTS),
                new Close()));
        // Decision 0051: gamma, delta and omega share a group admitting two of them at once.
        return JobCatalog.of(definitions.toArray(JobDefinition[]::new))
                .withGroupCapacity(JepsenJobs.WIDE, JepsenJobs.WIDE_CAPACITY);
    }

    /** The long job's definition (the test creates its state machine on moto from the same one). */
    static JobDefinition longJob(JobDefinition.Builder builder, dev.punctual.job.LongJob job) {
        // The shortest bound a long job may declare: its lease is this plus LongRun.LEASE_SLACK.
        return builder.runsLong(LongRun.within(Duration.ofMinutes(1)).chunksAtOnce(2))
                .job(services -> job)
                .build();
    }

    /**
     * The long job: plans {@link JepsenJobs#CHUNKS}; each chunk writes its fenced side effect to its own
     * item of the domain table (keyed by occurrence and chunk, stamped with the claim's fence), and now and
     * then fails (the driver retries it, as the state machine would); finish reports the tally.
     */
    private final class Close implements dev.punctual.job.LongJob {
        @Override
        public List<String> plan(dev.punctual.job.JobContext context) {
            return JepsenJobs.CHUNKS;
        }

        @Override
        public JobResult chunk(dev.punctual.job.JobContext context, String key) {
            sleep(between(5, 40));
            String occurrenceKey = context.jobId() + "@" + context.occurrence();
            String token = ledger.inFlight(context.jobId(), context.occurrence())
                    .map(c -> c.lease().ownerToken())
                    .orElse("?");
            Op.Builder op = Op.of(config.proc(), config.skewMs(), Op.Kind.CHUNK_EFFECT)
                    .via("job")
                    .occurrence(context.jobId(), context.occurrence().toEpochMilli(), JepsenJobs.BATCH)
                    .held(context.fence(), token)
                    .chunk(key);
            // The effect and its history line under one lock, which a kill takes before it halts: the
            // chunks run on threads of their own, and a halt must not fall between another chunk's landed
            // write and its line (the checker would count an effect the history does not show).
            synchronized (effects) {
                return effect(op, occurrenceKey, key, context.fence(), token);
            }
        }

        private JobResult effect(Op.Builder op, String occurrenceKey, String key, long fence, String token) {
            long t0 = RecordingLedger.nowMicros();
            long c0 = clock.millis();
            FencedDomain.Write w;
            try {
                w = domain.writeChunk(occurrenceKey, key, fence, token, config.proc() + " " + occurrenceKey);
            } catch (RuntimeException e) {
                record(op.times(t0, RecordingLedger.nowMicros(), c0, clock.millis())
                        .result(Op.ERROR)
                        .detail(e.toString()));
                throw e;
            }
            op.times(t0, RecordingLedger.nowMicros(), c0, clock.millis());
            if (!w.applied()) {
                record(op.result(Op.REFUSED).refusedBy(w.seenFence()));
                throw new IllegalStateException("fenced out of chunk " + key + ": stored fence " + w.seenFence());
            }
            record(op.result(Op.APPLIED).landed(w.seq()));
            if (chance(config.failProbability() / 2)) {
                throw new IllegalStateException("injected chunk failure after its side effect");
            }
            return JobResult.of("seq", w.seq());
        }

        @Override
        public JobResult finish(dev.punctual.job.JobContext context, ChunkTally tally) {
            return JobResult.of("chunks", tally.succeeded());
        }
    }

    /**
     * The long kills, each once per run, by whichever process reaches it first (a file in the run's
     * directory, created atomically, says it happened): (a) a long claim of an early round dies before its
     * lease is extended, after its claim and before any start: its short lease lapses and a later claim
     * starts the occurrence's one execution under its own fence; (b) in the last long round, a driver dies
     * after a chunk's side effect and before its record: the execution stays RUNNING on moto with no one
     * driving it (on AWS Step Functions would go on) and its claim holds the group to the execution's bound.
     */
    private final class LongRunKills implements RecordingLedger.LongKills {
        @Override
        public void beforeExtend(Claim claim) {
            if (JepsenJobs.isLong(claim.key().jobId())
                    && roundOf(claim.key().scheduledTime()) < JepsenJobs.LONG_ROUNDS - 1
                    && firstTo(KILL_BEFORE_START)) {
                halt(instant(Op.Kind.KILL).claim(claim).detail("long: after the claim, before the start"));
            }
        }

        @Override
        public void beforeChunkRecord(Lease lease, RunKey key, String chunk, dev.punctual.ledger.ChunkOutcome outcome) {
            if (outcome instanceof dev.punctual.ledger.ChunkOutcome.Succeeded
                    && roundOf(key.scheduledTime()) == JepsenJobs.LONG_ROUNDS - 1
                    && firstTo(KILL_BEFORE_CHUNK_RECORD)) {
                halt(instant(Op.Kind.KILL)
                        .occurrence(key.jobId(), key.scheduledTime().toEpochMilli(), lease.group())
                        .lease(
                                lease.fence(),
                                lease.ownerToken(),
                                lease.expiresAt().toEpochMilli())
                        .chunk(chunk)
                        .detail("long: after the chunk's side effect, before its record"));
            }
        }
    }

    private int roundOf(Instant occurrence) {
        return (int) Duration.between(Instant.ofEpochMilli(config.firstOccurrenceMs()), occurrence)
                .toMinutes();
    }

    /** Whether this process is the first of the run to get here (it creates the marker file). */
    private boolean firstTo(String marker) {
        try {
            Files.createFile(config.dir().resolve(marker));
            return true;
        } catch (java.nio.file.FileAlreadyExistsException taken) {
            return false;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private void halt(Op.Builder kill) {
        synchronized (effects) {
            record(kill.counters(counters()));
            history.close();
            Runtime.getRuntime().halt(KILLED_EXIT);
        }
    }

    /** A job run by the runtime: the fenced side effect under the claim the runtime holds for it. */
    private JobResult runThroughTheRuntime(dev.punctual.job.JobContext context) {
        sleep(between(5, 60));
        // An entity's claim is kept under job:entity, as the runtime keys it.
        String ledgerId =
                context.jobId() + context.entity().map(e -> ":" + e.id()).orElse("");
        Claim claim = ledger.inFlight(ledgerId, context.occurrence())
                .orElseThrow(() -> new IllegalStateException("no claim in flight"));
        FencedDomain.Write written = domainWrite(claim);
        if (written == null) {
            throw new IllegalStateException("domain write failed");
        }
        if (!written.applied()) {
            throw new IllegalStateException("fenced out of the domain table");
        }
        if (chance(config.failProbability())) {
            throw new IllegalStateException("injected job failure");
        }
        return JobResult.of("seq", written.seq());
    }

    /** One scheduler delivery through the runtime, as the Lambda handler would run it. */
    private boolean viaRuntime(String job, Instant occurrence, int delivery, boolean manual) {
        String payload = manual
                ? "{\"kind\":\"run\",\"job\":\"" + job + "\",\"at\":\"" + occurrence + "\"}"
                : scheduled(job, occurrence.toString(), delivery, true);
        InvocationResult result = handle(payload, null, job, occurrence);
        boolean settled = result != null
                && result.occurrences().stream()
                        .anyMatch(o -> o.occurrence().equals(occurrence)
                                && (o.verdict() == Verdict.PASS
                                        || o.reason() == Reason.STARTED
                                        || o.reason() == Reason.ALREADY_DONE
                                        || o.reason() == Reason.OPERATOR_SKIPPED
                                        || o.reason() == Reason.ATTEMPTS_EXHAUSTED));
        if (!settled) {
            pause(120, 350);
        }
        return settled;
    }

    private InvocationResult handle(String payload, String expect, String job, Instant occurrence) {
        ledger.via("runtime");
        long w0 = writes.get();
        long r0 = requests.get();
        long t0 = RecordingLedger.nowMicros();
        long c0 = clock.millis();
        Op.Builder op = Op.of(config.proc(), config.skewMs(), Op.Kind.PAYLOAD).via("runtime");
        if (job != null && occurrence != null) {
            op.occurrence(job, occurrence.toEpochMilli(), null);
        }
        try {
            InvocationResult result = runtime.handle(
                    payload,
                    Deadline.fromRemaining(clock.instant(), RUNTIME_REMAINING),
                    new StructuredLog(line -> {}, clock, "punctual", Redactor.standard())
                            .forInvocation(config.proc() + "-" + t0, false));
            String code = result.error().map(InvalidPayload::code).orElse(null);
            record(op.times(t0, RecordingLedger.nowMicros(), c0, clock.millis())
                    .payload(payload, expect, code, writes.get() - w0, requests.get() - r0)
                    .result(code != null ? Op.REFUSED : Op.OK)
                    .detail(result.occurrences().stream()
                            .map(JepsenWorker::brief)
                            .collect(Collectors.joining("; "))));
            return result;
        } catch (RuntimeException e) {
            record(op.times(t0, RecordingLedger.nowMicros(), c0, clock.millis())
                    .payload(payload, expect, null, writes.get() - w0, requests.get() - r0)
                    .result(Op.ERROR)
                    .detail(e.toString()));
            pause(50, 150);
            return null;
        } finally {
            ledger.via("direct");
        }
    }

    private static String brief(OccurrenceReport r) {
        return r.job() + "@" + r.occurrence() + " " + r.verdict() + " " + r.reason()
                + (r.fence() == null ? "" : " fence " + r.fence());
    }

    /** A scheduler's delivery of a ledger id's occurrence: a job's, or the raced entity's, with its schedule. */
    private static String scheduled(String job, String at, int attempt, boolean fromScheduler) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("kind", "scheduled");
        boolean entity = JepsenJobs.isEntity(job);
        p.put("job", JepsenJobs.catalogJob(job));
        if (entity) {
            p.put("entity", JepsenJobs.ENTITY);
            p.put("zone", "UTC");
        }
        p.put("scheduled_time", at);
        p.put("attempt_number", Integer.toString(attempt));
        if (fromScheduler) {
            p.put("execution_id", UUID.randomUUID().toString());
            p.put(
                    "schedule_arn",
                    entity
                            ? "arn:aws:scheduler:us-east-1:123456789012:schedule/punctual-jepsen-entities/"
                                    + dev.punctual.entity.EntityScheduleName.of(
                                            JepsenJobs.catalogJob(job), JepsenJobs.ENTITY)
                            : "arn:aws:scheduler:us-east-1:123456789012:schedule/punctual-jepsen/" + job);
        }
        return dev.punctual.json.Json.write(p);
    }

    /**
     * A payload the runtime must refuse before touching anything: it is recorded with the code it must
     * get and the requests it caused (the checker wants none).
     */
    private void refusedPayload(Instant pastOccurrence) {
        // The catalog's job ids: these payloads name a job as a person writes one (an entity's ledger id is none).
        String job = JepsenJobs.CATALOG_JOBS.get(random.nextInt(JepsenJobs.CATALOG_JOBS.size()));
        // Far enough past now + Due.TOLERANCE that no pause of this process can make it due meanwhile.
        Instant future = clock.instant()
                .plusSeconds(5 + 30)
                .truncatedTo(ChronoUnit.MINUTES)
                .plus(JepsenJobs.EVERY);
        switch (random.nextInt(10)) {
            case 0 -> handle(scheduled(job, future.toString(), 1, true), "NOT_DUE", job, future);
            case 1 ->
                handle("{\"kind\":\"run\",\"job\":\"" + job + "\",\"at\":\"" + future + "\"}", "NOT_DUE", job, future);
            case 2 ->
                handle(
                        "{\"kind\":\"replay\",\"job\":\"" + job + "\",\"from\":\"" + pastOccurrence + "\",\"to\":\""
                                + future.plus(JepsenJobs.EVERY) + "\"}",
                        "NOT_DUE",
                        null,
                        null);
            case 3 -> handle(scheduled("ghost", pastOccurrence.toString(), 1, true), "UNKNOWN_JOB", null, null);
            case 4 -> handle("{\"kind\":\"scheduled\",\"job\":", "NOT_JSON", null, null);
            case 5 -> handle(scheduled(job, "yesterday", 1, true), "BAD_TIME", null, null);
            case 6 -> handle("{\"kind\":\"scheduled\",\"job\":\"" + job + "\"}", "MISSING_FIELD", null, null);
            case 7 -> {
                // A past time that is no occurrence, without the scheduler's ids: no delivery, refused.
                Instant odd = pastOccurrence.plusSeconds(17);
                handle(scheduled(job, odd.toString(), 1, false), "NOT_AN_OCCURRENCE", job, odd);
            }
            case 8 ->
                handle(
                        "{\"kind\":\"replay\",\"job\":\"" + job + "\",\"from\":\"" + pastOccurrence + "\",\"to\":\""
                                + pastOccurrence + "\"}",
                        "BAD_RANGE",
                        null,
                        null);
            default ->
                handle(
                        "{\"kind\":\"scheduled\",\"job\":\"" + job + "\",\"scheduled_time\":\"" + pastOccurrence
                                + "\",\"attempt_number\":\"zero\"}",
                        "WRONG_TYPE",
                        null,
                        null);
        }
    }

    // ---------------------------------------------------------------- operator

    /**
     * Maintenance on for every group, held a while, then off (or left to lapse), or a command hold
     * ({@link #commandHold}), until the workers are done and it has taken at least {@code minHolds} holds
     * (bounded in tries, so a ledger that never grants one ends the run with the figure at zero, which the
     * test reports). Before each hold and after it, an operator's skip of an occurrence just ahead of the
     * workers.
     */
    private void operate() {
        ledger.via("operator");
        int holds = 0;
        int tries = 0;
        int maxTries = 50 * Math.max(1, config.minHolds());
        while (!(stopping() && holds >= config.minHolds()) && tries < maxTries) {
            skipAhead();
            pauseAndResume();
            napUnlessStopping(between(1000, 3000));
            tries++;
            // Now and then a hold of the own-lease entity's group alone, long enough to wait out the
            // entity runs started before it, so the report also says that group is held.
            boolean drain = chance(DRAINING_HOLDS);
            // The first two command holds end one each way, so every run covers both; then the dice.
            if (!drain && (commandsReleased == 0 || commandsCrashed == 0 || chance(COMMAND_HOLDS))) {
                if (commandHold()) {
                    holds++;
                }
                skipAhead();
                continue;
            }
            Instant until = drain
                    ? clock.instant().plus(ENTITY_LEASE_TERM).plusMillis(between(2500, 3500))
                    : clock.instant().plusMillis(between(2200, 4000));
            try {
                MaintenanceReport report = ledger.maintenanceOn(new MaintenanceRequest(
                                drain ? List.of(JepsenJobs.TENANT_JOB) : JepsenJobs.GROUPS,
                                new MaintenanceHold("jepsen drill", config.proc(), until),
                                drain ? ENTITY_LEASE_TERM.plusMillis(1000) : Duration.ofMillis(between(0, 800)),
                                Duration.ofMillis(100))
                        .withEntityLeases(Map.of(JepsenJobs.TENANT_JOB, ENTITY_LEASE_TERM)));
                if (!report.taken().isEmpty()) {
                    holds++;
                }
            } catch (RuntimeException unknown) {
                // recorded; the hold (if any) lapses at its end or is lifted below
            }
            napUnlessStopping(between(200, 1000));
            if (chance(0.75)) {
                lift();
            }
            skipAhead();
        }
        lift();
    }

    /**
     * A command hold (decision 0036) through the product's own {@link HeldMaintenance}, renewed by the
     * operator's loop ({@link HeldMaintenance#takeWithoutRenewer}, then {@link HeldMaintenance#renewNow}),
     * every call it makes recorded by the ledger it is given. It takes every group as {@code maintenance
     * on} does (the bounded wait, the entity runs' term), until the take's wait plus the lapse, and
     * renews every group at once to now + lapse ({@code renewHold}, which shortens the hold by what the
     * wait left unused); a take that is refused (our own {@code maintenance on} still in force) or left
     * jobs running gives back what it took and runs no command. The command then runs, the hold renewed
     * a few times, and ends: {@link HeldMaintenance#close()} gives the groups back. Or it crashes: it
     * stops renewing and gives nothing back, as a tool killed with SIGKILL does, and the groups stay held
     * until the end of the last renewal that landed. The operator waits out the latest end any renewal
     * asked for before its next step (a tool started again comes after it), so the workers meet the
     * crashed hold and then claim past it.
     *
     * <p>HeldMaintenance's rules, which the checker counts a renewal by: a refused renewal loses the group
     * (never renewed again, nor given back), an unknown one is sent again at the next renewal from the
     * lease last acknowledged, and a group whose renewal comes within the margin of its end is lost.
     *
     * @return whether the hold took every group
     */
    private boolean commandHold() {
        HoldTerms terms = HoldTerms.of(JepsenJobs.GROUPS, "jepsen drill", config.proc())
                .forCommand("jepsen-load --lapse " + LAPSE.toSeconds() + "s")
                .lapsingAfter(LAPSE)
                .waitingAtMost(COMMAND_WAIT, Duration.ofMillis(100))
                .withEntityLeases(Map.of(JepsenJobs.TENANT_JOB, ENTITY_LEASE_TERM));
        HoldOutcome outcome;
        try {
            outcome = HeldMaintenance.takeWithoutRenewer(ledger, terms, clock, HoldListener.SILENT);
        } catch (RuntimeException unknown) {
            // Recorded. Whatever it took would hold the stage until the take's end, its wait and a lapse
            // (38 s here), and refuse every command hold meanwhile, ours too: the operator lifts it, as
            // HeldMaintenance's fault tells an operator to (maintenance off --by).
            lift();
            return false;
        }
        if (!(outcome instanceof HoldOutcome.Held(HeldMaintenance held))) {
            return false; // refused, or jobs still running: what it took was given back (recorded)
        }
        // The latest end anything asked for: the take's, and each renewal's (an unknown one may have landed).
        Instant lapsesBy = latest(held.hold().until(), clock.instant().plus(LAPSE));
        int renewals = (int) between(RENEWALS_MIN, RENEWALS_MAX + 1);
        for (int i = 0; i < renewals && !held.heldUntil().isEmpty(); i++) {
            sleep(between(RENEW_PAUSE_MIN_MS, RENEW_PAUSE_MAX_MS));
            try {
                held.renewNow();
            } catch (RuntimeException unexpected) {
                // recorded; the next renewal (or the release) comes as for a ledger out of reach
            }
            lapsesBy = latest(lapsesBy, clock.instant().plus(LAPSE));
        }
        boolean crash = commandsReleased > 0
                && (commandsCrashed == 0
                        || (commandsCrashed < crashesAtMost(config.minHolds()) && chance(CRASHED_COMMANDS)));
        if (crash) {
            commandsCrashed++; // never closed: nothing renews it again, nothing gives it back
            napUntil(lapsesBy.plusMillis(100));
        } else {
            commandsReleased++;
            try {
                held.close();
            } catch (RuntimeException unknown) {
                // Recorded. What was not given back would hold its group a lapse more, refusing the next
                // command holds meanwhile: lifted, as the fault tells an operator to (maintenance off --by).
                lift();
            }
        }
        return true;
    }

    private static Instant latest(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    /** Naps until the operator's clock reaches {@code end} (at once when the run is stopping). */
    private void napUntil(Instant end) {
        napUnlessStopping(Math.max(0, end.toEpochMilli() - clock.millis()));
    }

    /**
     * Skips one occurrence of a random ledger id within {@link #SKIP_REACH} of its cursor, where the
     * workers are delivering (so the skip races their claims: exactly one may win), and sometimes removes
     * it again soon after, racing the delivery that would meet it. Every answer is recorded; which one
     * comes is the ledger's business, the checker's is that they agree with the claims.
     */
    private void skipAhead() {
        String job = JepsenJobs.SKIPPED.get(random.nextInt(JepsenJobs.SKIPPED.size()));
        int round;
        try {
            round = roundAfterCursor(job) + random.nextInt(SKIP_REACH);
        } catch (RuntimeException unknown) {
            return;
        }
        if (round >= config.rounds()) {
            return;
        }
        RunKey key = new RunKey(job, JepsenJobs.occurrence(config.firstOccurrenceMs(), round));
        SkipPlan plan;
        try {
            plan = ledger.skip(key, config.proc(), "jepsen drill");
        } catch (RuntimeException unknown) {
            return; // recorded; it may or may not have been planned
        }
        if (plan instanceof SkipPlan.Planned && chance(UNSKIPPED_SKIPS)) {
            napUnlessStopping(between(0, 300));
            try {
                ledger.unskip(key);
            } catch (RuntimeException unknown) {
                // recorded; the skip may still be planned
            }
        }
    }

    /**
     * Pauses one lock item ({@link JepsenJobs#PAUSABLE}) while the workers deliver, for a second or two:
     * until resumed (then resumed with either choice), or with {@code until} (then now and then resumed
     * before it lapses, else left to lapse), so pauses race claims on every path the suite takes. A
     * resume whose answer is unknown is sent again, so no pause outlives the step by more than its
     * {@code until}.
     */
    private void pauseAndResume() {
        List<String> items = new ArrayList<>(JepsenJobs.PAUSABLE.keySet());
        Collections.sort(items);
        String item = items.get(random.nextInt(items.size()));
        boolean lapsing = chance(LAPSING_PAUSES);
        boolean catchUp = chance(0.5);
        Optional<Instant> until = lapsing
                ? Optional.of(clock.instant().plusMillis(between(PAUSE_MIN_MS, PAUSE_MAX_MS)))
                : Optional.empty();
        // An open-ended pause now and then from the lagging console; its resume comes from here.
        boolean fromConsole = !lapsing && consolePauses < CONSOLE_PAUSES && (consolePauses == 0 || chance(0.3));
        if (fromConsole) {
            consolePauses++;
        }
        PauseOutcome outcome;
        try {
            outcome = (fromConsole ? console : ledger).pause(item, config.proc(), "jepsen drill", until, catchUp);
        } catch (RuntimeException unknown) {
            outcome = null; // recorded; it may be set: resumed below all the same
        }
        // AlreadyPaused: an earlier pause whose resumes all failed still holds; it is resumed below.
        if (lapsing && !(outcome instanceof PauseOutcome.AlreadyPaused) && chance(0.6)) {
            napUntil(until.orElseThrow().plusMillis(50));
            return;
        }
        napUnlessStopping(between(PAUSE_MIN_MS, PAUSE_MAX_MS));
        // The console's pause resumed with SKIP_PAUSED keeps [its start, now) refused: three minutes back.
        ResumeChoice choice = fromConsole || chance(0.5) ? ResumeChoice.SKIP_PAUSED : ResumeChoice.CATCH_UP;
        for (int tries = 0; tries < 5; tries++) {
            try {
                ledger.resume(item, choice);
                return;
            } catch (RuntimeException unknown) {
                pause(50, 150); // recorded; sent again
            }
        }
    }

    private void lift() {
        try {
            ledger.maintenanceOff(JepsenJobs.GROUPS);
        } catch (RuntimeException unknown) {
            // recorded; the hold lapses at its end
        }
    }

    // ---------------------------------------------------------------- plumbing

    private Map<String, Long> counters() {
        Map<String, Long> all = new LinkedHashMap<>(faults.counts());
        all.put("requests", requests.get());
        all.put("writes", writes.get());
        return all;
    }

    /** An operation that takes no time: invoked and returned now. */
    private Op.Builder instant(Op.Kind kind) {
        long t = RecordingLedger.nowMicros();
        long c = clock.millis();
        return Op.of(config.proc(), config.skewMs(), kind).times(t, t, c, c);
    }

    private void record(Op.Builder op) {
        history.write(op.build());
    }

    /** Only the cluster ends a run early (its hang guard, or the workers being done, for operators). */
    private boolean stopping() {
        return Files.exists(stopFile(config.dir()));
    }

    static Path stopFile(Path dir) {
        return dir.resolve("stop");
    }

    static Path goFile(Path dir) {
        return dir.resolve("go");
    }

    static Path readyFile(Path dir, String proc) {
        return dir.resolve("ready-" + proc);
    }

    private boolean chance(double probability) {
        return random.nextDouble() < probability;
    }

    private long between(long min, long max) {
        return min + (long) (random.nextDouble() * (max - min));
    }

    private void pause(long min, long max) {
        sleep(between(min, max));
    }

    private void napUnlessStopping(long ms) {
        long end = System.currentTimeMillis() + ms;
        while (!stopping() && System.currentTimeMillis() < end) {
            sleep(Math.min(100, end - System.currentTimeMillis()));
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
