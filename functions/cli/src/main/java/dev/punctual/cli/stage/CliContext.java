package dev.punctual.cli.stage;

import dev.punctual.cli.PunctualCli;
import dev.punctual.ledger.Sleeper;
import java.io.InputStream;
import java.time.Clock;

/**
 * What a CLI run gets from outside: the clock, how it waits, how it reaches AWS, and standard input
 * ({@code --event -}). {@link PunctualCli#execute(String...)} uses the process's; tests pass a clock they
 * move, a sleeper that moves it instead of waiting, loopback endpoints and their own input.
 *
 * @param sleeper how a command waits between polls ({@code logs}, {@code verify --activate}); every wait
 *     is measured on {@link #clock}, so a test's sleeper that advances the clock ends it without sleeping
 * @param comparesClock whether a command that decides on this machine's clock first compares it with
 *     DynamoDB's ({@link ServerClock}): the process's clock is; a test's simulated clock, set to a day of
 *     its own, is not, unless the test is about the comparison
 */
public record CliContext(Clock clock, AwsAccess aws, InputStream stdin, Sleeper sleeper, boolean comparesClock) {

    /** An operator's command run in this JVM may take as long as the longest Lambda could. */
    public static final java.time.Duration CLI_BUDGET = java.time.Duration.ofMinutes(15);

    /** A context whose clock is not compared with the server's (a simulated one). */
    public CliContext(Clock clock, AwsAccess aws, InputStream stdin, Sleeper sleeper) {
        this(clock, aws, stdin, sleeper, false);
    }

    /** The process's clock, AWS access and standard input; waits really wait. */
    public static CliContext ofProcess() {
        return new CliContext(Clock.systemUTC(), AwsAccess.fromProcess(), System.in, Sleeper.real(), true);
    }

    /** This context, comparing its clock with DynamoDB's before it decides anything. */
    public CliContext comparingClock() {
        return new CliContext(clock, aws, stdin, sleeper, true);
    }

    /** This context reaching AWS through another profile ({@code --profile}). */
    public CliContext withAws(AwsAccess other) {
        return new CliContext(clock, other, stdin, sleeper, comparesClock);
    }

    /** The process's AWS access and input with another clock (commands that do not wait: plan, jobs). */
    public static CliContext withClock(Clock clock) {
        return new CliContext(clock, AwsAccess.fromProcess(), System.in, Sleeper.real());
    }
}
