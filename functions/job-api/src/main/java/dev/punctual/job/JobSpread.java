package dev.punctual.job;

import dev.punctual.time.Schedule;
import dev.punctual.time.Spread;

/**
 * Where a whole job's schedule fires within its spread window (decision 0035): the offset its id asks for
 * ({@link Spread#offsetMinutes}), cut to the largest its schedule shifts by exactly ({@link
 * Schedule#largestExactOffset}). Many jobs written {@code 0 * * * *} then fire in different minutes of the
 * window instead of the same second, and each still runs, keys and reports its nominal occurrence.
 *
 * @param window the window the job asked to be spread over
 * @param wantedMinutes the offset the job's id gives within the window
 * @param offsetMinutes the offset deployed: {@code wantedMinutes} or less, 0 to 59
 */
public record JobSpread(Spread window, int wantedMinutes, int offsetMinutes) {

    public JobSpread {
        if (window == null) {
            throw new IllegalArgumentException("window is missing");
        }
        if (wantedMinutes < 0 || wantedMinutes >= window.minutes()) {
            throw new IllegalArgumentException(
                    "wantedMinutes " + wantedMinutes + " is outside the window of " + window.describe());
        }
        if (offsetMinutes < 0 || offsetMinutes > wantedMinutes) {
            throw new IllegalArgumentException(
                    "offsetMinutes " + offsetMinutes + " is not from 0 to the wanted " + wantedMinutes);
        }
    }

    /** The job's place in the window: derived from its id alone, so the same on every machine and deploy. */
    public static JobSpread of(Spread window, String jobId, Schedule schedule) {
        int wanted = window.offsetMinutes(jobId);
        return new JobSpread(window, wanted, schedule.largestExactOffset(wanted));
    }

    /** "+7 min (spreadOver 10 minutes)", or with what cut it: "+4 min of 9 wanted (spreadOver 10 minutes)". */
    public String describe() {
        String cut = offsetMinutes == wantedMinutes ? "" : " of " + wantedMinutes + " wanted";
        return "+" + offsetMinutes + " min" + cut + " (spreadOver " + window.describe() + ")";
    }
}
