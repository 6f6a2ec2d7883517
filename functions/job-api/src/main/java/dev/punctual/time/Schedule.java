package dev.punctual.time;

import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * A schedule expression and the IANA time zone it is evaluated in. There is no default zone: UTC is
 * written as {@code UTC}, so nobody's local time is silently read as UTC.
 */
public record Schedule(ScheduleExpression expression, ZoneId zone) {

    private static final String ZONES = "an IANA zone id such as Europe/Berlin or America/New_York, or UTC";

    public Schedule {
        Objects.requireNonNull(expression, "expression");
        Objects.requireNonNull(zone, "zone");
        if (!ZoneId.getAvailableZoneIds().contains(zone.getId())) {
            throw new ScheduleExpressionException("time-zone", zone.getId(), "is not an IANA zone id", ZONES);
        }
        if (expression instanceof AtExpression at
                && zone.getRules().getValidOffsets(at.localTime()).isEmpty()) {
            throw new ScheduleExpressionException(
                    "at",
                    at.source(),
                    "names a local time that does not exist in " + zone.getId()
                            + " (clocks jump over it for daylight saving)",
                    "a local time outside the daylight-saving gap");
        }
    }

    /**
     * Parses an expression and a zone id.
     *
     * @throws ScheduleExpressionException when either is refused; a missing zone is refused too
     */
    public static Schedule parse(String expression, String zone) {
        return new Schedule(ScheduleExpression.parse(expression), zone(zone));
    }

    static ZoneId zone(String id) {
        if (id == null || id.isBlank()) {
            throw new ScheduleExpressionException(
                    "time-zone", "", "is missing; Punctual never assumes one (write UTC for UTC)", ZONES);
        }
        ZoneId zone;
        try {
            zone = ZoneId.of(id.strip());
        } catch (java.time.DateTimeException e) {
            throw new ScheduleExpressionException("time-zone", id, "is not a known time zone" + closestZone(id), ZONES);
        }
        if (zone instanceof ZoneOffset) {
            throw new ScheduleExpressionException("time-zone", id, "is an offset, not a zone", ZONES);
        }
        if (zone.getId().startsWith("SystemV/")) {
            // Java still ships the SystemV zones; the IANA database that EventBridge Scheduler reads
            // retired them in 2020b, so a schedule in one would be refused at deploy, not at synth.
            throw new ScheduleExpressionException(
                    "time-zone",
                    id,
                    "is a retired SystemV zone, not in the IANA database EventBridge Scheduler uses",
                    ZONES + " (for a fixed offset without daylight saving: Etc/GMT+5 is UTC-5)");
        }
        return zone;
    }

    /** Where {@link #longestPeriod} starts counting, fixed so a catalog means the same whenever it is loaded. */
    private static final java.time.Instant PERIOD_SAMPLE_FROM = java.time.Instant.parse("2026-01-01T00:00:00Z");

    private static final int PERIOD_SAMPLES = 64;

    /**
     * The longest time between two consecutive occurrences among the first 64 from 2026-01-01: the
     * schedule's period (a day, a week, a month of 31 days). Empty for a one-time schedule or one with
     * fewer than two occurrences from then on. A sample, not the whole calendar: a daylight-saving
     * change that lengthens one day by an hour may lie outside it.
     */
    public java.util.Optional<java.time.Duration> longestPeriod() {
        if (expression instanceof AtExpression) {
            return java.util.Optional.empty();
        }
        OccurrenceCalculator calculator = OccurrenceCalculator.of(this);
        java.util.Optional<java.time.Instant> previous = calculator.next(PERIOD_SAMPLE_FROM);
        java.time.Duration longest = null;
        for (int i = 0; i < PERIOD_SAMPLES && previous.isPresent(); i++) {
            java.util.Optional<java.time.Instant> next = calculator.next(previous.get());
            if (next.isEmpty()) {
                break;
            }
            java.time.Duration gap = java.time.Duration.between(previous.get(), next.get());
            longest = longest == null || gap.compareTo(longest) > 0 ? gap : longest;
            previous = next;
        }
        return java.util.Optional.ofNullable(longest);
    }

    /**
     * " (did you mean Europe/Paris?)" for a zone id typed in the wrong case ({@code europe/paris}) or
     * within two edits of a real one ({@code Europe/Pairs}); empty when none is that close.
     */
    private static String closestZone(String typed) {
        String given = typed.strip();
        if (given.length() > 64) {
            return "";
        }
        String best = null;
        int bestDistance = 3;
        // Sorted, so that of two equally close zones the same one is always named.
        for (String known : new java.util.TreeSet<>(ZoneId.getAvailableZoneIds())) {
            if (known.startsWith("SystemV/")) {
                continue;
            }
            if (known.equalsIgnoreCase(given)) {
                return " (did you mean " + known + "?)";
            }
            int distance = dev.punctual.EditDistance.between(given, known);
            if (distance < bestDistance) {
                best = known;
                bestDistance = distance;
            }
        }
        return best == null ? "" : " (did you mean " + best + "?)";
    }

    /** The expression in EventBridge's syntax, as written for this zone (for display and messages). */
    public String toEventBridge() {
        return expression.toEventBridge();
    }

