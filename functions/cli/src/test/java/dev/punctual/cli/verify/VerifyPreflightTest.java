package dev.punctual.cli.verify;

import static dev.punctual.fixtures.FixtureCatalog.DAILY;
import static dev.punctual.fixtures.FixtureCatalog.DELIVERING;
import static dev.punctual.fixtures.FixtureCatalog.DESTRUCTIVE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.cli.PunctualCli;
import dev.punctual.cli.VerifyCommand;
import dev.punctual.stage.StageFlags;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.scheduler.model.FlexibleTimeWindowMode;

/** {@code punctual verify --stage dev} against a local stage in moto: healthy, then one planted fault each. */
class VerifyPreflightTest {

    private LocalStage stage;

    @AfterEach
    void close() {
        if (stage != null) {
            stage.close();
        }
    }

    record Run(int exit, String out, String err) {}

    private static Run verify(LocalStage stage, String... more) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = PunctualCli.execute(
                new PrintWriter(out, true), new PrintWriter(err, true), stage.context(), stage.verifyArgs(more));
        return new Run(exit, out.toString(), err.toString());
    }

    private static String line(Run run, String check) {
        return run.out()
                .lines()
                .filter(l -> l.matches("(PASS|WARN|FAIL)\\s+" + check + "\\s.*"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no line for " + check + " in:\n" + run.out() + run.err()));
    }

    @Test
    void healthyStage_everyCheckPassesOrWarns_exitsZero() {
        stage = LocalStage.healthy();

        Run run = verify(stage);

        System.out.println(run.out());
        assertThat(run.exit()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).doesNotContain("FAIL ");
        for (String check :
                new String[] {"stack", "flags", "schedules", "ledger-table", "dead-letters", "alarms", "access"}) {
            assertThat(line(run, check)).startsWith("PASS");
        }
        assertThat(line(run, "schedules")).contains(stage.catalog.jobs().size() + " schedule(s) in the group");
        assertThat(line(run, "account")).startsWith("WARN").contains("not pinned");
        assertThat(run.out().lines().toList().getLast()).contains("0 failed");
    }

    @Test
    void unmanagedScheduleInTheGroup_failsWithLegacyEntryFoundStop() {
        stage = LocalStage.healthy();
        stage.aws
                .scheduler()
                .createSchedule(r -> r.groupName(stage.group)
                        .name("old-nightly-cron")
                        .scheduleExpression("cron(0 3 * * ? *)")
                        .flexibleTimeWindow(w -> w.mode(FlexibleTimeWindowMode.OFF))
                        .target(t ->
                                t.arn(stage.aliasArn("default")).roleArn("arn:aws:iam::123456789012:role/legacy")));

        Run run = verify(stage);

        System.out.println(run.out());
        assertThat(run.exit()).isEqualTo(VerifyCommand.FAILED);
        assertThat(line(run, "schedules"))
                .startsWith("FAIL")
                .contains("legacy entry found: punctual-dev/old-nightly-cron")
                .contains("stop:")
                .contains("delete-schedule");
        assertThat(run.out().lines().toList().getLast()).contains("1 failed").contains("NOT ready");
    }

    @Test
    void scheduleInAnotherGroupCallingTheStagesFunction_failsAsUnmanaged() {
        stage = LocalStage.healthy();
        stage.aws
                .scheduler()
                .createSchedule(r -> r.name("hand-made")
                        .scheduleExpression("rate(1 hour)")
                        .flexibleTimeWindow(w -> w.mode(FlexibleTimeWindowMode.OFF))
                        .target(t ->
                                t.arn(stage.aliasArn("default")).roleArn("arn:aws:iam::123456789012:role/legacy")));

        Run run = verify(stage);

        assertThat(line(run, "schedules")).startsWith("FAIL").contains("legacy entry found: default/hand-made");
    }

    @Test
    void drifted_destructiveFlag_failsNamingFunctionFlagAndRedeploy() {
        stage = LocalStage.healthy();
        String function = stage.functions.get("default");
        try (var lambda = stage.motoLambda()) {
            Map<String, String> env = new HashMap<>(lambda.getFunctionConfiguration(r -> r.functionName(function))
                    .environment()
                    .variables());
            env.put(StageFlags.DESTRUCTIVE_ENABLED, "true");
            // An edit in the console, published and moved under the alias the schedules invoke.
            lambda.updateFunctionConfiguration(r -> r.functionName(function).environment(e -> e.variables(env)));
            String version =
                    lambda.publishVersion(r -> r.functionName(function)).version();
            lambda.updateAlias(r -> r.functionName(function).name("live").functionVersion(version));
        }

        Run run = verify(stage);

        System.out.println(run.out());
        assertThat(run.exit()).isEqualTo(VerifyCommand.FAILED);
        assertThat(line(run, "flags"))
                .startsWith("FAIL")
                .contains(function + ":live PUNCTUAL_DESTRUCTIVE_ENABLED=true (stage config: false)")
                .contains("cdk deploy -c stage=dev");
    }

    @Test
    void messageInTheSchedulersDeadLetterQueue_failsSayingHowToReplayIt() {
        stage = LocalStage.healthy();
        stage.aws
                .sqs()
                .sendMessage(r -> r.queueUrl(stage.queues.get("SchedulerDeadLetters"))
                        .messageBody("{\"kind\":\"scheduled\",\"job\":\"" + DAILY + "\"}"));

        Run run = verify(stage);

        System.out.println(run.out());
        assertThat(run.exit()).isEqualTo(VerifyCommand.FAILED);
        assertThat(line(run, "dead-letters"))
                .startsWith("FAIL")
                .contains(stage.cfnName("SchedulerDeadLetters") + "=1")
                .contains("punctual run JOB --at T");
    }

    @Test
    void jsonOutput_oneObjectWithEveryCheckAndOk() throws Exception {
        stage = LocalStage.healthy();

        Run run = verify(stage, "--output", "json");

        var tree = new com.fasterxml.jackson.databind.ObjectMapper().readTree(run.out());
        assertThat(tree.path("ok").asBoolean()).isTrue();
        assertThat(tree.path("counts").path("fail").asInt()).isZero();
        assertThat(tree.path("checks")).hasSize(9);
        assertThat(tree.path("checks").get(0).path("check").asText()).isEqualTo("account");
    }

    @Test
    void jsonOutput_shortFormsOfTheSharedOutputOption_printTheSameChecks() throws Exception {
        stage = LocalStage.healthy();

        Run shortOption = verify(stage, "-o", "json");
        Run jsonFlag = verify(stage, "--json");

        var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        for (Run run : new Run[] {shortOption, jsonFlag}) {
            var tree = mapper.readTree(run.out());
            assertThat(run.exit()).as(run.out() + run.err()).isZero();
            assertThat(tree.path("ok").asBoolean()).isTrue();
            assertThat(tree.path("checks")).hasSize(9);
        }
        assertThat(checks(mapper.readTree(jsonFlag.out()))).isEqualTo(checks(mapper.readTree(shortOption.out())));
    }

    private static java.util.List<String> checks(com.fasterxml.jackson.databind.JsonNode tree) {
        java.util.List<String> checks = new java.util.ArrayList<>();
        tree.path("checks")
                .forEach(c -> checks.add(
                        c.path("status").asText() + " " + c.path("check").asText()));
        return checks;
    }

    @Test
    void alarmInAlarm_failsNamingItAndTheSavedQuery() {
        stage = LocalStage.healthy();
        stage.setAlarmState(stage.cfnName("AlertingFailures"), "ALARM");

        Run run = verify(stage);

        assertThat(run.exit()).isEqualTo(VerifyCommand.FAILED);
        assertThat(line(run, "alarms"))
                .startsWith("FAIL")
                .contains("in ALARM: " + stage.cfnName("AlertingFailures"))
                .contains("saved query");
    }

    @Test
    void messageInTheDeadLetterQueueOfStageDevEu_deployedBesideDev_isNotDevs() {
        stage = LocalStage.healthy();
        LocalStage.Neighbour devEu = stage.deployNeighbour("dev-eu");
        stage.aws
                .sqs()
                .sendMessage(r -> r.queueUrl(devEu.deadLetterQueueUrl())
                        .messageBody("{\"kind\":\"scheduled\",\"job\":\"" + DAILY + "\"}"));

        Run run = verify(stage);

        assertThat(run.exit()).as(run.out() + run.err()).isZero();
        assertThat(line(run, "dead-letters"))
                .startsWith("PASS")
                .contains(stage.queues.size() + " queue(s), 0 messages");
    }

    @Test
    void alarmOfStageDevEuInAlarm_deployedBesideDev_isNotDevs() {
        stage = LocalStage.healthy();
        LocalStage.Neighbour devEu = stage.deployNeighbour("dev-eu");
        stage.setAlarmState(devEu.alarm(), "ALARM");

        Run run = verify(stage);

        assertThat(run.exit()).as(run.out() + run.err()).isZero();
        assertThat(line(run, "alarms")).startsWith("PASS").contains("3 alarm(s), none in ALARM");
    }

    @Test
    void alarmOfTheNestedJobsStackInAlarm_failsNamingIt() {
        stage = LocalStage.healthy();
        stage.setAlarmState(stage.missedRunAlarm(), "ALARM");

        Run run = verify(stage);

        assertThat(run.exit()).isEqualTo(VerifyCommand.FAILED);
        assertThat(line(run, "alarms")).startsWith("FAIL").contains("in ALARM: " + stage.missedRunAlarm());
    }

    @Test
    void dryRunCounts_areTheDeployedFunctionsAnswersToADryRunOfEachJob() throws Exception {
        stage = LocalStage.healthy();

        Run run = verify(stage);

        assertThat(line(run, "dry-run"))
                .startsWith("PASS")
                .containsPattern(DESTRUCTIVE + " at \\S+Z: 1 change\\(s\\), 0 delivery\\(ies\\), 0 deletion\\(s\\)")
                .containsPattern(DELIVERING + " at \\S+Z: 0 change\\(s\\), 1 delivery\\(ies\\), 0 deletion\\(s\\)");
        var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        java.util.List<String> dryRuns = new java.util.ArrayList<>();
        for (var invocation : stage.lambda.invocations()) {
            var payload = mapper.readTree(invocation.payload());
            if (payload.path("dry_run").asBoolean()) {
                assertThat(invocation.function()).endsWith(":live");
                dryRuns.add(payload.path("job").asText());
            }
        }
        assertThat(dryRuns).containsExactlyInAnyOrder(DESTRUCTIVE, DELIVERING);
    }

    @Test
    void dryRunCounts_readNoJobTableWithTheOperatorsClients() {
        stage = LocalStage.healthy();
        stage.forgetRequests();

        Run run = verify(stage);

        assertThat(line(run, "dry-run"))
                .startsWith("PASS")
                .containsPattern(DESTRUCTIVE + " at \\S+Z: 1 change\\(s\\)")
                .containsPattern(DELIVERING + " at \\S+Z: 0 change\\(s\\), 1 delivery\\(ies\\)");
        var dynamo = stage.operatorRequests().stream()
                .filter(r -> r.operation().startsWith("DynamoDB_"))
                .toList();
        assertThat(dynamo)
                .as("verify's own reads of the ledger")
                .anyMatch(r -> r.body().contains(stage.ledgerTable));
        assertThat(dynamo).noneMatch(r -> r.body().contains(stage.recordsTable));
    }

    @Test
    void invokeGrantToAnotherAccountOnTheLiveAlias_failsNamingThePrincipal() {
        stage = LocalStage.healthy();
        try (var lambda = stage.motoLambda()) {
            lambda.addPermission(r -> r.functionName(stage.functions.get("default"))
                    .qualifier("live")
                    .statementId("partner-invoke")
                    .action("lambda:InvokeFunction")
                    .principal("arn:aws:iam::999988887777:root"));
        }

        Run run = verify(stage);

        System.out.println(run.out());
        assertThat(run.exit()).isEqualTo(VerifyCommand.FAILED);
        assertThat(line(run, "access"))
                .startsWith("FAIL")
                .contains("statement partner-invoke lets arn:aws:iam::999988887777:root lambda:InvokeFunction")
                .contains("remove-permission");
    }

    @Test
    void publicFunctionUrl_failsNamingTheUrl() {
        stage = LocalStage.healthy();
        String url;
        try (var lambda = stage.motoLambda()) {
            url = lambda.createFunctionUrlConfig(
                            r -> r.functionName(stage.functions.get("default")).authType("NONE"))
                    .functionUrl();
        }

        Run run = verify(stage);

        assertThat(run.exit()).isEqualTo(VerifyCommand.FAILED);
        assertThat(line(run, "access"))
                .startsWith("FAIL")
                .contains("function URL " + url + " (auth NONE)")
                .contains("delete-function-url-config");
    }

    @Test
    void eventSourceMappingOnTheLiveAlias_failsNamingTheTrigger() {
        stage = LocalStage.healthy();
        String feed =
                stage.aws.sqs().createQueue(r -> r.queueName("partner-feed")).queueUrl();
        String feedArn = stage.aws
                .sqs()
                .getQueueAttributes(r -> r.queueUrl(feed)
                        .attributeNames(software.amazon.awssdk.services.sqs.model.QueueAttributeName.QUEUE_ARN))
                .attributes()
                .get(software.amazon.awssdk.services.sqs.model.QueueAttributeName.QUEUE_ARN);
        try (var lambda = stage.motoLambda()) {
            lambda.createEventSourceMapping(
                    r -> r.functionName(stage.aliasArn("default")).eventSourceArn(feedArn));
        }

        Run run = verify(stage);

        assertThat(run.exit()).isEqualTo(VerifyCommand.FAILED);
        assertThat(line(run, "access"))
                .startsWith("FAIL")
                .contains("event source mapping from " + feedArn)
                .contains("delete-event-source-mapping");
    }

    @Test
    void invokeGrantToTheSchedulesOwnRole_passes() {
        stage = LocalStage.healthy();
        try (var lambda = stage.motoLambda()) {
            lambda.addPermission(r -> r.functionName(stage.functions.get("default"))
                    .qualifier("live")
                    .statementId("scheduler-role")
                    .action("lambda:InvokeFunction")
                    .principal(stage.schedulerRole()));
        }

        Run run = verify(stage);

        assertThat(line(run, "access")).startsWith("PASS");
    }

    @Test
    void verifiedAsDeployedWithSchedulesOff_onAStageWhoseSchedulesAreOn_failsFlagsAndStates() {
        stage = LocalStage.healthy();

        Run run = verify(stage, "--schedules", "off");

        assertThat(run.exit()).isEqualTo(VerifyCommand.FAILED);
        assertThat(line(run, "flags"))
                .startsWith("FAIL")
                .contains("PUNCTUAL_SCHEDULES_ENABLED=true (stage config: false)");
        assertThat(line(run, "schedules")).startsWith("FAIL").contains(DAILY + ": state ENABLED (catalog: DISABLED)");
    }

    @Test
    void refusedInput_exitsTwoNamingTheOption() {
        stage = LocalStage.healthy();

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = PunctualCli.execute(
                new PrintWriter(out, true), new PrintWriter(err, true), stage.context(), "verify", "--stage", "qa");
        Run unknown = new Run(exit, out.toString(), err.toString());
        Run output = verify(stage, "--output", "xml");
        Run schedules = verify(stage, "--schedules", "maybe");

        assertThat(unknown.exit()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(unknown.err()).contains("--stage: 'qa' is not a stage of this build; accepted: dev, prod");
        assertThat(output.exit()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(output.err())
                .contains("punctual verify: --output: 'xml' is not accepted; accepted: table, wide, json");
        assertThat(schedules.exit()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(schedules.err()).contains("accepted: on or off");
        assertThat(unknown.out() + output.out() + schedules.out()).doesNotContain("PASS");
    }
}
