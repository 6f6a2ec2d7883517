package dev.punctual.cli;

import static dev.punctual.fixtures.FixtureCatalog.DAILY;
import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.cli.EmulatorStageCli.Result;
import dev.punctual.testing.DynamoDbHarness;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;

/**
 * A secret typed where the CLI takes a name (issue 40, item 5): {@code --by} on every command that takes
 * it is redacted as {@code --reason} is, so it reaches no line on stdout or stderr, no JSON and no stored
 * item; the operator it names is still recognised when lifting their own hold. Every value here is made
 * up, built from pieces so that no scanner mistakes this file for a leak.
 */
class OperatorSecretsTest {

    private static final Instant NOW = Instant.parse("2026-11-30T14:00:02Z");

    private static final String TUESDAY = "2026-12-01T14:00:00Z";
    private static final String WEDNESDAY = "2026-12-02T14:00:00Z";

    private EmulatorStageCli stage;

    @BeforeEach
    void freshStage() {
        stage = new EmulatorStageCli(getClass());
    }

    /** What is typed as {@code --by}, and the part of it that must be shown nowhere. */
    static Stream<Arguments> secrets() {
        String aws40 = "wJalrXUtnFEMI" + "/K7MDENG/bPxRfiCYEXAMPLEKEY";
        return Stream.of(
                Arguments.of("password=" + "hunter2-ops", "hunter2-ops"),
                Arguments.of("AKIA" + "IOSFODNN7EXAMPLE", "IOSFODNN7EXAMPLE"),
                Arguments.of(aws40, "bPxRfiCY"),
                Arguments.of("gh" + "p_" + "Zq8Lm2Nx4Pw6Rt8Yv0Ab2Cd4Ef6Gh8Ij0Kl", "Zq8Lm2Nx4Pw6"),
                Arguments.of("eyJhbGciOiJIUzI1NiJ9" + ".eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl", "eyJzdWIiOiIxMjM0In0"),
                Arguments.of("postgres://ops:p@ss" + "w0rd@db/app", "ss" + "w0rd"),
                Arguments.of("Bearer " + "abcDEF123456789xyz", "abcDEF123456789xyz"),
                Arguments.of("sk" + "_live_" + "Zq8Lm2Nx4Pw6Rt8Yv0Ab", "Zq8Lm2Nx4Pw6Rt8Yv0Ab"));
    }

    private Result cli(int words, String... args) {
        return stage.at(NOW, words, args);
    }

    /** A command that needs no stage ({@code plan}), as typed. */
    private static Result local(String... args) {
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        int code = PunctualCli.execute(
                new java.io.PrintWriter(out),
                new java.io.PrintWriter(err),
                CliContext.withClock(java.time.Clock.fixed(NOW, java.time.ZoneOffset.UTC)),
                args);
        return new Result(code, out.toString(), err.toString());
    }

