package dev.punctual.cli.verify;

import static dev.punctual.fixtures.FixtureCatalog.DAILY;
import static dev.punctual.fixtures.FixtureCatalog.DELIVERING;
import static dev.punctual.fixtures.FixtureCatalog.DESTRUCTIVE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.cli.PunctualCli;
import dev.punctual.cli.VerifyCommand;
import dev.punctual.cli.reading.LogsInsightsStandIn;
import dev.punctual.ledger.MaintenanceHold;
import dev.punctual.ledger.MaintenanceRequest;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.dynamodb.DynamoDbRunLedger;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code punctual verify --stage dev --activate} on a local stage whose functions run the real handler
 * behind the Lambda Invoke stand-in, their log lines shipped into moto's log groups as Lambda would while
 * time passes: on one clock that verify's waits move, so no test sleeps.
 */
class VerifyActivationTest {

    private LocalStage stage;

    @AfterEach
    void close() {
        if (stage != null) {
            stage.close();
        }
    }

    record Run(int exit, String out, String err) {}

    private Run verify(String... more) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] args = stage.verifyArgs(more);
        int exit = PunctualCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), stage.context(), args);
        return new Run(exit, out.toString(), err.toString());
    }

    private static String line(Run run, String check) {
        return run.out()
                .lines()
                .filter(l -> l.matches("(PASS|WARN|FAIL)\\s+" + check + "\\s.*"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no line for " + check + " in:\n" + run.out() + run.err()));
    }

    private RunLedger ledger() {
        return DynamoDbRunLedger.create(
                stage.aws.dynamo(),
                stage.ledgerTable,
                stage.clock,
                () -> UUID.randomUUID().toString(),
                Retention.DEFAULT,
                stage.sleeper());
    }

    private void assertNoMaintenanceHoldLeft() {
        RunLedger ledger = ledger();
        assertThat(stage.catalog.lockGroups())
                .allSatisfy(g ->
                        assertThat(ledger.maintenance(g)).as("hold on " + g).isEmpty());
    }

    @Test
    void healthyStage_activationPasses_runsThroughTheDeployedFunction_andLeavesNoHold() {
        stage = LocalStage.healthy();
        stage.shipLogs();

        Run run = verify("--activate", "--log-wait", "20");

        System.out.println(run.out());
        assertThat(run.exit()).as(run.out() + run.err()).isZero();
        assertThat(line(run, "dry-run"))
                .startsWith("PASS")
                .containsPattern(DESTRUCTIVE + " at \\S+Z: 1 change\\(s\\), 0 delivery\\(ies\\), 0 deletion\\(s\\)")
                .containsPattern(DELIVERING + " at \\S+Z: 0 change\\(s\\), 1 delivery\\(ies\\), 0 deletion\\(s\\)")
                .doesNotContain("runs#", "owner-1");
        assertThat(line(run, "manual-run")).startsWith("PASS").contains(DAILY);
        assertThat(line(run, "outcome-logged"))
                .startsWith("PASS")
                .contains("the saved query punctual/dev/job-timeline finds the outcome line of " + DAILY + " at ")
                .contains("1 row: PASS OK, logged at ");
        // Found through the saved query as deployed, narrowed to the run, over every pool's log group.
        LogsInsightsStandIn.Started query = stage.insights.started().getLast();
        assertThat(query.queryString())
                .startsWith(LogsInsightsStandIn.documentedFirstLine("job-timeline"))
                .contains("| filter job = \"" + DAILY + "\"", "| filter trigger = \"MANUAL\"")
                .contains("| filter occurrence = \"" + occurrence(line(run, "manual-run")) + "\"");
        assertThat(query.logGroupNames()).containsExactlyInAnyOrderElementsOf(stage.logGroups.values());
        assertThat(line(run, "repeat")).startsWith("PASS").contains("SKIP ALREADY_DONE");
        assertThat(line(run, "destructive-refused"))
                .startsWith("PASS")
                .contains(DESTRUCTIVE + " SKIP DESTRUCTIVE_DISABLED");
        assertThat(line(run, "delivery-suppressed")).startsWith("WARN").contains("not checked");
        assertThat(line(run, "maintenance"))
                .startsWith("PASS")
                .contains("on: SKIP MAINTENANCE")
                .contains("off: SKIP ALREADY_DONE");
        assertThat(line(run, "log-secrets")).startsWith("PASS");
        assertThat(run.out().lines().toList().getLast()).contains("0 failed").contains("preflight and activation");
        assertThat(run.out()).doesNotContain("FAIL ");
        // Every run went through the deployed function: the stand-in saw the Invoke calls.
        assertThat(stage.lambda.invocations()).hasSizeGreaterThanOrEqualTo(5);
        assertNoMaintenanceHoldLeft();
    }

    @Test
    void savedQueryMissingFromTheStage_failsNamingTheQuery_andSayingRedeploy() {
        stage = LocalStage.healthy();
        stage.shipLogs();
        stage.deleteSavedQuery("job-timeline");

        Run run = verify("--activate", "--log-wait", "20");

        System.out.println(run.out());
        assertThat(run.exit()).isEqualTo(VerifyCommand.FAILED);
        assertThat(line(run, "manual-run")).startsWith("PASS");
        assertThat(line(run, "outcome-logged"))
                .startsWith("FAIL")
                .contains("saved query punctual/dev/job-timeline is missing: the stage's stack names it but"
                        + " DescribeQueryDefinitions finds no such saved query")
                .contains("-> redeploy the stage (cdk deploy -c stage=dev)");
        assertThat(stage.insights.started())
                .as("no query started without its saved text")
                .isEmpty();
        assertThat(line(run, "maintenance")).startsWith("PASS");
        assertNoMaintenanceHoldLeft();
    }

    @Test
    void outcomeLineNeverArrives_failsAfterTheBoundedWait_measuredOnTheMovedClock() {
        stage = LocalStage.healthy(); // no shipLogs(): the function's lines never reach the log groups
        java.time.Instant before = stage.clock.instant();

        Run run = verify("--activate", "--log-wait", "20");

        assertThat(run.exit()).isEqualTo(VerifyCommand.FAILED);
        assertThat(line(run, "manual-run")).startsWith("PASS");
        assertThat(line(run, "outcome-logged"))
                .startsWith("FAIL")
                .contains("no row within 20 s (5 run(s) of the query)")
                .contains("run punctual/dev/job-timeline for " + DAILY + " in Logs Insights");
        // Every 5 s for 20 s, on the clock verify's sleeper moves: 5 queries, the wait spent on the clock.
        assertThat(stage.insights.started()).hasSize(5);
        assertThat(java.time.Duration.between(before, stage.clock.instant()))
                .isGreaterThanOrEqualTo(java.time.Duration.ofSeconds(20));
        assertThat(line(run, "repeat")).startsWith("PASS");
        assertNoMaintenanceHoldLeft();
    }

    /** The occurrence a manual-run line names: {@code ... PASS at 2026-11-30T14:00:00Z}. */
    private static String occurrence(String manualRunLine) {
        return manualRunLine
                .substring(manualRunLine.lastIndexOf(" at ") + " at ".length())
                .strip();
    }

    @Test
    void plantedSecretInALogLine_failsShowingItRedactedAndSayingRotate() {
        stage = LocalStage.healthy();
        stage.shipLogs();
        String key = "AKIA" + "IOSFODNN7EXAMPLE";
        stage.writeLogLine("default", "{\"level\":\"INFO\",\"message\":\"calling partner api with " + key + "\"}");

        Run run = verify("--activate", "--log-wait", "20");

        System.out.println(run.out());
        assertThat(run.exit()).isEqualTo(VerifyCommand.FAILED);
        assertThat(line(run, "log-secrets"))
                .startsWith("FAIL")
                .contains("1 line(s) hold a secret")
                .contains("[REDACTED]")
                .contains("rotate it now")
                .doesNotContain(key);
        assertThat(run.out()).doesNotContain(key);
        assertNoMaintenanceHoldLeft();
    }

    @Test
    void plantedPersonalDataInALogLine_failsShowingItRedactedAndSayingRemoveIt_notRotate() {
        stage = LocalStage.healthy();
        stage.shipLogs();
        String email = "bob" + "@example.com";
        stage.writeLogLine(
                "default", "{\"level\":\"INFO\",\"message\":\"reminder sent to " + email + " and +82 10-1234-5678\"}");

        Run run = verify("--activate", "--log-wait", "20");

        System.out.println(run.out());
        assertThat(run.exit()).isEqualTo(VerifyCommand.FAILED);
        assertThat(line(run, "log-secrets"))
                .startsWith("FAIL")
                .contains("1 line(s) hold personal data", "[email]", "[phone]", "personal data reached the logs")
                .doesNotContain(email, "1234-5678", "rotate");
        assertThat(run.out()).doesNotContain(email);
        assertNoMaintenanceHoldLeft();
    }

    @Test
    void maintenanceAlreadyOnBySomeoneElse_failsAndLeavesTheirHold() {
        stage = LocalStage.healthy();
        stage.shipLogs();
        RunLedger ledger = ledger();
        ledger.maintenanceOn(new MaintenanceRequest(
                stage.catalog.lockGroups(),
                new MaintenanceHold(
                        "loading synthetic data", "alice", stage.clock.instant().plusSeconds(3600)),
                Duration.ofSeconds(5),
                Duration.ofMillis(100)));

        Run run = verify("--activate", "--log-wait", "5");

        assertThat(run.exit()).isEqualTo(VerifyCommand.FAILED);
        assertThat(line(run, "manual-run")).startsWith("FAIL").contains("SKIP MAINTENANCE");
        assertThat(stage.catalog.lockGroups())
                .allSatisfy(g -> assertThat(ledger.maintenance(g))
                        .hasValueSatisfying(h -> assertThat(h.setBy()).isEqualTo("alice")));
    }
}
