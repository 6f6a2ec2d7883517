package dev.punctual.time;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Occurrences of an RRULE in a zone (decision 0038). The rule's local times (from DTSTART, every
 * INTERVAL-th period) are resolved in the zone by the same rule as cron: a local time in a spring-forward
 * gap is skipped, one in a repeated hour runs once, at its earlier instant. So an occurrence keeps its local
 * time across daylight-saving changes.
 *
 * <p>COUNT counts the occurrences that exist: a local time skipped by a gap is, like an impossible date
 * (the 31st of a 30-day month), "ignored and not counted" (RFC 5545 3.3.10), so COUNT=5 always runs five
 * times. The COUNT-th occurrence is found once (remembered per rule and zone) and then ends the rule as an
 * inclusive UNTIL would, so every search jumps to its period instead of walking from DTSTART.
 *
 * <p>Thread-safe.
 */
final class RecurrenceOccurrences implements OccurrenceSource {
    private static final long DAY = 86_400;
    /** Local time and instant differ by less than this in every zone (offsets lie within ±18 hours). */
    private static final long MARGIN = 2 * DAY;

    private static final int REMEMBERED = 4096;
    private static final Map<Object, long[]> COUNT_ENDS = new ConcurrentHashMap<>();

    private final RecurrenceRule rule;
    private final ZoneRules rules;
    private final StretchCache stretches = new StretchCache();
    /** The last local time the rule may produce (inclusive), or Long.MAX_VALUE. */
    private final long endLocal;
    /** The last instant an occurrence may have (inclusive), or Long.MAX_VALUE. */
    private final long endInstant;

    RecurrenceOccurrences(RecurrenceExpression expression, ZoneRules rules) {
        this.rule = new RecurrenceRule(expression);
        this.rules = rules;
        RecurrenceExpression.Until until = expression.until();
        if (until != null && until.utc()) {
            endLocal = Long.MAX_VALUE;
            endInstant = until.time().toEpochSecond(ZoneOffset.UTC);
        } else if (until != null) {
            endLocal = LocalCalendar.localSeconds(until.time());
            endInstant = Long.MAX_VALUE;
        } else if (expression.count() > 0) {
            endLocal = countEnd(expression, rules);
            endInstant = Long.MAX_VALUE;
        } else {
            endLocal = Long.MAX_VALUE;
            endInstant = Long.MAX_VALUE;
        }
    }

    /** The local time of the COUNT-th occurrence that exists, or Long.MAX_VALUE when there are fewer. */
    private long countEnd(RecurrenceExpression expression, ZoneRules zoneRules) {
        record Key(RecurrenceExpression expression, ZoneRules rules) {}
        Key key = new Key(expression, zoneRules);
        long[] known = COUNT_ENDS.get(key);
        if (known != null) {
            return known[0];
        }
        Forward walk = new Forward(rule.startLocal(), Long.MAX_VALUE);
        ZoneResolver zone = new ZoneResolver(zoneRules, stretches);
        int found = 0;
        long end = Long.MAX_VALUE;
        for (long local; (local = walk.next()) != NONE; ) {
            if (zone.toInstant(local) != ZoneResolver.GAP && ++found == expression.count()) {
                end = local;
                break;
            }
        }
        if (COUNT_ENDS.size() >= REMEMBERED) {
            COUNT_ENDS.clear();
        }
        COUNT_ENDS.put(key, new long[] {end});
        return end;
    }

    private long localOf(long epochSecond) {
        return epochSecond + rules.getOffset(Instant.ofEpochSecond(epochSecond)).getTotalSeconds();
    }

    @Override
    public long nextAfter(long epochSecond) {
        Forward walk = new Forward(localOf(epochSecond) - MARGIN, endLocal);
        ZoneResolver zone = new ZoneResolver(rules, stretches);
        for (long local; (local = walk.next()) != NONE; ) {
            long instant = zone.toInstant(local);
            if (instant == ZoneResolver.GAP || instant <= epochSecond) {
                continue;
            }
            return instant <= endInstant ? instant : NONE;
        }
        return NONE;
    }

