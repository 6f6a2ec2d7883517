package dev.punctual.ledger;

/** How a completion ended. Only {@link Completed} of a success may be reported as a success. */
public sealed interface CompletionResult {

    RunRecord record();

    /** The record, the lease release and any cursor advance committed together. */
    record Completed(RunRecord record) implements CompletionResult {}

    /**
     * The lease was no longer ours: the run is a failure whatever the job did.
     *
     * @param stored whether the failed record was written (it is not when it would hide a success or a
     *     newer live run of the same occurrence)
     */
    record Fenced(RunRecord record, boolean stored) implements CompletionResult {}
}
