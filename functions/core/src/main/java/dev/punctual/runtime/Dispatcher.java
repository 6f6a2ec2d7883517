package dev.punctual.runtime;

import dev.punctual.catchup.CatchUpPlan;
import dev.punctual.catchup.CatchUpPlanner;
import dev.punctual.catchup.MissedRange;
import dev.punctual.catchup.StartDeadline;
import dev.punctual.events.LifecycleEvent;
import dev.punctual.job.JobDefinition;
import dev.punctual.ledger.Claim;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.Trigger;
import dev.punctual.observability.StructuredLog;
import dev.punctual.outcome.OccurrenceOutcome;
import dev.punctual.outcome.Reason;
import dev.punctual.time.OccurrenceCalculator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Carries out one valid invocation: plans the occurrences (catch-up for scheduled deliveries, the range
 * for a replay, one occurrence for a manual run), runs them oldest first until one fails or time runs
 * short, and tells its {@link OccurrenceListener}s of each occurrence (the outcome line, the events).
 * Payload validation happens before, in {@link PayloadParser}; a refused payload never reaches here.
 */
public final class Dispatcher {

    private final RuntimeServices services;
    private final OccurrenceRunner runner;
    private final List<OccurrenceListener> listeners;

    /** With the listeners every runtime has: the lifecycle events, then the outcome line and its metrics. */
    public Dispatcher(RuntimeServices services) {
        this(services, new OccurrenceRunner(services), standingListeners(services));
    }

    /** The listeners every runtime has: the lifecycle events, then the outcome line and its metrics. */
    static List<OccurrenceListener> standingListeners(RuntimeServices services) {
        return List.of(new RunEvents(services.events()), new OutcomeLine());
    }

    private Dispatcher(RuntimeServices services, OccurrenceRunner runner, List<OccurrenceListener> listeners) {
        this.services = services;
        this.runner = runner;
        this.listeners = listeners;
    }

    /** This dispatcher, also telling {@code extra} of each occurrence, after the standing listeners. */
    Dispatcher with(OccurrenceListener extra) {
        List<OccurrenceListener> all = new ArrayList<>(listeners);
        all.add(extra);
        return new Dispatcher(services, runner, List.copyOf(all));
    }

    public InvocationResult dispatch(Invocation invocation, Deadline deadline, StructuredLog log) {
        return switch (invocation) {
            case Invocation.Scheduled s -> {
                InvocationResult result = scheduled(s, deadline, log);
                if (s.jobId().equals(MissedRunWatchdog.ID)
                        && services.catalog().jobs().stream().anyMatch(JobDefinition::isLong)) {
                    // After the watchdog's own run: the sweep of running long occurrences (decision 0039, 5).
                    new LongSweep(services, new LongSteps(services, listeners)).sweep(log);
                }
                yield result;
            }
            case Invocation.NotAnOccurrence n -> notAnOccurrence(n, log);
            case Invocation.OutsideRule o -> outsideRule(o, log);
            case Invocation.ManualRun m -> manual(m, deadline, log);
            case Invocation.Replay r -> replay(r, deadline, log);
            case Invocation.Ping p -> {
                log.info("ping", Map.of("stage", stage()));
                // With the function's own role: verify reads from it whether each condition can be evaluated.
                yield new InvocationResult(
                        stage(),
                        "ping",
                        null,
                        List.of(),
                        Optional.empty(),
                        0,
                        Optional.empty(),
                        new MaintenanceConditions(services.catalog().maintenanceConditions(), services.conditions())
                                .each());
            }
        };
    }

