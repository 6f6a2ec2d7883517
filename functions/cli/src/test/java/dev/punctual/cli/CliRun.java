package dev.punctual.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

/** One CLI command line run in this JVM, as the tests drive it: its exit code and what it printed. */
public record CliRun(int code, String out, String err) {

    /** The instant the tests that need no other take as now. */
    public static final Clock NOW = Clock.fixed(Instant.parse("2026-11-30T14:00:02Z"), ZoneOffset.UTC);

    public static CliRun of(String... args) {
        return of(NOW, args);
    }

    public static CliRun of(Clock clock, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = PunctualCli.execute(new PrintWriter(out), new PrintWriter(err), clock, args);
        return new CliRun(code, out.toString(), err.toString());
    }
}
