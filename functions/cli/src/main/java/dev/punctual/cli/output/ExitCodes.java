package dev.punctual.cli.output;

import dev.punctual.cli.PunctualCli;

/**
 * The CLI's exit codes, below every command: the commands and the output that end with one need them,
 * and the entry point that registers those commands ({@link PunctualCli}, which repeats them as its public
 * constants) must not be what they depend on, or the CLI's packages would form a cycle.
 */
public final class ExitCodes {
    /** Exit code for input the CLI refuses: bad arguments, expressions, zones or instants. */
    public static final int INVALID_INPUT = 2;

    /** Exit code for a failure that is not the caller's input. */
    public static final int FAILURE = 1;

    /**
     * Exit code for a run or replay that ran nothing, though nothing failed: every occurrence was skipped
     * (maintenance, a busy lock group, already done, a refused destructive job). A dry run exits 0.
     */
    public static final int RAN_NOTHING = 3;

    private ExitCodes() {}
}