    /**
     * What EventBridge Scheduler is given so that it fires at exactly this schedule's occurrences. A
     * cron or one-time expression deploys as written, in this zone. A {@code rate()} deploys as the
     * UTC cron with the same epoch-anchored occurrences (docs/time.md, "rate() anchor"). An RRULE
     * deploys as the narrowest cron containing it, in this zone ({@link #containingCron()}, decision
     * 0049): it fires at every occurrence of the rule and at others, which the runtime answers
     * without a ledger write.
     *
     * @throws ScheduleExpressionException for a rate no cron can express: EventBridge would anchor it
     *     at the schedule's creation, not at Punctual's anchor
     */
    public Deployment deployment() {
        if (expression instanceof RecurrenceExpression) {
            return new Deployment(containingCron().toEventBridge(), zone);
        }
        if (expression instanceof RateExpression rate) {
            String cron = rate.asUtcCron()
                    .orElseThrow(() -> new ScheduleExpressionException(
                            "rate",
                            rate.source(),
                            "cannot be deployed: EventBridge starts a rate when the schedule is created (and"
                                    + " refuses a StartDate in the past), so its deliveries would not fall on"
                                    + " Punctual's occurrences, which count from " + RateExpression.ANCHOR,
                            "rate(N minutes) with N dividing 60, rate(N hours) with N dividing 24, rate(1 day),"
                                    + " or a cron(...) expression"));
            return new Deployment(cron, ZoneId.of("UTC"));
        }
        return new Deployment(expression.toEventBridge(), zone);
    }

    /**
     * For an RRULE, the narrowest EventBridge cron in this zone that fires at every occurrence
     * ({@link RecurrenceExpression#containingCron()}), its years ending with the year of the rule's last
     * occurrence when a COUNT or UNTIL ends it, so the deployed schedule stops firing after that year.
     */
    private CronExpression containingCron() {
        RecurrenceExpression recurrence = (RecurrenceExpression) expression;
        if (!recurrence.ends()) {
            return recurrence.containingCron();
        }
        // The last occurrence's local year: a COUNT's end depends on the zone (a gap's local time is not
        // counted), so it is found here, where the zone is known. None at all: the rule's own last year.
        return OccurrenceCalculator.of(this)
                .previous(java.time.Instant.parse("2200-01-01T00:00:00Z"))
                .map(last -> recurrence.containingCron(last.atZone(zone).getYear()))
                .orElseGet(recurrence::containingCron);
    }

    /**
     * The schedule EventBridge Scheduler fires on, as a schedule: this one for a cron or at(), the UTC cron
     * of a rate(), the containing cron of an RRULE (whose other firings are not occurrences, decision 0049).
     */
    public Schedule deployed() {
        return Shift.deployedAsSchedule(this);
    }

    /**
     * What EventBridge Scheduler is given so that it fires at exactly this schedule's occurrences plus
     * {@code offsetMinutes} (a spread, decision 0030): the deployed expression with its local time moved
     * on, in the same zone. Offset 0 is {@link #deployment()}.
     *
     * @throws ScheduleExpressionException when that shift is not exact (a minute would carry into an hour
     *     or day the expression does not have, or a daylight-saving change lies between an occurrence and
     *     its shifted firing): {@link #largestExactOffset} gives one that is
     */
    public Deployment deployment(int offsetMinutes) {
        if (offsetMinutes < 0 || offsetMinutes >= Spread.LONGEST.toMinutes()) {
            throw new ScheduleExpressionException(
                    "offset_minutes", Integer.toString(offsetMinutes), "is out of range", "0 to 59");
        }
        Schedule shifted = Shift.shifted(this, offsetMinutes)
                .orElseThrow(() -> new ScheduleExpressionException(
                        "offset_minutes",
                        Integer.toString(offsetMinutes),
                        "cannot shift '" + expression.source() + "' in " + zone.getId() + " exactly (a minute would"
                                + " carry into an hour or day the expression does not match, or a daylight-saving"
                                + " change lies between an occurrence and its shifted firing)",
                        "an offset up to " + largestExactOffset(offsetMinutes) + " for this schedule"));
        return new Deployment(shifted.expression().toEventBridge(), shifted.zone());
    }

    /**
     * The largest offset from 0 to {@code wanted} minutes by which this schedule shifts exactly
     * ({@link #deployment(int)}); 0 always does. An expression whose last minute is :55 shifts by at most 4
     * unless every hour and day matches; a schedule with an occurrence just before a daylight-saving
     * change in its zone shifts by less than the time to that change.
     */
    public int largestExactOffset(int wanted) {
        for (int k = Math.min(wanted, (int) Spread.LONGEST.toMinutes() - 1); k > 0; k--) {
            if (Shift.shifted(this, k).isPresent()) {
                return k;
            }
        }
        return 0;
    }

    /**
     * An expression and zone as EventBridge Scheduler takes them.
     *
     * @param expression the {@code ScheduleExpression}
     * @param zone the {@code ScheduleExpressionTimezone}
     */
    public record Deployment(String expression, ZoneId zone) {}
}
