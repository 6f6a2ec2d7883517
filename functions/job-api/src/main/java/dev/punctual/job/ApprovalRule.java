package dev.punctual.job;

/**
 * Whether an occurrence of a job runs only after an operator approved it ({@code punctual approve JOB --at
 * T}, decision 0041). Declared in code, like {@code destructive()}, and read against the stage's flags at
 * runtime: a job whose effect is destructive is usually approved only where the stage lets destructive
 * jobs run at all (elsewhere it is refused as DESTRUCTIVE_DISABLED anyway).
 */
public enum ApprovalRule {
    /** Every occurrence runs without an approval (the default): no extra condition, no extra request. */
    NEVER,
    /** Every occurrence needs its own approval, in every stage. */
    ALWAYS,
    /** Needs an approval in stages that allow destructive jobs; runs without one elsewhere. */
    WHERE_DESTRUCTIVE_ALLOWED;

    /** Whether an occurrence needs an approval in a stage that does (or does not) allow destructive jobs. */
    public boolean requiredIn(boolean destructiveEnabled) {
        return switch (this) {
            case NEVER -> false;
            case ALWAYS -> true;
            case WHERE_DESTRUCTIVE_ALLOWED -> destructiveEnabled;
        };
    }

    /** As shown by {@code jobs}: {@code no}, {@code always}, {@code where-destructive}. */
    public String shown() {
        return switch (this) {
            case NEVER -> "no";
            case ALWAYS -> "always";
            case WHERE_DESTRUCTIVE_ALLOWED -> "where-destructive";
        };
    }
}
