package dev.punctual.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.cli.running.InvocationCommands;
import dev.punctual.cli.schedules.EntityStage;
import dev.punctual.cli.schedules.SchedulesCommand;
import dev.punctual.cli.stage.AwsAccess;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.entity.EntityScheduleName;
import dev.punctual.job.EntityJob;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.testing.DynamoDbHarness;
import java.io.InputStream;
import java.net.URI;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.scheduler.SchedulerClient;

/**
 * Decision 0043: EventBridge Scheduler deletes a one-time {@code at()} entity schedule after its delivery,
 * and {@code schedules get} then answers from the ledger ("completed", exit 0) instead of "no schedule".
 * On the emulator (moto's Scheduler API and DynamoDB): the delivery is {@code run --entity}, and the
 * scheduler's deletion is a DeleteSchedule sent straight to the emulator, as the scheduler deletes it (no
 * tombstone: that is what {@code schedules delete} writes). An entity the ledger never saw delivered, or one
 * deleted by {@code schedules delete}, is still "no schedule" (exit 3).
 */
class CompletedAtEntityTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String JOB = "launch-mail";

    private static final JobCatalog CATALOG = JobCatalog.of(JobDefinition.builder(JOB)
            .schedule("0 9 * * *", "UTC")
            .perEntity(EntityJob.parameters())
            .job(services -> context ->
                    JobResult.of("tenant", context.entity().orElseThrow().id()))
            .build());

    /** After the CLI's fixed now (CliRun.NOW, 14:00:02 UTC), so the put accepts it. */
    private static final String AT = "at(2026-11-30T16:00:00)";

    private static final String OCCURRENCE = "2026-11-30T16:00:00Z";

    private String stage;
    private String endpoint;

    @BeforeEach
    void freshStage() {
        stage = "done-" + UUID.randomUUID().toString().substring(0, 6);
        endpoint = DynamoDbHarness.backend().endpoint().toString();
    }

    @Test
    void aDeliveredAtEntity_whoseScheduleTheSchedulerDeleted_isAnsweredFromTheLedgerAsCompleted() throws Exception {
        assertThat(cli(on("schedules", "put", JOB, "acme", "--zone", "UTC", "--schedule", AT))
                        .code())
                .isZero();
        CliRun run = cliAfterTheOccurrence(on("run", JOB, "--entity", "acme", "--at", OCCURRENCE, "-o", "json"));
        assertThat(JSON.readTree(run.out()).at("/occurrences/0/outcome").asText())
                .as(run.err())
                .isEqualTo("PASS");
        schedulerDeletes("acme");

        CliRun got = cli(on("schedules", "get", JOB, "acme", "-o", "json"));

        assertThat(got.code()).as(got.err()).isZero();
        JsonNode answer = JSON.readTree(got.out());
        assertThat(answer.path("found").asBoolean()).isFalse();
        assertThat(answer.at("/completed/occurrence").asText()).isEqualTo(OCCURRENCE);
        assertThat(answer.at("/completed/status").asText()).isEqualTo("SUCCEEDED");
        assertThat(answer.at("/completed/schedule").asText()).isEqualTo("deleted by the scheduler after completion");
        assertThat(answer.at("/completed/source").asText()).isEqualTo("ledger");

        CliRun text = cli(on("schedules", "get", JOB, "acme"));
        assertThat(text.code()).isZero();
        assertThat(text.out().strip())
                .isEqualTo(
                        "completed: launch-mail.acme was delivered for " + OCCURRENCE + " (SUCCEEDED); its schedule is"
                                + " no longer in group " + EntityScheduleName.group(stage) + ": the scheduler deletes a"
                                + " one-time at() schedule after its delivery (answered from the ledger)");
    }

    @Test
    void anEntityWithNeitherScheduleNorDelivery_isStillNotFound() throws Exception {
        CliRun never = cli(on("schedules", "get", JOB, "ghost", "-o", "json"));
        assertThat(never.code()).isEqualTo(PunctualCli.RAN_NOTHING);
        assertThat(JSON.readTree(never.out()).has("completed")).isFalse();

        // Put, never delivered, its schedule gone: the put's due note is on the ledger, no occurrence is.
        cli(on("schedules", "put", JOB, "lost", "--zone", "UTC", "--schedule", AT));
        schedulerDeletes("lost");
        CliRun lost = cli(on("schedules", "get", JOB, "lost"));
        assertThat(lost.code()).isEqualTo(PunctualCli.RAN_NOTHING);
        assertThat(lost.out()).startsWith("no schedule: launch-mail.lost is not in group");
    }

    @Test
    void aDeliveredEntityDeletedByAnOperator_isNotFound_notCompleted() throws Exception {
        cli(on("schedules", "put", JOB, "gone", "--zone", "UTC", "--schedule", AT));
        assertThat(cliAfterTheOccurrence(on("run", JOB, "--entity", "gone", "--at", OCCURRENCE))
                        .code())
                .isZero();
        assertThat(cli(on("schedules", "delete", JOB, "gone")).code()).isZero();

        CliRun got = cli(on("schedules", "get", JOB, "gone", "-o", "json"));

        assertThat(got.code()).isEqualTo(PunctualCli.RAN_NOTHING);
        assertThat(JSON.readTree(got.out()).has("completed")).isFalse();
    }

    @Test
    void list_showsTheCompletedAtEntity_afterTheLiveOnes_markedAsAnsweredFromTheLedger() throws Exception {
        cli(on("schedules", "put", JOB, "acme", "--zone", "UTC", "--schedule", AT));
        cli(on("schedules", "put", JOB, "daily", "--zone", "UTC"));
        assertThat(cliAfterTheOccurrence(on("run", JOB, "--entity", "acme", "--at", OCCURRENCE))
                        .code())
                .isZero();
        schedulerDeletes("acme");

        CliRun json = cli(on("schedules", "list", JOB, "-o", "json"));

        assertThat(json.code()).as(json.err()).isZero();
        JsonNode listed = JSON.readTree(json.out());
        assertThat(listed.at("/schedules/0/entity").asText()).isEqualTo("daily");
        assertThat(listed.at("/schedules/0/state").asText()).isEqualTo("live");
        assertThat(listed.path("schedules")).hasSize(1);
        assertThat(listed.path("completed")).hasSize(1);
        JsonNode done = listed.at("/completed/0");
        assertThat(done.path("entity").asText()).isEqualTo("acme");
        assertThat(done.path("state").asText()).isEqualTo("completed");
        assertThat(done.path("occurrence").asText()).isEqualTo(OCCURRENCE);
        assertThat(done.path("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(done.path("source").asText()).isEqualTo("ledger");
        assertThat(done.path("schedule").asText()).isEqualTo("deleted by the scheduler after completion");
        assertThat(listed.path("completed_next").isNull()).isTrue();

        CliRun text = cli(on("schedules", "list", JOB));
        assertThat(text.code()).isZero();
        String out = text.out();
        assertThat(out.indexOf("daily")).as(out).isLessThan(out.indexOf("completed (answered from the ledger"));
        assertThat(out)
                .containsPattern("acme +completed +" + OCCURRENCE + " +SUCCEEDED +\\S+ +launch-mail\\.acme")
                .doesNotContain("more completed:");

        CliRun liveOnly = cli(on("schedules", "list", JOB, "--completed-limit", "0", "-o", "json"));
        assertThat(JSON.readTree(liveOnly.out()).path("completed")).isEmpty();
    }

    @Test
    void list_pagesTheCompletedOnes_andShowsAnEntityPutAgain_asLiveOnly() throws Exception {
        for (String entity : java.util.List.of("a1", "a2", "a3")) {
            cli(on("schedules", "put", JOB, entity, "--zone", "UTC", "--schedule", AT));
            assertThat(cliAfterTheOccurrence(on("run", JOB, "--entity", entity, "--at", OCCURRENCE))
                            .code())
                    .isZero();
            schedulerDeletes(entity);
        }
        // a3 put again with a later at(): live, so not also listed as completed (as schedules get answers it).
        cli(on("schedules", "put", JOB, "a3", "--zone", "UTC", "--schedule", "at(2026-12-01T16:00:00)"));

        java.util.List<String> completed = new java.util.ArrayList<>();
        String after = null;
        int pages = 0;
        do {
            CliRun page = after == null
                    ? cli(on("schedules", "list", JOB, "--completed-limit", "1", "-o", "json"))
                    : cli(on(
                            "schedules",
                            "list",
                            JOB,
                            "--completed-limit",
                            "1",
                            "--completed-after",
                            after,
                            "-o",
                            "json"));
            assertThat(page.code()).as(page.err()).isZero();
            JsonNode listed = JSON.readTree(page.out());
            assertThat(listed.path("completed").size()).isLessThanOrEqualTo(1);
            listed.path("completed")
                    .forEach(row -> completed.add(row.path("entity").asText()));
            after = listed.path("completed_next").isNull()
                    ? null
                    : listed.path("completed_next").asText();
            pages++;
        } while (after != null && pages < 10);

        assertThat(after).as("the last page has no next token").isNull();
        assertThat(completed).containsExactlyInAnyOrder("a1", "a2");
    }

    @Test
    void list_refusesABadTokenOrLimit_beforeAnyRequest() {
        CliRun token = cli(on("schedules", "list", JOB, "--completed-after", "x/acme"));
        assertThat(token.code()).isEqualTo(2);
        assertThat(token.err()).contains("--completed-after: 'x/acme' is not a token schedules list printed");

        CliRun limit = cli(on("schedules", "list", JOB, "--completed-limit", "1001"));
        assertThat(limit.code()).isEqualTo(2);
        assertThat(limit.err()).contains("--completed-limit: 1001 is not accepted; accepted: 0");
    }

    @Test
    void listsLedgerRequests_areQueriesAndGetItems_eachAllowedByTheSynthesisedOperatorPolicy() throws Exception {
        cli(on("schedules", "put", JOB, "acme", "--zone", "UTC", "--schedule", AT));
        assertThat(cliAfterTheOccurrence(on("run", JOB, "--entity", "acme", "--at", OCCURRENCE))
                        .code())
                .isZero();
        schedulerDeletes("acme");
        dev.punctual.infra.SynthesisedOperatorPolicy policy = dev.punctual.infra.SynthesisedOperatorPolicy.synthesise();
        try (RecordingProxy proxy = new RecordingProxy(URI.create(endpoint))) {
            String direct = endpoint;
            endpoint = proxy.endpoint().toString();
            proxy.take();
            CliRun listed = cli(on("schedules", "list", JOB, "-o", "json"));
            endpoint = direct;
            assertThat(JSON.readTree(listed.out()).path("completed")).hasSize(1);

            java.util.List<RecordingProxy.Access> ledger = proxy.take().stream()
                    .filter(a -> a.action().startsWith("dynamodb:"))
                    .toList();

            assertThat(ledger)
                    .extracting(RecordingProxy.Access::action)
                    .contains("dynamodb:Query", "dynamodb:GetItem")
                    .containsOnly("dynamodb:Query", "dynamodb:GetItem");
            assertThat(ledger)
                    .filteredOn(a -> a.action().equals("dynamodb:Query"))
                    .as("one Query per shard, on the job's completed notes")
                    .hasSize(dev.punctual.ledger.CompletedShards.SHARDS)
                    .allMatch(a -> a.partitionKey().startsWith("done#" + JOB + "#"));
            assertThat(ledger)
                    .as("every ledger request of the list, as the stage's operator policy has it")
                    .allMatch(a -> policy.allows(
                            a.action(),
                            a.partitionKey() == null ? "" : a.partitionKey(),
                            a.sortKey(),
                            a.attributes(),
                            a.returnValues()));
        }
    }

    /** What EventBridge Scheduler does after the delivery of a schedule with ActionAfterCompletion DELETE. */
    private void schedulerDeletes(String entity) {
        AwsAccess local = AwsAccess.loopback("us-east-1", Map.of(AwsAccess.SCHEDULER, URI.create(endpoint)));
        try (SchedulerClient scheduler = local.scheduler(Region.US_EAST_1)) {
            scheduler.deleteSchedule(
                    r -> r.groupName(EntityScheduleName.group(stage)).name(EntityScheduleName.of(JOB, entity)));
        }
    }

    private CliRun cli(String... args) {
        return cli(CliRun.NOW, args);
    }

    /** After the occurrence, so the operator's run is due (a run of a later time is refused NOT_DUE). */
    private CliRun cliAfterTheOccurrence(String... args) {
        return cli(
                java.time.Clock.fixed(java.time.Instant.parse(OCCURRENCE).plusSeconds(5), java.time.ZoneOffset.UTC),
                args);
    }

    private CliRun cli(java.time.Clock clock, String... args) {
        CliContext context = new CliContext(
                clock, AwsAccess.loopback("us-east-1", Map.of()), InputStream.nullInputStream(), duration -> {
                    throw new IllegalStateException("these commands never wait");
                });
        return EntityStage.cli(
                context,
                all -> {
                    all.put("schedules", () -> SchedulesCommand.commandLine(context, ignored -> CATALOG));
                    all.put(
                            "run",
                            () -> new InvocationCommands.Run(context, ignored -> CATALOG).runningInProcess(CATALOG));
                    return all;
                },
                args);
    }

    private String[] on(String... args) {
        String[] all = new String[args.length + 4];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--endpoint";
        all[args.length + 1] = endpoint;
        all[args.length + 2] = "--stage";
        all[args.length + 3] = stage;
        return all;
    }
}
