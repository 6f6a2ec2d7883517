package dev.punctual.time;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A deployed schedule shifted by whole minutes so that EventBridge Scheduler fires each occurrence
 * exactly {@code k} minutes after it (decision 0030). The shift is made on the deployed expression's local
 * time (minute field, or the {@code at()} time), then proven exact against the zone's transitions:
 * every deployed firing is a nominal occurrence plus {@code k}, and every nominal occurrence fires so.
 * A shift that is not exact is reported as empty, never deployed.
 */
final class Shift {

    /** Transitions are checked from here (a fixed start, so a catalog means the same whenever it loads). */
    static final Instant CHECKED_FROM = Instant.parse("2026-01-01T00:00:00Z");

    /** ... to here: 74 years of the zone's rules as this JVM's time-zone data has them. */
    static final Instant CHECKED_TO = Instant.parse("2100-01-01T00:00:00Z");

    /** Around each transition: a shift of at most 59 minutes meets one only within this of it. */
    private static final Duration AROUND = Duration.ofHours(1);

    private Shift() {}

    /**
     * The schedule EventBridge fires on, as a schedule: a rate() as its UTC cron (docs/time.md), an RRULE
     * as its containing cron (decision 0049).
     */
    static Schedule deployedAsSchedule(Schedule nominal) {
        Schedule.Deployment deployment = nominal.deployment();
        if (nominal.expression() instanceof RateExpression || nominal.expression() instanceof RecurrenceExpression) {
            return new Schedule(ScheduleExpression.parse(deployment.expression()), deployment.zone());
        }
        return nominal;
    }

    /** The deployed schedule shifted by {@code minutes}, when that shift is exact; empty otherwise. */
    static Optional<Schedule> shifted(Schedule nominal, int minutes) {
        Schedule deployed = deployedAsSchedule(nominal);
        if (minutes == 0) {
            return Optional.of(deployed);
        }
        Optional<Schedule> shifted = switch (deployed.expression()) {
            case CronExpression cron -> cron(cron, minutes).map(c -> new Schedule(c, deployed.zone()));
            case AtExpression at -> at(at, minutes, deployed.zone());
            case RateExpression rate -> Optional.empty(); // deployedAsSchedule never returns one
            case RecurrenceExpression recurrence -> Optional.empty(); // deployedAsSchedule never returns one
        };
        return shifted.filter(s -> exact(deployed, minutes));
    }

    /**
     * The proof, remembered: every put and every delivery of an entity asks it again, mostly for the job's
     * own expression in a handful of zones. Bounded: past {@link #REMEMBERED} answers it starts afresh.
     */
    private static boolean exact(Schedule deployed, int k) {
        String key =
                deployed.expression().toEventBridge() + " " + deployed.zone().getId() + " " + k;
        Boolean known = EXACT.get(key);
        if (known != null) {
            return known;
        }
        boolean exact = exactInZone(deployed, k);
        if (EXACT.size() >= REMEMBERED) {
            EXACT.clear();
        }
        EXACT.put(key, exact);
        return exact;
    }

    private static final int REMEMBERED = 4096;

    private static final Map<String, Boolean> EXACT = new ConcurrentHashMap<>();

    /**
     * The cron with each minute moved on by {@code k}. Exact as a set of local times when no minute
     * carries into the next hour, or when every hour, day, month and year matches (then the carry lands
     * on a matching hour too); any other carry would need hours or days of their own, so it is empty.
     */
    private static Optional<CronExpression> cron(CronExpression cron, int k) {
        int last = cron.minutes().values().max().orElseThrow();
        boolean noCarry = last + k <= CronField.MINUTE.max();
        boolean carryLandsOnAMatch = cron.hours().isFull()
                && cron.days() instanceof DayRule.EveryDay
                && cron.months().isFull()
                && cron.years().isFull();
        if (!noCarry && !carryLandsOnAMatch) {
            return Optional.empty();
        }
        BitSet moved = new BitSet();
        cron.minutes().values().forEach(m -> moved.set((m + k) % 60));
        FieldSet minutes = FieldSet.of(CronField.MINUTE, moved);
        CronExpression draft = new CronExpression(
                "", CronDialect.EVENTBRIDGE, minutes, cron.hours(), cron.days(), cron.months(), cron.years());
        return Optional.of(new CronExpression(
                draft.toEventBridge(),
                CronDialect.EVENTBRIDGE,
                minutes,
                cron.hours(),
                cron.days(),
                cron.months(),
                cron.years()));
    }

