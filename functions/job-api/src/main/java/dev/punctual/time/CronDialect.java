package dev.punctual.time;

/** The dialect a cron expression was written in; the model is the same for both. */
public enum CronDialect {
    /** Five fields, no year, day-of-week 0-7 with 0 and 7 for Sunday. */
    UNIX,
    /** {@code cron(...)}: six fields with a year, day-of-week 1-7 = SUN-SAT, {@code ? L W #}. */
    EVENTBRIDGE
}
