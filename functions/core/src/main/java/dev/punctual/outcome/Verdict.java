package dev.punctual.outcome;

/** The three outcomes an occurrence can have, as operators read them. */
public enum Verdict {
    /** The job ran and its completion committed. */
    PASS,
    /** Nothing ran, on purpose, for a stated reason (lock busy, maintenance, already done, ...). */
    SKIP,
    /** The job or its completion failed; the reason says which. */
    FAIL
}
