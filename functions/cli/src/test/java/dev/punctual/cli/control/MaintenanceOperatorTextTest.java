package dev.punctual.cli.control;

import static dev.punctual.fixtures.FixtureCatalog.DAILY;
import static dev.punctual.fixtures.FixtureCatalog.RECORDS;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.cli.PunctualCli;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.ledger.MaintenanceHold;
import dev.punctual.ledger.MaintenanceRequest;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.dynamodb.DynamoDbRunLedger;
import dev.punctual.testing.DynamoDbHarness;
import dev.punctual.testing.TestTables;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What an operator types as a hold's reason and setter is shown back to other operators in status,
 * errors and every skipped run: it is refused when it could break or forge a line, redacted when it
 * holds a secret, and a hold written some other way is still printed on one line.
 */
class MaintenanceOperatorTextTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Clock NOW = Clock.fixed(Instant.parse("2026-11-30T14:00:02Z"), ZoneOffset.UTC);

    record Result(int exitCode, String out, String err) {
        JsonNode json() throws Exception {
            return JSON.readTree(out);
        }
    }

    private List<String> stage;

    @BeforeEach
    void freshStage() {
        stage = List.of(
                "--endpoint",
                DynamoDbHarness.backend().endpoint().toString(),
                "--ledger-table",
                TestTables.uniqueName(getClass(), "ledger"),
                "--job-table",
                RECORDS.name() + "=" + TestTables.uniqueName(getClass(), "records"),
                "--stage",
                "dev",
                "--output",
                "json");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "a newline forging a log line | --reason | loading data\\n2026-11-30 PASS " + DAILY + " | \\u000A",
                "an ANSI colour escape        | --reason | loading \\u001B[31mdata                      | \\u001B[31m",
                "a carriage return            | --reason | loading data\\rdone                          | \\u000D",
                "a tab                        | --reason | loading\\tdata                               | \\u0009",
                "a C1 control                 | --reason | loading\\u009Bdata                           | \\u009B",
                "a bidi override              | --reason | loading \\u202Eatad                          | \\u202E",
                "a zero-width space           | --reason | loading\\u200Bdata                           | \\u200B",
                "a newline in the setter      | --by     | ops\\nFORGED                                 | \\u000A",
                "an ANSI escape in the setter | --by     | ops\\u001B[2J                                | \\u001B[2J",
            })
    void maintenanceOn_withAHiddenCharacter_exitsTwoNamingTheOption_echoesItEscaped_andHoldsNothing(
            String what, String option, String typed, String echoed) throws Exception {
        String value = unescaped(typed);
        List<String> args = new ArrayList<>(List.of("maintenance", "on", "--reason", "loading", "--for", "1h"));
        args.addAll(List.of(option, value));
        if (!option.equals("--by")) {
            args.addAll(List.of("--by", "ops"));
        }

        Result on = cli(args.toArray(String[]::new));

        assertThat(on.exitCode()).as(on.err()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(on.err().strip()).doesNotContain("\n", "\r", "\u001B", "\u202E", "\u200B", "\u009B");
        assertThat(on.err())
                .startsWith("punctual maintenance: " + option + ": '")
                .contains(echoed, "; accepted: ");
        assertThat(on.json().at("/error/field").asText()).isEqualTo(option);
        assertThat(cli("status", DAILY).json().at("/jobs/0/maintenance").isNull())
                .isTrue();
    }

    @Test
    void maintenanceOn_withAReasonOrSetterLongerThanItsBound_exitsTwoNamingTheBound_andHoldsNothing() throws Exception {
        Result reason = cli("maintenance", "on", "--reason", "r".repeat(201), "--for", "1h", "--by", "ops");
        Result by = cli("maintenance", "on", "--reason", "load", "--for", "1h", "--by", "o".repeat(65));
        Result longest = cli("maintenance", "on", "--reason", "r".repeat(200), "--for", "1h", "--by", "o".repeat(64));

        assertThat(reason.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(reason.err()).startsWith("punctual maintenance: --reason: ").contains("at most 200 characters");
        assertThat(by.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(by.err()).startsWith("punctual maintenance: --by: ").contains("at most 64 characters");
        assertThat(longest.exitCode()).as(longest.err()).isZero();
        cli("maintenance", "off", "--by", "o".repeat(64));
    }

    @Test
    void maintenanceOn_withASecretInTheReason_storesItRedacted_andEveryPlaceThatShowsItShowsItRedacted()
            throws Exception {
        Result on = cli(
                "maintenance",
                "on",
                "--reason",
                "rotating password=hunter2 for bob@example.com",
                "--for",
                "1h",
                "--by",
                "alice");
        MaintenanceHold stored = ledger().maintenance(DAILY).orElseThrow();
        Result status = cli("status", DAILY);
        Result table = cli("status", DAILY, "-o", "wide");
        Result skipped = cli("run", DAILY);
        Result refused = cli("maintenance", "on", "--reason", "other", "--for", "1h", "--by", "bob");
        Result onTable = cli(
                "maintenance",
                "on",
                "--reason",
                "rotating password=hunter2",
                "--for",
                "1h",
                "--by",
                "alice",
                "-o",
                "table");

        assertThat(on.exitCode()).as(on.err()).isZero();
        assertThat(stored.reason()).isEqualTo("rotating password=[REDACTED] for [email]");
        assertThat(on.json().get("reason").asText()).isEqualTo(stored.reason());
        assertThat(status.json().at("/jobs/0/maintenance/reason").asText()).isEqualTo(stored.reason());
        assertThat(table.out()).contains("rotating password=[REDACTED] for [email]");
        assertThat(skipped.json().at("/occurrences/0/detail").asText()).isEqualTo(stored.reason());
        assertThat(refused.err()).contains("(set by alice: rotating password=[REDACTED] for [email], until ");
        assertThat(onTable.out()).contains("set by alice: rotating password=[REDACTED]");
        assertThat(List.of(
                        on.out(),
                        status.out(),
                        table.out(),
                        skipped.out(),
                        refused.out(),
                        refused.err(),
                        onTable.out()))
                .allSatisfy(printed -> assertThat(printed).doesNotContain("hunter2", "bob@example.com"));
        cli("maintenance", "off", "--by", "alice");
    }

    @Test
    void aHoldStoredWithHiddenCharacters_isPrintedOnOneLine_escaped_inStatusAndInTheRefusalThatNamesIt()
            throws Exception {
        cli("status");
        // As an older CLI, or someone with other credentials than the operator policy's, could have stored it.
        ledger().maintenanceOn(new MaintenanceRequest(
                List.of(DAILY),
                new MaintenanceHold(
                        "loading\n2026-11-30T14:00:00Z PASS " + DAILY + " \u001B[32mOK\u202E",
                        "ops\r\u001B[2K",
                        NOW.instant().plus(Duration.ofHours(1))),
                Duration.ZERO,
                Duration.ofMillis(100)));

        Result table = cli("status", DAILY, "-o", "wide");
        Result json = cli("status", DAILY);
        Result refused = cli("maintenance", "on", "--reason", "other", "--for", "1h", "--by", "bob");

        String shown = "loading\\u000A2026-11-30T14:00:00Z PASS " + DAILY + " \\u001B[32mOK\\u202E";
        assertThat(table.out()).doesNotContain("\r", "\u001B", "\u202E");
        assertThat(table.out().lines()).hasSize(4).noneMatch(line -> line.startsWith("2026-11-30T14:00:00Z PASS"));
        assertThat(table.out().lines().toList().get(1)).contains(shown).contains("MAINTENANCE by ops\\u000D\\u001B[2K");
        assertThat(json.json().at("/jobs/0/maintenance/reason").asText()).isEqualTo(shown);
        assertThat(json.json().at("/jobs/0/maintenance/set_by").asText()).isEqualTo("ops\\u000D\\u001B[2K");
        assertThat(refused.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(refused.err().strip()).doesNotContain("\n", "\r", "\u001B", "\u202E");
        assertThat(refused.err()).contains("(set by ops\\u000D\\u001B[2K: " + shown + ", until ");
        cli("maintenance", "off", "--force");
    }

    /** The CSV's {@code \n}, {@code \r}, {@code \t} and {@code \\uXXXX} as the characters they name. */
    private static String unescaped(String typed) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < typed.length(); i++) {
            char c = typed.charAt(i);
            if (c == '\\' && typed.charAt(i + 1) == 'u') {
                out.append((char) Integer.parseInt(typed.substring(i + 2, i + 6), 16));
                i += 5;
            } else if (c == '\\') {
                out.append(
                        switch (typed.charAt(++i)) {
                            case 'n' -> '\n';
                            case 'r' -> '\r';
                            default -> '\t';
                        });
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private Result cli(String... args) {
        List<String> all = new ArrayList<>(List.of(args[0]));
        all.addAll(stage);
        all.addAll(List.of(args).subList(1, args.length));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = PunctualCli.execute(
                new PrintWriter(out), new PrintWriter(err), CliContext.withClock(NOW), all.toArray(String[]::new));
        return new Result(code, out.toString(), err.toString());
    }

    private RunLedger ledger() {
        return DynamoDbRunLedger.create(
                DynamoDbHarness.client(),
                stage.get(stage.indexOf("--ledger-table") + 1),
                NOW,
                () -> java.util.UUID.randomUUID().toString(),
                Retention.DEFAULT,
                d -> {
                    throw new IllegalStateException("the test's ledger does not wait");
                });
    }
}
