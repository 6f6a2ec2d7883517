package dev.punctual.cli.input;

import dev.punctual.cli.PunctualCli;

/**
 * Options whose combination can contradict itself ({@code --json} with {@code --output table}). The CLI
 * checks every such command and mixin it parsed before the command runs, so a
 * contradiction is refused before the first request: a job never runs, a hold is never taken and a skip
 * never written only to exit 2 afterwards ({@link PunctualCli#checkBeforeActing}).
 */
public interface CheckedOptions {

    /** Throws a {@code CommandLine.ParameterException} naming the options that contradict each other. */
    void check();
}