    /** Every item of the stage's ledger table, as text: what a reader of the table would see. */
    private String ledgerItems() {
        return DynamoDbHarness.client()
                .scan(ScanRequest.builder().tableName(stage.ledgerTable()).build())
                .items()
                .toString();
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("secrets")
    void maintenanceOnAndOff_withASecretAsBy_neverShowNorStoreIt_andOffStillLiftsTheOwnHold(String by, String secret)
            throws Exception {
        Result on = cli(2, "maintenance", "on", "--reason", "loading", "--for", "1h", "--by", by);
        Result status = cli(1, "status", DAILY);
        Result table = cli(1, "status", DAILY, "--output", "table");
        Result again = cli(2, "maintenance", "on", "--reason", "other", "--for", "1h", "--by", "bob");
        Result onTable = cli(2, "maintenance", "on", "--reason", "loading", "--for", "1h", "--by", by, "-o", "table");
        String stored = ledgerItems();
        Result off = cli(2, "maintenance", "off", "--by", by);
        Result after = cli(1, "status", DAILY);

        assertThat(on.exitCode()).as(on.err()).isZero();
        assertThat(on.json().get("set_by").asText()).contains("[REDACTED]");
        assertThat(status.json().at("/jobs/0/maintenance/set_by").asText())
                .isEqualTo(on.json().get("set_by").asText());
        assertThat(again.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(again.err()).contains("set by " + on.json().get("set_by").asText());
        assertThat(onTable.exitCode()).as(onTable.err()).isZero();
        assertThat(stored).contains("maintBy").contains("[REDACTED]");
        assertThat(off.exitCode()).as(off.err()).isZero();
        assertThat(after.json().at("/jobs/0/maintenance").isNull()).isTrue();
        assertThat(List.of(on, status, table, again, onTable, off))
                .allSatisfy(r -> assertThat(r.out() + r.err()).doesNotContain(secret));
        assertThat(stored).doesNotContain(secret);
    }

    @Test
    void skip_withASecretAsBy_showsItRedactedInItsLineJsonAndStatus_andStoresItRedacted() throws Exception {
        String by = "password=" + "hunter2-ops";
        Result json = cli(1, "skip", DAILY, "--at", TUESDAY, "--reason", "outage", "--by", by);
        Result line = cli(1, "skip", DAILY, "--at", WEDNESDAY, "--reason", "outage", "--by", by, "-o", "table");
        Result twice = cli(1, "skip", DAILY, "--at", TUESDAY, "--reason", "again", "--by", "bob");
        Result status = cli(1, "status", DAILY);
        Result table = cli(1, "status", DAILY, "--output", "table");

        assertThat(json.exitCode()).as(json.err()).isZero();
        assertThat(json.json().get("by").asText()).isEqualTo("password=[REDACTED]");
        assertThat(line.out()).contains("by password=[REDACTED]: outage");
        assertThat(twice.err()).contains("already skipped, by password=[REDACTED]");
        assertThat(status.json().at("/jobs/0/skips/0/by").asText()).isEqualTo("password=[REDACTED]");
        assertThat(table.out()).contains("skipped by password=[REDACTED] at ");
        assertThat(List.of(json, line, twice, status, table))
                .allSatisfy(r -> assertThat(r.out() + r.err()).doesNotContain("hunter2"));
        assertThat(ledgerItems()).contains("[REDACTED]").doesNotContain("hunter2");
    }

    @Test
    void blackoutAdd_withASecretAsBy_showsAndStoresItRedacted() throws Exception {
        String by = "AKIA" + "IOSFODNN7EXAMPLE";
        List<String> add = new ArrayList<>(List.of(
                "blackout", "add", "--job", DAILY, "--from", "2026-12-01T00:00:00Z", "--to", "2026-12-03T00:00:00Z"));
        add.addAll(List.of("--reason", "migration", "--by", by));
        Result json = cli(2, add.toArray(String[]::new));
        Result listed = cli(2, "blackout", "list");
        Result listTable = cli(2, "blackout", "list", "-o", "table");
        Result status = cli(1, "status", DAILY);

        assertThat(json.exitCode()).as(json.err()).isZero();
        assertThat(json.json().get("by").asText()).isEqualTo("[REDACTED]");
        assertThat(List.of(json, listed, listTable, status))
                .allSatisfy(r -> assertThat(r.out() + r.err()).doesNotContain("IOSFODNN7EXAMPLE"));
        assertThat(ledgerItems()).contains("[REDACTED]").doesNotContain("IOSFODNN7EXAMPLE");
    }

    @Test
    void anUnknownSecretOption_withSpacesInItsValue_isMaskedWhole_inTheLineAndTheJson() throws Exception {
        Result table = cli(1, "status", "--password=hunter2 WITH SPACES", "-o", "table");
        Result json = cli(1, "status", "--password=hunter2 WITH SPACES");

        assertThat(table.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(table.err()).contains("--password=[REDACTED]: not an option of this command");
        assertThat(json.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(json.json().at("/error/field").asText()).isEqualTo("--password=[REDACTED]");
        assertThat(List.of(table, json))
                .allSatisfy(r -> assertThat(r.out() + r.err()).doesNotContain("hunter2", "WITH", "SPACES"));
    }

    @Test
    void aBidiOverrideOrALoneSurrogateInAnEchoedValue_isEscapedInTheErrorLine() throws Exception {
        Result zone = local("plan", "--schedule", "cron(0 9 * * ? *)", "--zone", "Europe/Berlin\u202E", "--count", "3");
        Result job = cli(1, "status", "x\uD800y\u200B", "-o", "table");

        assertThat(zone.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(zone.err()).contains("Europe/Berlin\\u202e").doesNotContain("\u202E");
        assertThat(job.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(job.err()).contains("x\\ud800y\\u200b").doesNotContain("\uD800", "\u200B");
    }

    @Test
    void maintenanceHold_printsItsCommandAndWhoRedacted_andStoresThemRedacted() throws Exception {
        String by = "password=" + "hunter2-ops";
        // The command looks at the stage while it is held: what status shows of the hold, on its stdout.
        Result held = stage.now(
                2,
                "maintenance",
                "hold",
                "--reason",
                "loading",
                "--by",
                by,
                "--wait",
                "2s",
                "--",
                "sh",
                "-c",
                "exit 0",
                "mysql",
                "-pS3cretPw",
                "--token=tok" + "en-hunter3");

        assertThat(held.exitCode()).as(held.err()).isZero();
        assertThat(held.err())
                .contains("held (")
                .contains("for sh -c 'exit 0' mysql -p[REDACTED] --token=[REDACTED];")
                .doesNotContain("S3cretPw", "hunter3", "hunter2");
        assertThat(ledgerItems()).doesNotContain("S3cretPw", "hunter3", "hunter2");
    }
}
