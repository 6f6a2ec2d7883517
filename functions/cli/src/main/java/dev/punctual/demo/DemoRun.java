package dev.punctual.demo;

import dev.punctual.catchup.MissedRange;
import dev.punctual.entity.EntitySchedule;
import dev.punctual.hold.HeldMaintenance;
import dev.punctual.hold.HoldListener;
import dev.punctual.hold.HoldTerms;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.json.Json;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.RunStatus;
import dev.punctual.observability.StructuredLog;
import dev.punctual.outcome.Reason;
import dev.punctual.outcome.Verdict;
import dev.punctual.runtime.Deadline;
import dev.punctual.runtime.InvocationResult;
import dev.punctual.runtime.MissedRunWatchdog;
import dev.punctual.runtime.OccurrenceReport;
import dev.punctual.runtime.PunctualRuntime;
import dev.punctual.runtime.ScheduledPayload;
import dev.punctual.time.OccurrenceCalculator;
import dev.punctual.time.Schedule;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Drives the real runtime through the scenario and prints the timeline and the final ledger. */
final class DemoRun {

    private static final String ROW = "%-20s %-22s %-27s %-9s %-7s %-20s %s%n";
    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ISO_OFFSET_DATE_TIME;
    private static final String SUMMARY = "%-24s %-21s %11s %9s %7s %6s %6s %10s%n";

    private final PunctualRuntime runtime;
    private final SimulatedClock clock;
    private final StructuredLog log;
    private final DemoLog logged;
    private final PrintWriter out;
    private int routine;
    /** Frequent jobs whose last outcome was not a routine pass: their next pass is shown, not folded. */
    private final Map<String, Reason> interrupted = new TreeMap<>();

    private final Map<String, List<MissedRange>> missedByJob = new TreeMap<>();

    /** The data tool's data set (decision 0036): what it loads under its hold, and what is reset later. */
    private final SyntheticMembers synthetic;

    /** The data tool's hold while it runs, renewed on the simulated clock as its renewer would. */
    private HeldMaintenance held;

    private int renewals;

    /** The long job's act, after the timeline and before the final ledger. */
    private final MonthEndAct monthEnd;

    /** The command the data tool stands for, as {@code maintenance hold} would name it. */
    static final String LOAD_COMMAND = "./load-synthetic-members --count 3";

    DemoRun(
            PunctualRuntime runtime,
            SimulatedClock clock,
            StructuredLog log,
            DemoLog logged,
            PrintWriter out,
            SyntheticMembers synthetic,
            MonthEndAct monthEnd) {
        this.runtime = runtime;
        this.clock = clock;
        this.log = log;
        this.logged = logged;
        this.out = out;
        this.synthetic = synthetic;
        this.monthEnd = monthEnd;
    }

    void run() {
        JobCatalog catalog = runtime.services().catalog();
        out.printf(
                "Timeline %s .. %s, stage %s (routine passes of the quarter-hourly jobs are folded)%n%n",
                DemoScenario.START, DemoScenario.END, runtime.services().flags().stage());
        out.printf(ROW, "DELIVERED (UTC)", "JOB", "OCCURRENCE (LOCAL)", "TRIGGER", "OUTCOME", "REASON", "NOTE");
        java.util.Deque<Narration.Line> story = new java.util.ArrayDeque<>(Narration.of(catalog));
        for (DemoScenario.Step step : DemoScenario.steps(catalog)) {
            while (!story.isEmpty() && !story.peek().at().isAfter(step.at())) {
                flushRoutine();
                out.printf("%n-- %s%n", story.poll().text());
            }
            clock.set(step.at());
            switch (step) {
                case DemoScenario.Delivery d -> deliver(d);
                case DemoScenario.DataTool tool -> dataTool(tool, catalog);
            }
        }
        flushRoutine();
        monthEnd.run();
        printLedger(catalog);
    }