    private static Optional<Schedule> at(AtExpression at, int k, ZoneId zone) {
        LocalDateTime local = at.localTime().plusMinutes(k);
        AtExpression moved = new AtExpression("", local);
        try {
            return Optional.of(new Schedule(new AtExpression(moved.toEventBridge(), local), zone));
        } catch (ScheduleExpressionException inAGap) {
            return Optional.empty();
        }
    }

    /**
     * Whether shifting every local time by {@code k} minutes moves every instant by exactly {@code k}
     * in the zone. Away from a transition it does; near one, each occurrence's shifted local time must
     * exist and fall on the occurrence plus {@code k} (the earlier instant of a repeated time, as the
     * calculator keys it; a repeated shifted time only from a repeated one), and each local time the gap skipped must shift
     * into the gap as well, or the shifted schedule would fire where no occurrence was.
     */
    private static boolean exactInZone(Schedule deployed, int k) {
        ZoneId zone = deployed.zone();
        ZoneRules rules = zone.getRules();
        if (deployed.expression() instanceof AtExpression at) {
            // Its one occurrence: the local time's instant, the earlier one of a repeated hour.
            return sameInstant(ZonedDateTime.of(at.localTime(), zone).toInstant(), at.localTime(), k, zone);
        }
        if (rules.isFixedOffset()) {
            return true;
        }
        CronMatcher matcher = new CronMatcher((CronExpression) deployed.expression());
        for (ZoneOffsetTransition transition : transitions(zone)) {
            // The local times whose shift can meet the transition: from an hour before its earlier side to
            // an hour after its later one (a gap's or a repeated hour's ends). Elsewhere both ends of a
            // shift have the one offset, so it is exact.
            LocalDateTime before = transition.getDateTimeBefore();
            LocalDateTime after = transition.getDateTimeAfter();
            LocalDateTime from = (before.isBefore(after) ? before : after).minus(AROUND);
            long to = localSeconds((before.isBefore(after) ? after : before).plus(AROUND));
            for (long local = matcher.next(localSeconds(from));
                    local != LocalCalendar.NONE && local < to;
                    local = matcher.next(local + 60)) {
                LocalDateTime time = LocalDateTime.ofEpochSecond(local, 0, ZoneOffset.UTC);
                boolean exact = rules.getValidOffsets(time).isEmpty()
                        // skipped by a gap: its shift must be skipped too, or it would fire where nothing was
                        ? rules.getValidOffsets(time.plusMinutes(k)).isEmpty()
                        : sameInstant(ZonedDateTime.of(time, zone).toInstant(), time, k, zone);
                if (!exact) {
                    return false;
                }
            }
        }
        return true;
    }

    private static long localSeconds(LocalDateTime time) {
        return time.toEpochSecond(ZoneOffset.UTC);
    }

    /** The zone's transitions in the checked years, listed once per zone. */
    private static List<ZoneOffsetTransition> transitions(ZoneId zone) {
        return TRANSITIONS.computeIfAbsent(zone.getId(), id -> {
            List<ZoneOffsetTransition> list = new ArrayList<>();
            Instant from = CHECKED_FROM;
            ZoneOffsetTransition transition;
            while ((transition = zone.getRules().nextTransition(from)) != null
                    && transition.getInstant().isBefore(CHECKED_TO)) {
                list.add(transition);
                from = transition.getInstant();
            }
            return List.copyOf(list);
        });
    }

    private static final Map<String, List<ZoneOffsetTransition>> TRANSITIONS = new ConcurrentHashMap<>();

    /**
     * Whether the occurrence's shifted local time exists and is exactly {@code k} minutes later. A shifted
     * time in a repeated hour must come from one in the same repeated hour: EventBridge fires a repeated
     * time once, and which of its two instants is not documented (docs/time.md); from inside the hour,
     * the later instant minus {@code k} is the occurrence's own later instant, which the runtime keys at
     * the earlier one, while from before the hour it would be an hour past any occurrence.
     */
    private static boolean sameInstant(Instant occurrence, LocalDateTime local, int k, ZoneId zone) {
        ZoneRules rules = zone.getRules();
        LocalDateTime shifted = local.plusMinutes(k);
        int offsets = rules.getValidOffsets(shifted).size();
        return offsets > 0
                && (offsets == 1 || rules.getValidOffsets(local).size() > 1)
                && ZonedDateTime.of(shifted, zone).toInstant().equals(occurrence.plusSeconds(60L * k));
    }
}