    /**
     * A delivery from the scheduler. The delivered occurrence is claimed first: on the happy path (it
     * follows the cursor) that one conditional write also answers maintenance, a busy group, a
     * duplicate and the cursor, so the occurrence costs two requests in all (claim, fenced completion).
     * When the cursor shows older occurrences to catch up, the claim is given back (recorded as a
     * DEFERRED skip), and the plan runs oldest first, the delivered occurrence last.
     */
    private InvocationResult scheduled(Invocation.Scheduled s, Deadline deadline, StructuredLog log) {
        RunSubject subject = s.subject();
        JobDefinition job = subject.job();
        OccurrenceRunner.Request delivered =
                OccurrenceRunner.Request.of(subject, s.scheduledTime(), Trigger.SCHEDULED, s.attemptNumber(), false);
        if (!deadline.allowsAnotherOccurrence(services.clock().instant())) {
            return single(job, notRun(delivered, Reason.DEADLINE), log, 0, 0);
        }
        Instant started = services.clock().instant();
        OccurrenceRunner.ClaimStep step = runner.claim(delivered, deadline);
        if (step instanceof OccurrenceRunner.ClaimStep.Finished finished) {
            return single(job, finished.report(), log, 0, 0);
        }
        Claim claim = ((OccurrenceRunner.ClaimStep.Held) step).claim();
        CatchUpPlan plan =
                CatchUpPlanner.plan(job.catchUp(), claim.cursorBefore(), s.scheduledTime(), subject.occurrences());
        if (plan instanceof CatchUpPlan.AlreadyCovered) {
            // A late delivery (a retry, or one given up in a missed range meanwhile) of an occurrence the
            // claim found not done: run it. The cursor never moves back, so nothing else changes.
            OccurrenceReport report = runner.execute(delivered, claim, deadline, log);
            logOutcome(log, job, report, 0, 0, Duration.between(s.scheduledTime(), started));
            return result("scheduled", job.id(), List.of(report), Optional.empty(), 0);
        }
        CatchUpPlan.Run run = (CatchUpPlan.Run) plan;
        long missedCount = run.missed().map(MissedRange::count).orElse(0L);
        run.missed().ifPresent(missed -> recordMissed(subject, missed, log));
        if (run.runNow().size() == 1) {
            OccurrenceReport report = runner.execute(delivered, claim, deadline, log);
            logOutcome(log, job, report, 0, missedCount, Duration.between(s.scheduledTime(), started));
            return result("scheduled", job.id(), List.of(report), run.missed(), 0);
        }
        runner.giveBack(delivered, claim, Reason.DEFERRED, "older occurrences first");
        List<OccurrenceRunner.Request> requests = new ArrayList<>();
        for (Instant occurrence : run.runNow()) {
            boolean isDelivered = occurrence.equals(run.trigger());
            requests.add(new OccurrenceRunner.Request(
                    subject,
                    occurrence,
                    // Recorded apart so a history tells a caught-up occurrence from a delivered one; every
                    // rule treats both as the scheduler's (Trigger.fromSchedule).
                    isDelivered ? Trigger.SCHEDULED : Trigger.CATCH_UP,
                    isDelivered ? s.attemptNumber() : 1,
                    false,
                    subject.key(run.trigger())));
        }
        List<OccurrenceReport> reports = runInOrder(requests, deadline, log, requests.size() - 1, missedCount);
        return result("scheduled", job.id(), reports, run.missed(), 0);
    }

    /**
     * A delivery of a time the job's current schedule does not have (the replaced expression's, after
     * a deploy): recorded as a SKIP on that time's run item, through the same path as the stage guards'
     * refusals. Nothing is claimed, so it runs nothing, counts no attempt and leaves the cursor and
     * catch-up alone; a duplicate rewrites the same skip.
     */
    private InvocationResult notAnOccurrence(Invocation.NotAnOccurrence n, StructuredLog log) {
        Invocation.Scheduled s = n.delivery();
        JobDefinition job = s.job();
        OccurrenceRunner.Request delivered = OccurrenceRunner.Request.of(
                s.subject(), s.scheduledTime(), Trigger.SCHEDULED, s.attemptNumber(), false);
        return single(job, runner.refused(delivered, Reason.NOT_AN_OCCURRENCE, n.detail()), log, 0, 0);
    }