    private void deliver(DemoScenario.Delivery d) {
        String payload = d.entity()
                .map(tenant -> entityPayload(tenant, d.scheduledTime()))
                .orElseGet(() -> jobPayload(runtime.services().catalog().require(d.job()), d.scheduledTime()));
        logged.takeRecent();
        InvocationResult result =
                runtime.handle(payload, Deadline.fromRemaining(clock.instant(), Duration.ofMinutes(5)), log);
        List<String> lines = logged.takeRecent();
        result.missed()
                .ifPresent(m -> missedByJob
                        .computeIfAbsent(d.ledgerId(), j -> new ArrayList<>())
                        .add(m));
        java.time.ZoneId zone = d.entity()
                .map(tenant -> tenant.schedule().zone())
                .orElseGet(() ->
                        runtime.services().catalog().require(d.job()).schedule().zone());
        String missed = result.missed()
                .map(m -> Narration.catchUp(result.occurrences().size(), m, zone))
                .orElse(
                        result.occurrences().size() > 1
                                ? "catch-up: " + result.occurrences().size() + " run, none missed"
                                : "");
        for (OccurrenceReport o : result.occurrences()) {
            boolean catchUp = !o.occurrence().equals(d.scheduledTime());
            // The watchdog's result carries a count; its WARN lines of this delivery name what it found.
            Optional<WatchdogFinding> finding = WatchdogFinding.of(o, lines);
            String note = String.join(
                    "; ",
                    List.of(
                                    d.note(),
                                    catchUp ? "caught up late" : "",
                                    o.occurrence().equals(d.scheduledTime()) ? missed : "",
                                    finding.map(WatchdogFinding::text).orElse(detail(o)))
                            .stream()
                            .filter(s -> !s.isBlank())
                            .toList());
            boolean eventful = finding.isPresent()
                    || catchUp
                    || !d.note().isBlank()
                    || (!missed.isBlank() && o.occurrence().equals(d.scheduledTime()));
            boolean pass = o.verdict() == Verdict.PASS && o.reason() == Reason.OK;
            String ledgerId = d.entity().isPresent() ? d.ledgerId() : o.job();
            // The first pass after a skip (a blackout's end, maintenance off) shows the job running again.
            Reason after = pass ? interrupted.remove(ledgerId) : null;
            if (!pass && frequent(d.job())) {
                interrupted.put(ledgerId, o.reason());
            }
            if (after != null) {
                note = note.isBlank() ? "runs again after " + after : note + "; runs again after " + after;
            } else if (pass && !eventful && frequent(d.job())) {
                routine++;
                continue;
            }
            flushRoutine();
            out.printf(
                    ROW,
                    d.at().toString().substring(0, 19),
                    d.entity().isPresent() ? d.ledgerId() : o.job(),
                    LOCAL.format(o.local()),
                    o.trigger(),
                    o.verdict(),
                    o.reason(),
                    note);
        }
    }

    /**
     * A job's delivery as its schedule's input fills it ({@link ScheduledPayload#forJob}): a spread job's
     * fires, and says it fired, its offset after the occurrence.
     */
    private static String jobPayload(dev.punctual.job.JobDefinition job, Instant occurrence) {
        Map<String, Object> input =
                new java.util.LinkedHashMap<>(ScheduledPayload.forJob(job.id(), job.offsetMinutes()));
        input.put(
                ScheduledPayload.SCHEDULED_TIME,
                occurrence.plusSeconds(60L * job.offsetMinutes()).toString());
        input.put(ScheduledPayload.EXECUTION_ID, "demo");
        input.put(ScheduledPayload.ATTEMPT_NUMBER, "1");
        input.remove(ScheduledPayload.SCHEDULE_ARN);
        return Json.write(input);
    }

    /** An entity's delivery as its schedule's input fills it ({@link ScheduledPayload#forEntity}). */
    private static String entityPayload(EntitySchedule tenant, Instant scheduledTime) {
        Map<String, Object> input = new java.util.LinkedHashMap<>(ScheduledPayload.forEntity(tenant));
        input.put(ScheduledPayload.SCHEDULED_TIME, scheduledTime.toString());
        input.put(ScheduledPayload.EXECUTION_ID, "demo");
        input.put(ScheduledPayload.ATTEMPT_NUMBER, "1");
        input.put(ScheduledPayload.SCHEDULE_ARN, "demo/" + tenant.name());
        return Json.write(input);
    }

    private static boolean frequent(String job) {
        return job.equals("expire-reservations") || job.equals("refund-keys") || job.equals(MissedRunWatchdog.ID);
    }

    private static String detail(OccurrenceReport o) {
        // An OUTSIDE_RULE firing's delivery note already says what its detail does (DemoScenario).
        if (o.detail() == null || o.reason() == Reason.ALREADY_DONE || o.reason() == Reason.OUTSIDE_RULE) {
            return "";
        }
        String detail = Narration.stableJson(o.detail());
        return detail.length() > 70 ? detail.substring(0, 69) + "…" : detail;
    }

