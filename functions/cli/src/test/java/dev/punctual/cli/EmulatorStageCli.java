package dev.punctual.cli;

import static dev.punctual.fixtures.FixtureCatalog.RECORDS;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.testing.DynamoDbHarness;
import dev.punctual.testing.TestTables;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * The operator CLI against a fresh stage of the fixture catalog on the test emulator, as an operator
 * types it: tables of their own per stage (so tests do not see each other's), JSON output unless a
 * test says otherwise, and a fixed clock per command.
 */
public final class EmulatorStageCli {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** What a command printed and how it exited. */
    public record Result(int exitCode, String out, String err) {
        public JsonNode json() throws Exception {
            return JSON.readTree(out);
        }
    }

    private final String ledgerTable;
    private final List<String> options;

    public EmulatorStageCli(Class<?> test) {
        this.ledgerTable = TestTables.uniqueName(test, "ledger");
        this.options = List.of(
                "--endpoint",
                DynamoDbHarness.backend().endpoint().toString(),
                "--ledger-table",
                ledgerTable,
                "--job-table",
                RECORDS.name() + "=" + TestTables.uniqueName(test, "records"),
                "--stage",
                "dev",
                "--output",
                "json");
    }

    /** The stage's ledger table: absent until a command connects, so a refusal can be shown to write nothing. */
    public String ledgerTable() {
        return ledgerTable;
    }

    /**
     * Runs the command at {@code now}: its first {@code words} arguments (e.g. {@code blackout add}), then
     * the stage's options, then the test's own (which override them, e.g. {@code --output table}).
     */
    public Result at(Instant now, int words, String... args) {
        return run(CliContext.withClock(Clock.fixed(now, ZoneOffset.UTC)), words, args);
    }

    /**
     * Runs the command on the system clock, as {@link #at}: for commands that wait on time passing (a
     * {@code maintenance hold} renews its hold while its command runs).
     */
    public Result now(int words, String... args) {
        return run(CliContext.withClock(Clock.systemUTC()), words, args);
    }

    /**
     * A command line exactly as typed, none of the stage's options added, at {@code now}: a command that
     * needs no stage ({@code plan}), or a line a command printed for the operator to run (an undo hint).
     */
    public static Result typed(Instant now, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = PunctualCli.execute(
                new PrintWriter(out),
                new PrintWriter(err),
                CliContext.withClock(Clock.fixed(now, ZoneOffset.UTC)),
                args);
        return new Result(code, out.toString(), err.toString());
    }

    /** The stage's options, for a CLI started as a process of its own. */
    public List<String> stageOptions() {
        return options;
    }

    private Result run(CliContext context, int words, String... args) {
        List<String> all = new ArrayList<>(List.of(args).subList(0, words));
        all.addAll(options);
        all.addAll(List.of(args).subList(words, args.length));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = PunctualCli.execute(new PrintWriter(out), new PrintWriter(err), context, all.toArray(String[]::new));
        return new Result(code, out.toString(), err.toString());
    }
}
