package dev.punctual.handler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.examples.DemoTable;
import dev.punctual.examples.ExampleCatalog;
import dev.punctual.examples.TenantReportJob;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobEnvironment;
import dev.punctual.observability.Redactor;
import dev.punctual.observability.StructuredLog;
import dev.punctual.outcome.Reason;
import dev.punctual.outcome.Verdict;
import dev.punctual.runtime.Deadline;
import dev.punctual.runtime.InvocationResult;
import dev.punctual.runtime.OccurrenceReport;
import dev.punctual.stage.StageFlags;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every sample payload in events/ runs through the real wiring against the emulator. */
class EventsFilesTest {

    private static final Path EVENTS = Path.of("..", "..", "events");
    private static final Instant NOW = Instant.parse("2026-11-30T14:00:02Z");

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "scheduled-daily-report.json,            scheduled, 1, PASS",
        "run-daily-report.json,                  run,       1, PASS",
        "run-daily-report-at-forced.json,        run,       1, PASS",
        "run-send-reminders-dry-run.json,        run,       1, SKIP",
        "replay-expire-reservations-dry-run.json, replay,   8, SKIP",
        "replay-expire-reservations.json,        replay,    4, PASS",
        "ping.json,                              ping,      0, PASS",
        "scheduled-tenant-report-acme.json,      scheduled, 1, PASS",
    })
    void sampleEvent_onAFreshDevStage_givesTheDocumentedOutcome(String file, String kind, int count, Verdict verdict)
            throws Exception {
        EmulatorStage stage = new EmulatorStage(getClass(), StageFlags.defaultsFor("dev"), NOW);

        InvocationResult result = stage.runtime.handle(
                Files.readString(EVENTS.resolve(file)),
                Deadline.fromRemaining(NOW, Duration.ofMinutes(5)),
                new StructuredLog(stage.lines::add, stage.clock, "punctual", Redactor.standard()));

        assertThat(result.error()).isEmpty();
        assertThat(result.kind()).isEqualTo(kind);
        assertThat(result.occurrences())
                .hasSize(count)
                .allSatisfy(o -> assertThat(o.verdict()).isEqualTo(verdict));
    }

    /**
     * With the real clock, as an operator pastes a file into the console any day: every sample is a
     * valid payload that runs (an example dated "today" once turned NOT_DUE before its hour came).
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "scheduled-daily-report.json",
        "run-daily-report.json",
        "run-daily-report-at-forced.json",
        "run-send-reminders-dry-run.json",
        "replay-expire-reservations-dry-run.json",
        "replay-expire-reservations.json",
        "ping.json",
        "scheduled-tenant-report-acme.json",
    })
    void sampleEvent_onAnyDayWithTheRealClock_isValidAndFailsNothing(String file) throws Exception {
        Instant now = Instant.now();
        EmulatorStage stage = new EmulatorStage(getClass(), StageFlags.defaultsFor("dev"), now);

        InvocationResult result = stage.runtime.handle(
                Files.readString(EVENTS.resolve(file)),
                Deadline.fromRemaining(now, Duration.ofMinutes(5)),
                new StructuredLog(stage.lines::add, stage.clock, "punctual", Redactor.standard()));

        assertThat(result.error()).as(file + " on " + now).isEmpty();
        assertThat(result.anyFailed()).as(file).isFalse();
    }

    @Test
    void theReadmesListOfReasonCodes_isEveryReasonTheCodeHas_andNoOther() throws Exception {
        String readme = Files.readString(EVENTS.resolve("README.md"));
        // The list after "reason is one of the codes in dev.punctual.outcome.Reason (", up to its ")".
        String start = "`dev.punctual.outcome.Reason` (";
        String listed = readme.substring(readme.indexOf(start) + start.length());
        listed = listed.substring(0, listed.indexOf(')'));
        List<String> codes = java.util.Arrays.stream(listed.split(","))
                .map(code -> code.strip().replace("`", ""))
                .toList();

        assertThat(codes)
                .containsExactlyInAnyOrderElementsOf(java.util.Arrays.stream(Reason.values())
                        .map(Reason::wire)
                        .toList());
    }

    @Test
    void everyJsonFileInEvents_isCoveredByTheTestAbove_andDocumentedInTheReadme() throws Exception {
        String readme = Files.readString(EVENTS.resolve("README.md"));
        List<String> files;
        try (Stream<Path> listing = Files.list(EVENTS)) {
            files = listing.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".json"))
                    .sorted()
                    .toList();
        }
        String covered = String.join(
                ",",
                List.of(
                        "scheduled-daily-report.json",
                        "run-daily-report.json",
                        "run-daily-report-at-forced.json",
                        "run-send-reminders-dry-run.json",
                        "replay-expire-reservations-dry-run.json",
                        "replay-expire-reservations.json",
                        "ping.json",
                        "scheduled-tenant-report-acme.json"));

        assertThat(files).isNotEmpty().allSatisfy(f -> {
            assertThat(covered).contains(f);
            assertThat(readme).contains(f);
        });
    }

    @Test
    void scheduledEvent_deliveredTwice_runsOnce_andTheReportItemIsKeyedByLocalDate() throws Exception {
        EmulatorStage stage = new EmulatorStage(getClass(), StageFlags.defaultsFor("dev"), NOW);
        String payload = Files.readString(EVENTS.resolve("scheduled-daily-report.json"));
        StructuredLog log = new StructuredLog(stage.lines::add, stage.clock, "punctual", Redactor.standard());

        stage.runtime.handle(payload, Deadline.fromRemaining(NOW, Duration.ofMinutes(5)), log);
        InvocationResult second =
                stage.runtime.handle(payload, Deadline.fromRemaining(NOW, Duration.ofMinutes(5)), log);

        assertThat(second.occurrences()).extracting(OccurrenceReport::reason).containsExactly(Reason.ALREADY_DONE);
        assertThat(stage.clients
                        .dynamo()
                        .getItem(b -> b.tableName(stage.table(ExampleCatalog.DEMO_TABLE))
                                .key(DemoTable.key("reports", "2026-11-30"))
                                .consistentRead(true))
                        .hasItem())
                .isTrue();
    }

    /**
     * The entity delivery sample is what an entity's schedule sends (ScheduledPayload.forEntity, with the
     * scheduler's attributes filled in) for the examples' per-entity job {@code tenant-report}.
     */
    @Test
    void entityDeliverySample_isTheEntitysScheduleInput_andAValidPayloadOfTheExamplesPerEntityJob() throws Exception {
        JobCatalog examples =
                new ExampleCatalog().catalog(JobEnvironment.definitionsOnly(StageFlags.defaultsFor("dev")));
        JobDefinition report = examples.require("tenant-report");
        String payload = Files.readString(EVENTS.resolve("scheduled-tenant-report-acme.json"));
        @SuppressWarnings("unchecked")
        Map<String, Object> sample = (Map<String, Object>) dev.punctual.json.Json.read(payload);
        Map<String, Object> input =
                dev.punctual.runtime.ScheduledPayload.forEntity(dev.punctual.entity.EntitySchedule.of(
                        report, "acme", "0 9 * * *", "Europe/Paris", Map.of("locale", "fr")));

        assertThat(report.isPerEntity()).isTrue();
        assertThat(sample.keySet()).containsExactlyElementsOf(input.keySet());
        input.forEach((key, value) -> {
            if (!value.toString().startsWith("<aws.scheduler.")) {
                assertThat(sample.get(key)).as(key).isEqualTo(value);
            }
        });
        assertThat(new dev.punctual.runtime.PayloadParser(examples).parse(payload))
                .isInstanceOf(dev.punctual.runtime.PayloadParser.Parsed.Valid.class);
    }

    /**
     * acme's delivery for 09:00 in Paris writes acme's report for its own local day with its locale, under
     * the ledger id tenant-report:acme; delivered twice, it runs once.
     */
    @Test
    void entityDelivery_deliveredTwice_runsOnce_andWritesTheTenantsReportForItsLocalDay() throws Exception {
        EmulatorStage stage = new EmulatorStage(getClass(), StageFlags.defaultsFor("dev"), NOW);
        String payload = Files.readString(EVENTS.resolve("scheduled-tenant-report-acme.json"));
        StructuredLog log = new StructuredLog(stage.lines::add, stage.clock, "punctual", Redactor.standard());

        InvocationResult first = stage.runtime.handle(payload, Deadline.fromRemaining(NOW, Duration.ofMinutes(5)), log);
        InvocationResult second =
                stage.runtime.handle(payload, Deadline.fromRemaining(NOW, Duration.ofMinutes(5)), log);

        assertThat(first.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.entity()).isEqualTo("acme");
            assertThat(o.occurrence()).isEqualTo(Instant.parse("2026-11-30T08:00:00Z"));
            assertThat(o.result())
                    .containsEntry("tenant", "acme")
                    .containsEntry("date", "2026-11-30")
                    .containsEntry("locale", "fr");
        });
        assertThat(second.occurrences()).extracting(OccurrenceReport::reason).containsExactly(Reason.ALREADY_DONE);
        Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> report = stage.clients
                .dynamo()
                .getItem(b -> b.tableName(stage.table(ExampleCatalog.DEMO_TABLE))
                        .key(DemoTable.key(TenantReportJob.TENANT_REPORTS, "acme#2026-11-30"))
                        .consistentRead(true))
                .item();
        assertThat(DemoTable.text(report, "locale")).isEqualTo("fr");
        assertThat(DemoTable.text(report, "occurrence")).isEqualTo("2026-11-30T08:00:00Z");
    }
}