    @Override
    public long previousBefore(long epochSecond) {
        // Past a UTC UNTIL, start from it rather than walk back over periods that can only be after it.
        long upper = localOf(endInstant < epochSecond ? endInstant + 1 : epochSecond) + MARGIN;
        ZoneResolver zone = new ZoneResolver(rules, stretches);
        for (long period = rule.usedAtOrBefore(rule.periodOf(Math.min(upper, endLocal)));
                period >= rule.startPeriod();
                period -= rule.interval()) {
            long[] candidates = rule.candidates(period);
            for (int i = candidates.length - 1; i >= 0; i--) {
                long local = candidates[i];
                if (local < rule.startLocal()) {
                    return NONE;
                }
                if (local > endLocal) {
                    continue;
                }
                long instant = zone.toInstant(local);
                if (instant != ZoneResolver.GAP && instant < epochSecond && instant <= endInstant) {
                    return instant;
                }
            }
        }
        return NONE;
    }

    @Override
    public long countBetween(long afterExclusive, long beforeExclusive) {
        Forward walk = new Forward(localOf(afterExclusive) - MARGIN, endLocal);
        ZoneResolver zone = new ZoneResolver(rules, stretches);
        long count = 0;
        for (long local; (local = walk.next()) != NONE; ) {
            long instant = zone.toInstant(local);
            if (instant == ZoneResolver.GAP || instant <= afterExclusive) {
                continue;
            }
            if (instant >= beforeExclusive || instant > endInstant) {
                break;
            }
            count++;
        }
        return count;
    }

    @Override
    public List<TimelineEntry> timeline(long fromInclusive, long toExclusive, int limit) {
        List<TimelineEntry> entries = new ArrayList<>();
        Forward walk = new Forward(localOf(fromInclusive) - MARGIN, endLocal);
        ZoneResolver zone = new ZoneResolver(rules, stretches);
        int occurrences = 0;
        for (long local; occurrences < limit && (local = walk.next()) != NONE; ) {
            long instant = zone.toInstant(local);
            TimelineEntry entry = instant == ZoneResolver.GAP
                    ? new SkippedLocalTime(LocalCalendar.localDateTime(local), zone.transition())
                    : new Occurrence(
                            Instant.ofEpochSecond(instant),
                            LocalCalendar.localDateTime(local),
                            ZoneOffset.ofTotalSeconds((int) (local - instant)),
                            zone.transition());
            long position = entry.position().getEpochSecond();
            if (position >= toExclusive || position > endInstant) {
                break;
            }
            if (position >= fromInclusive) {
                entries.add(entry);
                occurrences += entry instanceof Occurrence ? 1 : 0;
            }
        }
        return entries;
    }

    /**
     * The rule's local times from a lower bound, ascending: only those at or after DTSTART and at or before
     * the end, only in used periods, and none past {@link LocalCalendar#LAST_YEAR}. Mutable: one per search.
     */
    private final class Forward {
        private final long lower;
        private final long end;
        private final long lastPeriod;
        private long period;
        private long[] candidates; // of the current period; null before it is generated
        private int index;

        Forward(long lowerLocal, long endLocal) {
            this.lower = Math.max(lowerLocal, rule.startLocal());
            this.end = endLocal;
            this.lastPeriod = endLocal == Long.MAX_VALUE ? Long.MAX_VALUE : rule.periodOf(endLocal);
            this.period = Math.max(rule.startPeriod(), rule.usedAtOrBefore(rule.periodOf(lower)));
        }

        /** The next local time, or {@link OccurrenceSource#NONE}. */
        long next() {
            while (true) {
                if (candidates == null) {
                    if (period > lastPeriod || rule.firstYearOf(period) > LocalCalendar.LAST_YEAR) {
                        return NONE;
                    }
                    candidates = rule.candidates(period);
                    index = 0;
                }
                while (index < candidates.length) {
                    long local = candidates[index++];
                    if (local > end) {
                        return NONE;
                    }
                    if (local >= lower) {
                        return local;
                    }
                }
                candidates = null;
                period += rule.interval();
            }
        }
    }
}
