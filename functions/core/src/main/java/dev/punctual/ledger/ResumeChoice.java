package dev.punctual.ledger;

/** What a resume does with the paused span's occurrences (decision 0040); the operator must choose. */
public enum ResumeChoice {
    /** The mark goes: the next delivery catches the span up as the job's catch-up policy allows. */
    CATCH_UP,
    /** The span ends now and stays refused: its occurrences remain recorded as paused, never run. */
    SKIP_PAUSED
}
