package dev.punctual.time;

import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Random cron expressions and instants for the reference comparisons. Seeded, so a failing case is
 * reproduced by its name alone; the generators stay inside the syntax both Punctual and the
 * reference accept.
 */
final class RandomExpressions {
    private RandomExpressions() {}

    static final List<String> WEEKDAY_NAMES = List.of("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT");

    /** A five-field Unix expression that restricts at most one of day-of-month and day-of-week. */
    static String unix(SplittableRandom random) {
        String dayOfMonth = "*";
        String dayOfWeek = "*";
        int days = random.nextInt(4);
        if (days == 1) {
            dayOfMonth = field(random, 1, 31);
        } else if (days == 2) {
            dayOfWeek = field(random, 0, 7);
        }
        String month = random.nextInt(3) == 0 ? field(random, 1, 12) : "*";
        return String.join(" ", field(random, 0, 59), field(random, 0, 23), dayOfMonth, month, dayOfWeek);
    }

    static String field(SplittableRandom random, int min, int max) {
        int a = random.nextInt(min, max + 1);
        int b = random.nextInt(min, max + 1);
        int low = Math.min(a, b);
        int high = Math.max(a, b);
        int step = random.nextInt(2, Math.max(3, (max - min) / 2 + 1));
        return switch (random.nextInt(7)) {
            case 0, 1 -> "*";
            case 2 -> Integer.toString(a);
            case 3 -> low + "-" + high;
            case 4 -> "*/" + step;
            case 5 -> low + "-" + high + "/" + step;
            default -> a == b ? Integer.toString(a) : low + "," + high;
        };
    }

    /** EventBridge day rules with L, W or #, as {eventBridge, spring} expression pairs. */
    static String[] eventBridgeSpecialDays(SplittableRandom random) {
        String minute = Integer.toString(random.nextInt(60));
        String hour = random.nextBoolean() ? "*" : Integer.toString(random.nextInt(24));
        String month = random.nextInt(3) == 0 ? field(random, 1, 12) : "*";
        int weekday = random.nextInt(7);
        String name = WEEKDAY_NAMES.get(weekday);
        String[] days = switch (random.nextInt(5)) {
            case 0 -> new String[] {"L", "?", "L", "?"};
            case 1 -> new String[] {"LW", "?", "LW", "?"};
            case 2 -> {
                String nearest = random.nextInt(1, 29) + "W";
                yield new String[] {nearest, "?", nearest, "?"};
            }
            case 3 -> new String[] {"?", (weekday + 1) + "L", "?", name + "L"};
            default -> {
                int nth = random.nextInt(1, 6);
                yield new String[] {"?", (weekday + 1) + "#" + nth, "?", name + "#" + nth};
            }
        };
        return new String[] {
            "cron(" + String.join(" ", minute, hour, days[0], month, days[1], "*") + ")",
            String.join(" ", "0", minute, hour, days[2], month, days[3])
        };
    }

    static Instant instant(SplittableRandom random, int fromYear, int toYear) {
        long from = Instant.parse(fromYear + "-01-01T00:00:00Z").getEpochSecond();
        long to = Instant.parse(toYear + "-01-01T00:00:00Z").getEpochSecond();
        return Instant.ofEpochSecond(random.nextLong(from, to));
    }
}
