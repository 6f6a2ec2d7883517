package dev.punctual.demo;

import dev.punctual.entity.EntitySchedule;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.time.OccurrenceCalculator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The simulated window: what EventBridge Scheduler would deliver between {@link #START} and
 * {@link #END}, with the incidents the demo shows. The window contains the start of daylight saving
 * time in New York (2027-03-14), so the daily report's 09:00 moves from 14:00Z to 13:00Z.
 */
final class DemoScenario {

    static final Instant START = Instant.parse("2027-03-13T12:00:00Z");
    static final Instant END = Instant.parse("2027-03-15T12:00:00Z");

    /** Deliveries of the reservation jobs are lost in this window (a disabled target, a broken deploy). */
    static final Instant OUTAGE_FROM = Instant.parse("2027-03-14T00:00:00Z");

    static final Instant OUTAGE_TO = Instant.parse("2027-03-14T03:00:00Z");

    /**
     * Every job is held off for this hour: a data tool loads synthetic members under {@code maintenance
     * hold} until {@link #LOAD_DONE}, and the data it loaded holds the stage (the examples' maintenance
     * condition) until the data set is reset at the hour's end.
     */
    static final Instant MAINTENANCE_FROM = Instant.parse("2027-03-14T06:00:00Z");

    static final Instant LOAD_DONE = Instant.parse("2027-03-14T06:30:00Z");

    static final Instant MAINTENANCE_TO = Instant.parse("2027-03-14T07:00:00Z");

    /** How often the data tool's hold is renewed, as HeldMaintenance's renewer does (a quarter of its lapse). */
    static final Duration RENEW_EVERY = Duration.ofSeconds(30);

    /** This occurrence of the daily report is delivered twice, as Lambda's async queue may do. */
    static final Instant DUPLICATED = Instant.parse("2027-03-14T13:00:00Z");

    /**
     * This occurrence of send-reminders (18:00 in Seoul) is delivered 25 minutes late, past its 10-minute
     * start deadline: recorded as SKIP DEADLINE_PASSED and counted as missed, never sent late.
     */
    static final Instant LATE_REMINDER = Instant.parse("2027-03-14T09:00:00Z");

    static final Duration REMINDER_LATENESS = Duration.ofMinutes(25);

    /** Scheduler deliveries land a little after their scheduled time. */
    static final Duration DELIVERY_DELAY = Duration.ofMillis(1200);

    /** One thing that happens in the window. */
    sealed interface Step {
        Instant at();
    }

    /** The scheduler delivers one occurrence of one job, or of one entity of a per-entity job. */
    record Delivery(Instant at, String job, Instant scheduledTime, String note, Optional<EntitySchedule> entity)
            implements Step {

        Delivery(Instant at, String job, Instant scheduledTime, String note) {
            this(at, job, scheduledTime, note, Optional.empty());
        }

        /** The ledger id its run items are kept under: the job's, or {@code job:entity}. */
        String ledgerId() {
            return entity.map(EntitySchedule::ledgerId).orElse(job);
        }
    }

    /** What the data tool does: starts under its hold, renews it, ends, and the data set is reset later. */
    enum DataToolStep {
        HOLD_TAKEN,
        HOLD_RENEWED,
        HOLD_RELEASED,
        DATA_RESET
    }

    /** A step of the data tool. */
    record DataTool(Instant at, DataToolStep step) implements Step {}

    private DemoScenario() {}

    static List<Step> steps(JobCatalog catalog) {
        List<Step> steps = new ArrayList<>();
        for (JobDefinition job : catalog.jobs()) {
            if (job.isPerEntity()) {
                // Each tenant's own schedule delivers, with its zone and parameters (ScheduledPayload.forEntity).
                // The tenants are the demo's own job's; another per-entity job (the examples' tenant-report) has
                // no entity in the demo, so nothing delivers for it.
                if (!job.id().equals(DemoJobs.TENANT_DIGEST)) {
                    continue;
                }
                for (EntitySchedule tenant : DemoJobs.tenants()) {
                    for (Instant occurrence :
                            OccurrenceCalculator.of(tenant.schedule()).between(START, END, 1000)) {
                        steps.add(new Delivery(
                                occurrence.plus(DELIVERY_DELAY), job.id(), occurrence, "", Optional.of(tenant)));
                    }
                }
                continue;
            }
            OccurrenceCalculator rule = OccurrenceCalculator.of(job.schedule());
            // What EventBridge fires on: the schedule itself, or an RRULE's containing cron, whose firings the
            // rule leaves out the runtime answers OUTSIDE_RULE without a ledger write (decision 0049).
            for (Instant occurrence :
                    OccurrenceCalculator.of(job.schedule().deployed()).between(START, END, 1000)) {
                if (lostInOutage(job, occurrence)) {
                    continue;
                }
                if (!rule.isOccurrence(occurrence)) {
                    steps.add(new Delivery(
                            occurrence.plus(DELIVERY_DELAY), job.id(), occurrence, outsideRule(job, rule, occurrence)));
                    continue;
                }
                // The scheduler delivers every occurrence of the deployed expression, holidays and blackouts
                // included: the runtime skips those (decision 0034).
                boolean late = job.id().equals("send-reminders") && occurrence.equals(LATE_REMINDER);
                // A spread job's schedule fires its offset after each occurrence (decision 0035).
                Duration fired = Duration.ofMinutes(job.offsetMinutes());
                steps.add(new Delivery(
                        occurrence.plus(fired).plus(late ? REMINDER_LATENESS : DELIVERY_DELAY),
                        job.id(),
                        occurrence,
                        late
                                ? "delivered " + REMINDER_LATENESS.toMinutes() + " min late"
                                : fired.isZero() ? "" : "fired +" + fired.toMinutes() + " min (spreadOver)"));
                if (job.id().equals("daily-report") && occurrence.equals(DUPLICATED)) {
                    steps.add(new Delivery(
                            occurrence.plus(fired).plus(Duration.ofSeconds(40)),
                            job.id(),
                            occurrence,
                            "duplicate delivery"));
                }
            }
        }
        Instant started = MAINTENANCE_FROM.minusSeconds(30);
        Instant ended = LOAD_DONE.minusSeconds(30);
        steps.add(new DataTool(started, DataToolStep.HOLD_TAKEN));
        for (Instant renewal = started.plus(RENEW_EVERY);
                renewal.isBefore(ended);
                renewal = renewal.plus(RENEW_EVERY)) {
            steps.add(new DataTool(renewal, DataToolStep.HOLD_RENEWED));
        }
        steps.add(new DataTool(ended, DataToolStep.HOLD_RELEASED));
        steps.add(new DataTool(MAINTENANCE_TO.minusSeconds(30), DataToolStep.DATA_RESET));
        steps.sort(Comparator.comparing(Step::at));
        return steps;
    }

    /** The note of a firing of an RRULE's deployed cron that is not an occurrence of the rule. */
    private static String outsideRule(JobDefinition job, OccurrenceCalculator rule, Instant firing) {
        String next = rule.next(firing)
                .map(n -> n.atZone(job.schedule().zone()).toLocalDateTime().toString())
                .orElse("none");
        return "fired by its deployed " + job.schedule().deployment().expression() + ", not a rule occurrence ("
                + job.schedule().expression().describe() + "); next " + next;
    }

    private static boolean lostInOutage(JobDefinition job, Instant occurrence) {
        boolean reservationJob = job.lockGroup().equals(ExampleDomain.RESERVATIONS_GROUP);
        return reservationJob && !occurrence.isBefore(OUTAGE_FROM) && occurrence.isBefore(OUTAGE_TO);
    }
}