    /**
     * A firing of an RRULE job's deployed cron that the rule leaves out (decision 0049): expected, so it is
     * answered with one log line and the result, and nothing else. No ledger request (the cost the decision
     * states is this invocation only), no outcome line, so no metrics: a job's Skip count stays the
     * occurrences it skipped, and no alarm counts the cron's extra firings.
     */
    private InvocationResult outsideRule(Invocation.OutsideRule o, StructuredLog log) {
        Invocation.Scheduled s = o.delivery();
        OccurrenceRunner.Request delivered = OccurrenceRunner.Request.of(
                s.subject(), s.scheduledTime(), Trigger.SCHEDULED, s.attemptNumber(), false);
        OccurrenceReport report = notRun(delivered, Reason.OUTSIDE_RULE, o.detail());
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("stage", stage());
        fields.put("job", s.jobId());
        fields.put("entity", s.subject().entityId());
        fields.put("scheduled_time", s.scheduledTime().toString());
        fields.put("reason", Reason.OUTSIDE_RULE.wire());
        fields.put("detail", o.detail());
        log.info("outside_rule", fields);
        return result("scheduled", s.jobId(), List.of(report), Optional.empty(), 0);
    }

    private InvocationResult single(
            JobDefinition job, OccurrenceReport report, StructuredLog log, int catchUp, long missed) {
        logOutcome(log, job, report, catchUp, missed);
        return result("scheduled", job.id(), List.of(report), Optional.empty(), 0);
    }

    private InvocationResult manual(Invocation.ManualRun m, Deadline deadline, StructuredLog log) {
        JobDefinition job = m.job();
        Instant occurrence = m.at().orElseThrow(() -> new IllegalStateException("manual occurrence not resolved"));
        OccurrenceRunner.Request request =
                OccurrenceRunner.Request.of(m.subject(), occurrence, Trigger.MANUAL, 1, m.force());
        if (m.dryRun()) {
            OccurrenceReport report = !m.force() && succeeded(m.subject(), occurrence)
                    ? notRun(request, Reason.ALREADY_DONE, "done before; a forced run would run it again")
                    : runner.preview(request, deadline, log);
            return result("run", job.id(), List.of(report), Optional.empty(), 0);
        }
        List<OccurrenceReport> reports = runInOrder(List.of(request), deadline, log, 0, 0);
        return result("run", job.id(), reports, Optional.empty(), 0);
    }

