package dev.punctual.cli;

import static dev.punctual.fixtures.FixtureCatalog.DAILY;
import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.cli.EmulatorStageCli.Result;
import dev.punctual.ledger.MaintenanceHold;
import dev.punctual.ledger.MaintenanceRequest;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.dynamodb.DynamoDbRunLedger;
import dev.punctual.testing.DynamoDbHarness;
import java.time.Duration;
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
 * item (the CLI refuses a name the redactor changes; the ledger stores and reads back any setter
 * redacted); a hold's command line, an unknown secret option and hidden characters are echoed masked. Every value here is made
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
        return EmulatorStageCli.typed(NOW, args);
    }

    /** Every item of the stage's ledger table, as text: what a reader of the table would see. */
    private String ledgerItems() {
        return DynamoDbHarness.client()
                .scan(ScanRequest.builder().tableName(stage.ledgerTable()).build())
                .items()
                .toString();
    }

    /** Each command that takes {@code --by}, with it. */
    static Stream<Arguments> commandsTakingBy() {
        return secrets().flatMap(secret -> {
            String by = (String) secret.get()[0];
            return Stream.of(
                            List.of("maintenance", "on", "--reason", "loading", "--for", "1h", "--by", by),
                            List.of("maintenance", "off", "--by", by),
                            List.of(
                                    "maintenance",
                                    "hold",
                                    "--reason",
                                    "loading",
                                    "--by",
                                    by,
                                    "--",
                                    "sh",
                                    "-c",
                                    "exit 0"),
                            List.of("skip", DAILY, "--at", TUESDAY, "--reason", "outage", "--by", by),
                            List.of(
                                    "blackout",
                                    "add",
                                    "--job",
                                    DAILY,
                                    "--from",
                                    TUESDAY,
                                    "--to",
                                    WEDNESDAY,
                                    "--reason",
                                    "migration",
                                    "--by",
                                    by))
                    .map(args -> Arguments.of(args, secret.get()[1]));
        });
    }

    /**
     * Stored masked, a secret as {@code --by} would make everyone who typed a secret (or an e-mail
     * address) one operator: it is refused before anything connects, the value shown redacted.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("commandsTakingBy")
    void aSecretAsBy_isRefusedOnEveryCommandTakingIt_shownRedacted_andNothingIsWritten(List<String> args, String secret)
            throws Exception {
        int words = args.get(0).equals("skip") ? 1 : 2;
        Result table = cli(words, tableOutput(args, words));
        Result json = cli(words, args.toArray(String[]::new));
        Result status = cli(1, "status", DAILY);

        assertThat(table.exitCode()).as(table.err()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(table.err()).contains(": --by: '").contains("reads as a secret or personal data");
        assertThat(json.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(json.json().at("/error/field").asText()).isEqualTo("--by");
        assertThat(json.json().at("/error/problem").asText()).contains("[REDACTED]");
        assertThat(status.json().at("/jobs/0/maintenance").isNull()).isTrue();
        assertThat(status.json().at("/jobs/0/skips").size()).isZero();
        assertThat(List.of(table, json, status))
                .allSatisfy(r -> assertThat(r.out() + r.err()).doesNotContain(secret));
    }

    @Test
    void anEmailAddressAsBy_isRefused_namingWhatIsAccepted() throws Exception {
        Result on = cli(2, "maintenance", "on", "--reason", "loading", "--for", "1h", "--by", "alice@example.com");

        assertThat(on.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(on.json().at("/error/problem").asText()).startsWith("'[email]' reads as");
        assertThat(on.json().at("/error/accepted").asText()).startsWith("a user or team name");
        assertThat(on.out() + on.err()).doesNotContain("alice@");
    }

    /**
     * A hold and a skip whose setter holds a secret, written through the ledger as any caller of the
     * library may (or as an older CLI stored them): shown and stored redacted everywhere the CLI shows
     * them, and the hold still lifted with {@code --force}.
     */
    @Test
    void aHoldAndASkipSetByASecret_throughTheLedger_areShownAndStoredRedacted() throws Exception {
        String by = "password=" + "hunter2-ops";
        cli(1, "status");
        RunLedger ledger = DynamoDbRunLedger.create(
                DynamoDbHarness.client(),
                stage.ledgerTable(),
                java.time.Clock.fixed(NOW, java.time.ZoneOffset.UTC),
                () -> java.util.UUID.randomUUID().toString(),
                Retention.DEFAULT,
                d -> {
                    throw new IllegalStateException("the test's ledger does not wait");
                });
        ledger.maintenanceOn(new MaintenanceRequest(
                List.of(DAILY),
                new MaintenanceHold("loading", by, NOW.plusSeconds(3600)),
                Duration.ZERO,
                Duration.ofMillis(100)));
        ledger.skip(new RunKey(DAILY, Instant.parse(TUESDAY)), by, "outage");

        Result status = cli(1, "status", DAILY);
        Result table = cli(1, "status", DAILY, "--output", "table");
        Result refused = cli(2, "maintenance", "on", "--reason", "other", "--for", "1h", "--by", "bob");
        Result skipAgain = cli(1, "skip", DAILY, "--at", TUESDAY, "--reason", "again", "--by", "bob", "-o", "table");
        String stored = ledgerItems();
        Result off = cli(2, "maintenance", "off", "--force");

        assertThat(status.json().at("/jobs/0/maintenance/set_by").asText()).isEqualTo("password=[REDACTED]");
        assertThat(status.json().at("/jobs/0/skips/0/by").asText()).isEqualTo("password=[REDACTED]");
        assertThat(table.out()).contains("skipped by password=[REDACTED] at ");
        assertThat(refused.err()).contains("set by password=[REDACTED]: loading");
        assertThat(skipAgain.err()).contains("already skipped, by password=[REDACTED]");
        assertThat(stored).contains("maintBy").contains("[REDACTED]");
        assertThat(off.exitCode()).as(off.err()).isZero();
        assertThat(List.of(status, table, refused, skipAgain, off))
                .allSatisfy(r -> assertThat(r.out() + r.err()).doesNotContain("hunter2"));
        assertThat(stored).doesNotContain("hunter2");
    }

    /** The command with {@code -o table} right after its words: before a hold's {@code --}. */
    private static String[] tableOutput(List<String> args, int words) {
        List<String> all = new ArrayList<>(args.subList(0, words));
        all.addAll(List.of("-o", "table"));
        all.addAll(args.subList(words, args.size()));
        return all.toArray(String[]::new);
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
    void maintenanceHold_printsItsCommandRedacted_andStoresItRedacted() throws Exception {
        String by = "loader";
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
