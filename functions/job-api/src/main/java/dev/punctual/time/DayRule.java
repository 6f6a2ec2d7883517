package dev.punctual.time;

/**
 * Which days of a month a cron expression runs on. Every rule depends only on the month's length and
 * the weekday of its first day, so the calculator can tabulate the 28 possible months once per
 * expression and never test a day on its own.
 */
sealed interface DayRule {
    int SUNDAY = 0;
    int SATURDAY = 6;

    /** Bit d (1..length) set when the rule runs on day d of a month of that length. */
    int daysIn(int length, int firstWeekday);

    String eventBridgeDayOfMonth();

    String eventBridgeDayOfWeek();

    String describe();

    private static int weekdayOf(int day, int firstWeekday) {
        return (firstWeekday + day - 1) % 7;
    }

    /** Bits 1..length set. */
    static int allDays(int length) {
        return (int) ((1L << (length + 1)) - 2);
    }

    record EveryDay() implements DayRule {
        @Override
        public int daysIn(int length, int firstWeekday) {
            return allDays(length);
        }

        @Override
        public String eventBridgeDayOfMonth() {
            return "*";
        }

        @Override
        public String eventBridgeDayOfWeek() {
            return "?";
        }

        @Override
        public String describe() {
            return "every day";
        }
    }

    record MonthDays(FieldSet days) implements DayRule {
        @Override
        public int daysIn(int length, int firstWeekday) {
            return (int) days.firstWord() & allDays(length);
        }

        @Override
        public String eventBridgeDayOfMonth() {
            return FieldText.render(days);
        }

        @Override
        public String eventBridgeDayOfWeek() {
            return "?";
        }

        @Override
        public String describe() {
            return "on day-of-month " + FieldText.render(days);
        }
    }

    record LastDayOfMonth() implements DayRule {
        @Override
        public int daysIn(int length, int firstWeekday) {
            return 1 << length;
        }

        @Override
        public String eventBridgeDayOfMonth() {
            return "L";
        }

        @Override
        public String eventBridgeDayOfWeek() {
            return "?";
        }

        @Override
        public String describe() {
            return "on the last day of the month";
        }
    }

    /** {@code LW}: the last Monday-to-Friday day of the month. */
    record LastWeekdayOfMonth() implements DayRule {
        @Override
        public int daysIn(int length, int firstWeekday) {
            int weekday = weekdayOf(length, firstWeekday);
            int back = weekday == SATURDAY ? 1 : weekday == SUNDAY ? 2 : 0;
            return 1 << (length - back);
        }

        @Override
        public String eventBridgeDayOfMonth() {
            return "LW";
        }

        @Override
        public String eventBridgeDayOfWeek() {
            return "?";
        }

        @Override
        public String describe() {
            return "on the last weekday (Mon-Fri) of the month";
        }
    }

    /**
     * {@code 15W}: the Monday-to-Friday day nearest to day 15, never leaving the month (as in Quartz,
     * whose syntax EventBridge follows). A month shorter than the day has no such day.
     */
    record NearestWeekday(int day) implements DayRule {
        @Override
        public int daysIn(int length, int firstWeekday) {
            if (day > length) {
                return 0;
            }
            int weekday = weekdayOf(day, firstWeekday);
            if (weekday == SATURDAY) {
                return 1 << (day == 1 ? 3 : day - 1);
            }
            if (weekday == SUNDAY) {
                return 1 << (day == length ? day - 2 : day + 1);
            }
            return 1 << day;
        }

        @Override
        public String eventBridgeDayOfMonth() {
            return day + "W";
        }

        @Override
        public String eventBridgeDayOfWeek() {
            return "?";
        }

        @Override
        public String describe() {
            return "on the weekday (Mon-Fri) nearest day " + day + " of the month";
        }
    }

    record WeekDays(FieldSet weekdays) implements DayRule {
        @Override
        public int daysIn(int length, int firstWeekday) {
            int mask = 0;
            for (int day = 1; day <= length; day++) {
                if (weekdays.contains(weekdayOf(day, firstWeekday))) {
                    mask |= 1 << day;
                }
            }
            return mask;
        }

        @Override
        public String eventBridgeDayOfMonth() {
            return "?";
        }

        @Override
        public String eventBridgeDayOfWeek() {
            return FieldText.render(weekdays);
        }

        @Override
        public String describe() {
            return "on " + FieldText.render(weekdays);
        }
    }

    /** {@code 6L}: the last Friday of the month. Weekday 0 = Sunday. */
    record LastOfWeekday(int weekday) implements DayRule {
        @Override
        public int daysIn(int length, int firstWeekday) {
            int lastWeekday = weekdayOf(length, firstWeekday);
            return 1 << (length - (lastWeekday - weekday + 7) % 7);
        }

        @Override
        public String eventBridgeDayOfMonth() {
            return "?";
        }

        @Override
        public String eventBridgeDayOfWeek() {
            return (weekday + 1) + "L";
        }

        @Override
        public String describe() {
            return "on the last " + CronField.DAY_OF_WEEK.nameOf(weekday) + " of the month";
        }
    }

    /** {@code 3#2}: the second Tuesday of the month. Weekday 0 = Sunday; nth 1..5. */
    record NthOfWeekday(int weekday, int nth) implements DayRule {
        @Override
        public int daysIn(int length, int firstWeekday) {
            int day = 1 + (weekday - firstWeekday + 7) % 7 + 7 * (nth - 1);
            return day <= length ? 1 << day : 0;
        }

        @Override
        public String eventBridgeDayOfMonth() {
            return "?";
        }

        @Override
        public String eventBridgeDayOfWeek() {
            return (weekday + 1) + "#" + nth;
        }

        @Override
        public String describe() {
            String[] ordinals = {"first", "second", "third", "fourth", "fifth"};
            return "on the " + ordinals[nth - 1] + " " + CronField.DAY_OF_WEEK.nameOf(weekday) + " of the month";
        }
    }
}