    private InvocationResult replay(Invocation.Replay r, Deadline deadline, StructuredLog log) {
        RunSubject subject = r.subject();
        JobDefinition job = subject.job();
        OccurrenceCalculator calculator = subject.occurrences();
        ReplayRange range = replayRange(subject, calculator, r);
        List<OccurrenceReport> done = range.done().stream()
                .map(o -> notRun(
                        OccurrenceRunner.Request.of(subject, o, Trigger.REPLAY, 1, false),
                        Reason.ALREADY_DONE,
                        "done before; not counted in max"))
                .toList();
        if (r.dryRun()) {
            List<OccurrenceReport> planned = new ArrayList<>(done);
            for (Instant o : range.toRun()) {
                OccurrenceRunner.Request request = OccurrenceRunner.Request.of(subject, o, Trigger.REPLAY, 1, false);
                // Each preview reads the job's data; past the deadline the rest are listed uncounted.
                Optional<StartDeadline.TooLate> late = r.force()
                        ? Optional.empty()
                        : StartDeadline.judge(
                                job.deadline(), o, services.clock().instant());
                if (late.isPresent()) {
                    planned.add(notRun(
                            request,
                            Reason.DEADLINE_PASSED,
                            "would skip: " + late.get().detail()));
                    continue;
                }
                planned.add(
                        deadline.allowsAnotherOccurrence(services.clock().instant())
                                ? runner.preview(request, deadline, log)
                                : notRun(request, Reason.DRY_RUN, "would run; not previewed: out of time"));
            }
            return result("replay", job.id(), inTimeOrder(planned), Optional.empty(), range.beyond());
        }
        // --force waives the start deadline (decision 0032); it never re-runs a done occurrence here.
        List<OccurrenceRunner.Request> requests = range.toRun().stream()
                .map(o -> new OccurrenceRunner.Request(subject, o, Trigger.REPLAY, 1, false, subject.key(o), r.force()))
                .toList();
        List<OccurrenceReport> reports = new ArrayList<>(runInOrder(requests, deadline, log, 0, 0));
        // A refusal (maintenance, a busy group) stops the replay: the rest is reported as not run, with
        // the refusal's reason, and counted, so the operator sees how much is left and why.
        List<OccurrenceRunner.Request> unreported = requests.subList(reports.size(), requests.size());
        Optional<Reason> refusal = reports.isEmpty()
                ? Optional.empty()
                : Optional.of(reports.get(reports.size() - 1).reason()).filter(Reason::refusesTheJob);
        // Also left: what this invocation did not reach (out of time, behind a failure) and a failure that
        // a replay would try again; without them a replay cut short would say nothing is left.
        long pending = reports.stream().filter(Dispatcher::leftForAReplay).count();
        long leftForAnotherReplay = range.beyond() + unreported.size() + (refusal.isPresent() ? 1 : 0) + pending;
        refusal.ifPresent(stop -> unreported.forEach(
                request -> reports.add(notRun(request, stop, "not run: the replay stopped at " + stop.wire()))));
        reports.addAll(done);
        return result("replay", job.id(), inTimeOrder(reports), Optional.empty(), leftForAnotherReplay);
    }

    /**
     * The replay's occurrences in {@code [from, to)}, oldest first: up to {@code max} not yet done (one
     * ledger read each), the done ones met on the way (not counted in {@code max}, so replaying the same
     * range again gets further), and how many lie beyond, unread.
     */
    private record ReplayRange(List<Instant> toRun, List<Instant> done, long beyond) {}

    /**
     * Done occurrences one replay reads past at most: done ones do not count in {@code max}, so without a
     * bound a long range already run (a month of a one-minute job) would be read whole and answered in a
     * result beyond Lambda's 6 MB response. What is left is counted as not run, for the next replay.
     */
    static final int DONE_READ_LIMIT = 1_000;

    private ReplayRange replayRange(RunSubject job, OccurrenceCalculator calculator, Invocation.Replay r) {
        List<Instant> toRun = new ArrayList<>();
        List<Instant> done = new ArrayList<>();
        Optional<Instant> next = calculator.isOccurrence(r.from()) ? Optional.of(r.from()) : calculator.next(r.from());
        while (next.isPresent()
                && next.get().isBefore(r.to())
                && toRun.size() < r.max()
                && done.size() < DONE_READ_LIMIT) {
            (succeeded(job, next.get()) ? done : toRun).add(next.get());
            next = calculator.next(next.get());
        }
        long beyond = next.filter(n -> n.isBefore(r.to()))
                .map(n -> 1 + calculator.count(n, r.to()))
                .orElse(0L);
        return new ReplayRange(toRun, done, beyond);
    }

    /** Not done by this replay, and a replay of the same range would take it (not a refusal, which is counted apart). */
    private static boolean leftForAReplay(OccurrenceReport report) {
        return report.reason() == Reason.DEADLINE
                || report.reason() == Reason.EARLIER_FAILED
                || report.reason().retried();
    }

    /** One ledger read: whether the occurrence's run item says it succeeded. */
    private boolean succeeded(RunSubject subject, Instant occurrence) {
        return services.ledger()
                .run(subject.key(occurrence))
                .filter(record -> record.status() == RunStatus.SUCCEEDED)
                .isPresent();
    }

