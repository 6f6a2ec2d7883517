package dev.punctual.catchup;

/** What a job does with the occurrences it missed while nothing ran it. */
public enum CatchUpMode {
    /** Replay up to {@code maxOccurrences} missed occurrences, the most recent ones, oldest first. */
    OLDEST_FIRST,
    /** Replay only the most recent missed occurrence: for jobs where a newer run supersedes older ones. */
    LATEST_ONLY,
    /** Replay nothing: run the triggering occurrence and record everything missed. */
    NONE
}