    /**
     * The data tool of decision 0036: {@code punctual maintenance hold -- LOAD_COMMAND} takes every lock
     * group through {@link HeldMaintenance} (the CLI's own), the tool loads synthetic members, the hold is
     * renewed while it runs and given back when it exits. The members it loaded stay, so the examples'
     * maintenance condition keeps every job skipping until the data set is reset.
     */
    private void dataTool(DemoScenario.DataTool tool, JobCatalog catalog) {
        String at = tool.at().toString().substring(0, 19);
        switch (tool.step()) {
            case HOLD_TAKEN -> {
                flushRoutine();
                HoldTerms terms = HoldTerms.of(catalog.lockItems(), "loading synthetic members", "demo-loader")
                        .forCommand(LOAD_COMMAND)
                        .waitingAtMost(Duration.ofSeconds(5), Duration.ofMillis(250));
                held = HeldMaintenance.takeWithoutRenewer(
                                runtime.services().ledger(), terms, clock, HoldListener.SILENT)
                        .orThrow();
                out.printf(
                        "%-20s maintenance hold -- %s: every lock group held (%d) while it runs, renewed every"
                                + " %ss%n",
                        at,
                        LOAD_COMMAND,
                        held.heldUntil().size(),
                        terms.renewEvery().toSeconds());
            }
            case HOLD_RENEWED -> {
                held.renewNow();
                renewals++;
            }
            case HOLD_RELEASED -> {
                flushRoutine();
                // The tool's last step writes what it loaded; then it exits and its hold is given back.
                int loaded = synthetic.load(3);
                boolean intact = held.intact();
                held.close();
                out.printf(
                        "%-20s the command loaded %d synthetic members and exits 0: hold %s (renewed %d times); the"
                                + " members remain, so condition synthetic-members holds and jobs keep skipping%n",
                        at, loaded, intact ? "released" : "LOST " + held.lost(), renewals);
            }
            case DATA_RESET -> {
                flushRoutine();
                int removed = synthetic.reset();
                out.printf(
                        "%-20s data set reset (%d synthetic members deleted): condition synthetic-members finds"
                                + " nothing; the next deliveries run and catch up%n",
                        at, removed);
            }
        }
    }

    private void flushRoutine() {
        if (routine > 0) {
            out.printf(
                    "%-20s … %d routine PASS of expire-reservations / refund-keys / missed-run-watchdog%n",
                    "", routine);
            routine = 0;
        }
    }

    private void printLedger(JobCatalog catalog) {
        RunLedger ledger = runtime.services().ledger();
        out.printf("%nFinal ledger (run items read back through the ledger port; each occurrence counted once)%n%n");
        out.printf(
                SUMMARY,
                "JOB",
                "CURSOR (UTC)",
                "OCCURRENCES",
                "SUCCEEDED",
                "SKIPPED",
                "FAILED",
                "MISSED",
                "UNRECORDED");
        List<String> notable = new ArrayList<>();
        List<String> overlaps = new ArrayList<>();
        for (JobDefinition job : catalog.jobs()) {
            if (job.isPerEntity()) {
                // One row per tenant: its cursor and runs are its own, under job:entity. The demo's tenants are
                // its own job's; another per-entity job (the examples' tenant-report) has no entity here.
                if (!job.id().equals(DemoJobs.TENANT_DIGEST)) {
                    continue;
                }
                for (EntitySchedule tenant : DemoJobs.tenants()) {
                    summarize(tenant.ledgerId(), tenant.schedule(), ledger, notable, overlaps);
                }
            } else {
                summarize(job.id(), job.schedule(), ledger, notable, overlaps);
            }
        }
        out.printf("%n%s", LedgerTally.LEGEND);
        overlaps.forEach(out::println);
        out.printf("%n%-24s %-21s %-9s %-9s %s%n", "JOB", "OCCURRENCE (UTC)", "STATUS", "TRIGGER", "REASON");
        notable.forEach(out::println);
    }

    /** One summary row: the occurrences of {@code schedule} in the window, read back under {@code id}. */
    private void summarize(
            String id, Schedule schedule, RunLedger ledger, List<String> notable, List<String> overlaps) {
        // The long job's act ran February's month-end, before the timeline's window: its row counts from it.
        Instant from = id.equals(MonthEndAct.JOB) ? MonthEndAct.OCCURRENCE : DemoScenario.START;
        List<Instant> occurrences = OccurrenceCalculator.of(schedule).between(from, DemoScenario.END, 1000);
        List<MissedRange> ranges = missedByJob.getOrDefault(id, List.of());
        LedgerTally tally = LedgerTally.of(
                occurrences,
                occurrence -> ledger.run(new RunKey(id, occurrence)).map(RunRecord::status),
                ranges);
        for (Instant occurrence : occurrences) {
            ledger.run(new RunKey(id, occurrence))
                    .filter(r -> r.status() != RunStatus.SUCCEEDED)
                    .ifPresent(r -> notable.add(notable(id, r)));
        }
        out.printf(
                SUMMARY,
                id,
                ledger.cursor(id).map(Instant::toString).orElse("-"),
                tally.occurrences(),
                tally.succeeded(),
                tally.skipped(),
                tally.failed(),
                tally.missed(),
                tally.unrecorded());
        if (tally.skippedInMissedRange() > 0) {
            overlaps.add(String.format(
                    "%s: %d of its skips also lie in a missed range catch-up recorded (its ranges count %d);"
                            + " each counts once, as SKIPPED",
                    id,
                    tally.skippedInMissedRange(),
                    ranges.stream().mapToLong(MissedRange::count).sum()));
        }
    }

    private static String notable(String id, RunRecord r) {
        return String.format(
                "%-24s %-21s %-9s %-9s %s",
                id,
                r.key().scheduledTime(),
                r.status(),
                r.trigger() == null ? "-" : r.trigger(),
                r.reason() == null ? "" : r.reason());
    }
}