    private static List<OccurrenceReport> inTimeOrder(List<OccurrenceReport> reports) {
        return reports.stream()
                .sorted(java.util.Comparator.comparing(OccurrenceReport::occurrence))
                .toList();
    }

    /**
     * Runs the requests oldest first. After a failure the later ones are left for the failed one's
     * retry, so occurrences keep their order; they stay claimable and are reported, not recorded.
     */
    private List<OccurrenceReport> runInOrder(
            List<OccurrenceRunner.Request> requests, Deadline deadline, StructuredLog log, int catchUp, long missed) {
        List<OccurrenceReport> reports = new ArrayList<>();
        Reason stopReason = null;
        for (OccurrenceRunner.Request request : requests) {
            if (stopReason == null
                    && !deadline.allowsAnotherOccurrence(services.clock().instant())) {
                stopReason = Reason.DEADLINE;
            }
            Instant started = services.clock().instant();
            OccurrenceReport report =
                    stopReason != null ? notRun(request, stopReason) : runner.run(request, deadline, log);
            logOutcome(log, request.job(), report, catchUp, missed, Duration.between(request.occurrence(), started));
            reports.add(report);
            if (report.reason().refusesTheJob()) {
                // Recorded once, for the delivered occurrence; the others stay pending for the next trigger.
                break;
            }
            if (report.reason().stopsTheBatch()) {
                stopReason = Reason.EARLIER_FAILED;
            }
        }
        return reports;
    }

    private OccurrenceReport notRun(OccurrenceRunner.Request request, Reason reason) {
        return notRun(request, reason, "left for the next trigger");
    }

    /** A SKIP that claimed and recorded nothing. */
    private static OccurrenceReport notRun(OccurrenceRunner.Request request, Reason reason, String detail) {
        return OccurrenceReport.notRun(
                request.job().id(),
                request.subject().entityId(),
                request.occurrence(),
                request.occurrence().atZone(request.subject().schedule().zone()),
                request.trigger(),
                reason,
                detail);
    }

    private void recordMissed(RunSubject subject, MissedRange missed, StructuredLog log) {
        JobDefinition job = subject.job();
        int count = (int) Math.min(Integer.MAX_VALUE, missed.count());
        services.ledger().recordMissed(subject.key(missed.first()), missed.last(), count);
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("stage", stage());
        fields.put("job", job.id());
        subject.entity().ifPresent(e -> fields.put("entity", e.id()));
        fields.put("missed_first", missed.first().toString());
        fields.put("missed_last", missed.last().toString());
        fields.put("missed_count", missed.count());
        log.warn("occurrences missed", fields);
        services.events()
                .publish(
                        new LifecycleEvent.OccurrencesMissed(
                                stage(),
                                job.id(),
                                missed.first(),
                                missed.last(),
                                missed.count(),
                                subject.schedule().zone(),
                                subject.entity().map(e -> e.id()).orElse(null)),
                        log);
    }

    private void logOutcome(StructuredLog log, JobDefinition job, OccurrenceReport r, int catchUp, long missed) {
        logOutcome(
                log,
                job,
                r,
                catchUp,
                missed,
                Duration.between(r.occurrence(), services.clock().instant()));
    }

    private void logOutcome(
            StructuredLog log, JobDefinition job, OccurrenceReport r, int catchUp, long missed, Duration lateness) {
        // A deadline skip is a missed occurrence (decision 0032): the Missed metric and its alarms count it.
        long counted = missed + (OccurrenceRunner.countsAsMissed(r) ? 1 : 0);
        OccurrenceOutcome outcome = r.outcome(stage(), catchUp, counted, lateness);
        listeners.forEach(listener -> listener.ended(job, outcome, log));
    }

    private InvocationResult result(
            String kind, String job, List<OccurrenceReport> reports, Optional<MissedRange> missed, long notRun) {
        return new InvocationResult(stage(), kind, job, reports, missed, notRun, Optional.empty());
    }

    private String stage() {
        return services.flags().stage();
    }
}
