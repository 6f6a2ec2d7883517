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
            throw new ScheduleExpressionException("time-zone", id, "is not a known time zone", ZONES);
        }
        if (zone instanceof ZoneOffset) {
            throw new ScheduleExpressionException("time-zone", id, "is an offset, not a zone", ZONES);
        }
        return zone;
    }

    /** The expression EventBridge Scheduler is given; pair it with {@link #zone()} as its time zone. */
    public String toEventBridge() {
        return expression.toEventBridge();
    }
}
