package dev.punctual.time;

import java.util.Objects;

/**
 * A cron expression of either dialect, normalised: day-of-week counts 0 = Sunday, the day rule is
 * exactly one of day-of-month or day-of-week (EventBridge cannot express Unix's "either"), and a
 * Unix expression has every year.
 */
public record CronExpression(
        String source,
        CronDialect dialect,
        FieldSet minutes,
        FieldSet hours,
        DayRule days,
        FieldSet months,
        FieldSet years)
        implements ScheduleExpression {

    public CronExpression {
        Objects.requireNonNull(source);
        Objects.requireNonNull(dialect);
        Objects.requireNonNull(days);
        requireField(minutes, CronField.MINUTE);
        requireField(hours, CronField.HOUR);
        requireField(months, CronField.MONTH);
        requireField(years, CronField.YEAR);
    }

    private static void requireField(FieldSet set, CronField field) {
        if (set.field() != field || set.isEmpty()) {
            throw new IllegalArgumentException(field.label() + " needs a non-empty set of its own field");
        }
    }

    @Override
    public String toEventBridge() {
        return "cron("
                + String.join(
                        " ",
                        FieldText.render(minutes),
                        FieldText.render(hours),
                        days.eventBridgeDayOfMonth(),
                        FieldText.render(months),
                        days.eventBridgeDayOfWeek(),
                        FieldText.render(years))
                + ")";
    }

    @Override
    public String describe() {
        StringBuilder text = new StringBuilder(describeTime()).append(' ').append(days.describe());
        if (!months.isFull()) {
            text.append(" in ").append(monthNames());
        }
        if (!years.isFull()) {
            text.append(" in year ").append(FieldText.render(years));
        }
        return text.toString();
    }

    private String describeTime() {
        int[] minuteValues = minutes.values().toArray();
        int[] hourValues = hours.values().toArray();
        if (minuteValues.length == 1 && hourValues.length <= 4) {
            StringBuilder text = new StringBuilder("at ");
            for (int i = 0; i < hourValues.length; i++) {
                text.append(i == 0 ? "" : ", ").append(String.format("%02d:%02d", hourValues[i], minuteValues[0]));
            }
            return text.toString();
        }
        String minutePart = minutes.isFull() ? "every minute" : "at minute " + FieldText.render(minutes);
        return minutePart + (hours.isFull() ? " of every hour" : " of hour " + FieldText.render(hours));
    }

    private String monthNames() {
        StringBuilder text = new StringBuilder();
        months.values().forEach(month -> text.append(text.isEmpty() ? "" : ",").append(CronField.MONTH.nameOf(month)));
        return text.toString();
    }
}
