package dev.punctual.cli;

import java.io.InputStream;
import java.time.Clock;

/**
 * What a CLI run gets from outside: the clock, how it reaches AWS, and standard input ({@code --event -}).
 * {@link PunctualCli#execute(String...)} uses the process's; tests pass a fixed clock, loopback endpoints
 * and their own input.
 */
public record CliContext(Clock clock, AwsAccess aws, InputStream stdin) {

    /** The process's clock, AWS access and standard input. */
    public static CliContext ofProcess() {
        return new CliContext(Clock.systemUTC(), AwsAccess.fromProcess(), System.in);
    }

    /** The process's AWS access and input with another clock. */
    public static CliContext withClock(Clock clock) {
        return new CliContext(clock, AwsAccess.fromProcess(), System.in);
    }
}
