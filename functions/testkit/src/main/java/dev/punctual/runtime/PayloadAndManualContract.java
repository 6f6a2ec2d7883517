package dev.punctual.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.job.JobPreview;
import dev.punctual.ledger.LockState;
import dev.punctual.ledger.MaintenanceHold;
import dev.punctual.ledger.MaintenanceRequest;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.Trigger;
import dev.punctual.ledger.testkit.MutableClock;
import dev.punctual.outcome.Reason;
import dev.punctual.outcome.Verdict;
import dev.punctual.stage.StageFlags;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

public abstract class PayloadAndManualContract {

    /** The ledger the runtime runs on, on the fixture's clock; see {@link ScheduledInvocationContract}. */
    protected abstract RunLedger ledger(MutableClock clock);

    private RuntimeFixture dev(Instant start) {
        return new RuntimeFixture(start, StageFlags.defaultsFor("dev"), this::ledger);
    }

    private RuntimeFixture fixture(Instant start, StageFlags flags) {
        return new RuntimeFixture(start, flags, this::ledger);
    }

    private static final Instant REPORT_AT = Instant.parse("2026-11-30T14:00:00Z");

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "not json at all                                                 | NOT_JSON      | ",
                "[1,2]                                                           | NOT_AN_OBJECT | ",
                "{\"job\":\"report\"}                                            | MISSING_FIELD | kind",
                "{\"kind\":\"explode\",\"job\":\"report\"}                       | UNKNOWN_KIND  | kind",
                "{\"kind\":\"scheduled\",\"job\":\"nope\",\"scheduled_time\":\"2026-11-30T14:00:00Z\"} | UNKNOWN_JOB | job",
                "{\"kind\":\"scheduled\",\"job\":\"report\"}                     | MISSING_FIELD | scheduled_time",
                "{\"kind\":\"scheduled\",\"job\":\"report\",\"scheduled_time\":\"yesterday\"} | BAD_TIME | scheduled_time",
                "{\"kind\":\"scheduled\",\"job\":\"report\",\"scheduled_time\":\"-1000000000-01-01T00:00:00Z\"} | BAD_TIME | scheduled_time",
                "{\"kind\":\"run\",\"job\":\"report\",\"at\":\"+1000000000-12-31T14:00:00Z\"} | BAD_TIME | at",
                "{\"kind\":\"scheduled\",\"job\":7,\"scheduled_time\":\"2026-11-30T14:00:00Z\"} | WRONG_TYPE | job",
                "{\"kind\":\"scheduled\",\"job\":\"report\",\"scheduled_time\":\"2026-11-30T14:00:00Z\",\"attempt_number\":\"x\"} | WRONG_TYPE | attempt_number",
                "{\"kind\":\"run\",\"job\":\"report\",\"force\":\"yes\"}         | WRONG_TYPE    | force",
                "{\"kind\":\"run\",\"job\":\"report\",\"at\":\"2026-11-30T13:59:00Z\"} | NOT_AN_OCCURRENCE | at",
                "{\"kind\":\"run\",\"job\":\"report\",\"at\":\"2026-11-30T13:00:00Z\"} | NOT_AN_OCCURRENCE | at",
                "{\"kind\":\"replay\",\"job\":\"report\",\"from\":\"2026-11-30T00:00:00Z\",\"to\":\"2026-11-29T00:00:00Z\"} | BAD_RANGE | to",
                "{\"kind\":\"replay\",\"job\":\"report\",\"from\":\"2026-11-20T00:00:00Z\",\"to\":\"2026-11-29T00:00:00Z\",\"max\":5000} | BAD_RANGE | max",
                "{\"kind\":\"run\",\"job\":\"report-free\",\"at\":\"2026-11-29T24:00:00Z\"} | BAD_TIME | at",
                "{\"kind\":\"run\",\"job\":\"report-free\",\"at\":\"2026-11-30T13:44:60Z\"} | BAD_TIME | at",
                "{\"kind\":\"run\",\"job\":\"report-free\",\"at\":\"2026-11-30t13:45:00z\"} | BAD_TIME | at",
                "{\"kind\":\"run\",\"job\":\"report-free\",\"at\":\"2026-11-30T13:45Z\"} | BAD_TIME | at",
                "{\"kind\":\"run\",\"job\":\"report-free\",\"at\":\"２０２６-11-30T13:45:00Z\"} | BAD_TIME | at",
                "{\"kind\":\"scheduled\",\"job\":\"report-free\",\"scheduled_time\":\"2026-11-30T13:45:00Z\",\"attempt_number\":\"٣\"} | WRONG_TYPE | attempt_number",
                "{\"kind\":\"replay\",\"job\":\"report-free\",\"from\":\"2026-11-30T10:00:00Z\",\"to\":\"2026-11-30T13:00:00Z\",\"max\":04} | NOT_JSON | ",
                "{\"kind\":\"replay\",\"job\":\"report-free\",\"from\":\"2026-11-30T10:00:00Z\",\"to\":\"2026-11-30T13:00:00Z\",\"max\":4.} | NOT_JSON | ",
                "{\"kind\":\"run\",\"job\":\"report\",\"at\":\"2026-12-30T14:00:00Z\"} | NOT_DUE | at",
                "{\"kind\":\"scheduled\",\"job\":\"report\",\"scheduled_time\":\"2026-11-30T14:07:00Z\"} | NOT_DUE | scheduled_time",
                "{\"kind\":\"scheduled\",\"job\":\"report\",\"scheduled_time\":\"2030-01-02T14:00:00Z\"} | NOT_DUE | scheduled_time",
                "{\"kind\":\"run\",\"job\":\"report\",\"at\":\"2026-11-30T14:00:06Z\"} | NOT_DUE | at",
                "{\"kind\":\"replay\",\"job\":\"report\",\"from\":\"2026-11-20T00:00:00Z\",\"to\":\"2027-01-01T00:00:00Z\"} | NOT_DUE | to",
            })
    void invalidPayload_isRefusedWithItsCode_namesTheField_andWritesNothing(String payload, String code, String field) {
        RuntimeFixture f = dev(REPORT_AT);

        InvocationResult result = f.invoke(payload.strip());

        assertThat(result.valid()).isFalse();
        assertThat(result.error()).hasValueSatisfying(e -> {
            assertThat(e.code()).isEqualTo(code);
            assertThat(e.field()).isEqualTo(field);
            assertThat(e.message()).isNotBlank();
        });
        assertThat(result.occurrences()).isEmpty();
        assertThat(f.ran).isEmpty();
        assertThat(f.ledger.run(new RunKey("report", REPORT_AT))).isEmpty();
        assertThat(f.ledger.cursor("report")).isEmpty();
        assertThat(f.lines)
                .singleElement()
                .satisfies(line -> assertThat(line)
                        .contains("\"level\":\"ERROR\"", "invalid payload", "\"error_code\":\"" + code + "\""));
    }

    @Test
    void invalidPayload_echoingASecret_isRedactedInTheResultTheLogAndTheRenderedResult() {
        RuntimeFixture f = dev(REPORT_AT);
        String key = "wJalrXUtnFEMI" + "/K7MDENG/bPxRfiCYEXAMPLEKEY";

        InvocationResult result = f.invoke("{\"kind\":\"run\",\"job\":\"AWS_SECRET_ACCESS_KEY=" + key + "\"}");

        assertThat(result.error())
                .hasValueSatisfying(
                        e -> assertThat(e.message()).doesNotContain(key).contains("[REDACTED]"));
        assertThat(ResultJson.render(result)).doesNotContain(key);
        assertThat(f.lines).isNotEmpty().allSatisfy(line -> assertThat(line).doesNotContain(key));
    }

    @Test
    void aMistypedJob_isRefused_withTheJobItProbablyMeant() {
        RuntimeFixture f = dev(REPORT_AT);

        InvocationResult result = f.invoke("{\"kind\":\"run\",\"job\":\"reprot\"}");

        assertThat(result.error()).hasValueSatisfying(e -> {
            assertThat(e.code()).isEqualTo("UNKNOWN_JOB");
            assertThat(e.message())
                    .contains("job 'reprot' is not in the catalog")
                    .endsWith("(did you mean report?)");
        });
        assertThat(f.ran).isEmpty();
    }

    @Test
    void invalidPayload_withAHugeOrMultiLineJobId_echoesItBoundedOnOneLine() {
        RuntimeFixture f = dev(REPORT_AT);
        String huge = "x".repeat(300_000);

        InvocationResult big = f.invoke("{\"kind\":\"run\",\"job\":\"" + huge + "\"}");
        InvocationResult forged = f.invoke("{\"kind\":\"run\",\"job\":\"a\\n[punctual] PASS all good\"}");

        assertThat(big.error().orElseThrow().message().length())
                .isLessThanOrEqualTo(InvalidPayload.MAX_MESSAGE + "…[truncated]".length());
        assertThat(forged.error().orElseThrow().message()).doesNotContain("\n").contains("\\u000A[punctual]");
    }

    @Test
    void payload_withADuplicateField_isRefusedAsNotJson_andRunsNothing() {
        RuntimeFixture f = dev(REPORT_AT);

        InvocationResult result = f.invoke("{\"kind\":\"ping\",\"kind\":\"run\",\"job\":\"report\"}");

        assertThat(result.error()).hasValueSatisfying(e -> {
            assertThat(e.code()).isEqualTo("NOT_JSON");
            assertThat(e.message()).contains("duplicate field name \"kind\"");
        });
        assertThat(f.ran).isEmpty();
        assertThat(f.ledger.run(new RunKey("report", REPORT_AT))).isEmpty();
    }

    /**
     * A scheduled time later than now plus the clock-skew tolerance is refused with nothing written,
     * whether or not it is an occurrence: run, it would take effect early and move the cursor into
     * the future, after which later deliveries would catch up nothing.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "an occurrence years ahead,   2030-01-02T14:00:00Z",
        "tomorrow's occurrence,       2026-12-01T14:00:00Z",
        "not an occurrence,           2026-11-30T14:07:00Z",
        "six seconds ahead,           2026-11-30T14:00:06Z",
    })
    void scheduledDelivery_afterNowPlusTheTolerance_isRefusedNotDue_andWritesNothing(String why, Instant at) {
        RuntimeFixture f = dev(REPORT_AT);

        InvocationResult result = f.invoke(RuntimeFixture.scheduled("report", at));

        assertThat(result.error()).hasValueSatisfying(e -> {
            assertThat(e.code()).isEqualTo("NOT_DUE");
            assertThat(e.field()).isEqualTo("scheduled_time");
            assertThat(e.message()).contains("is after now", "tolerance of 5 s");
        });
        assertThat(f.ran).isEmpty();
        assertThat(f.ledger.run(new RunKey("report", at))).isEmpty();
        assertThat(f.ledger.cursor("report")).isEmpty();
        assertThat(f.outcomeLines()).isEmpty();
    }

    @Test
    void scheduledDelivery_aFewSecondsAheadWithinTheTolerance_runs() {
        RuntimeFixture f = dev(REPORT_AT.minusSeconds(4));

        InvocationResult result = f.invoke(RuntimeFixture.scheduled("report", REPORT_AT));

        assertThat(result.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.OK));
    }

    /**
     * Only a scheduler's delivery that may really be late is recorded as a NOT_AN_OCCURRENCE skip:
     * one older than the two retry layers can deliver, or a payload without the
     * scheduler's context attributes is refused as before, and nothing is written for it.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "older than 30 h of retries            | 2026-11-29T07:59:00Z | true  | older than",
                "without executionId and scheduleArn   | 2026-11-30T13:00:00Z | false | execution_id",
                "not on a whole minute                 | 2026-11-30T13:00:30Z | true  | whole minute",
            })
    void scheduledNonOccurrence_thatCannotBeALateDelivery_isRefused_andWritesNothing(
            String why, Instant at, boolean fromScheduler, String explanation) {
        RuntimeFixture f = dev(REPORT_AT);
        String payload = fromScheduler
                ? RuntimeFixture.scheduled("report", at)
                : "{\"kind\":\"scheduled\",\"job\":\"report\",\"scheduled_time\":\"" + at + "\"}";

        InvocationResult result = f.invoke(payload);

        assertThat(result.error()).hasValueSatisfying(e -> {
            assertThat(e.code()).isEqualTo("NOT_AN_OCCURRENCE");
            assertThat(e.field()).isEqualTo("scheduled_time");
            assertThat(e.message()).contains("is not an occurrence", explanation);
        });
        assertThat(result.occurrences()).isEmpty();
        assertThat(f.ledger.run(new RunKey("report", at))).isEmpty();
        assertThat(f.ledger.cursor("report")).isEmpty();
        assertThat(f.outcomeLines()).isEmpty();
    }

    @Test
    void scheduledNonOccurrence_exactlyAsOldAsTheRetriesAllow_isStillRecorded() {
        RuntimeFixture f = dev(REPORT_AT);
        Instant oldest = REPORT_AT.minus(Duration.ofHours(30));

        InvocationResult result = f.invoke(RuntimeFixture.scheduled("report", oldest));

        assertThat(result.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.NOT_AN_OCCURRENCE));
        assertThat(f.ledger.run(new RunKey("report", oldest))).isPresent();
    }

    @Test
    void manualRun_withoutAt_runsTheLatestDueOccurrence_asManual() {
        RuntimeFixture f = dev(REPORT_AT.plusSeconds(3600));

        InvocationResult result = f.invoke("{\"kind\":\"run\",\"job\":\"report\"}");

        assertThat(result.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.occurrence()).isEqualTo(REPORT_AT);
            assertThat(o.trigger()).isEqualTo(Trigger.MANUAL);
            assertThat(o.verdict()).isEqualTo(Verdict.PASS);
        });
    }

    @Test
    void manualRun_ofAnOccurrenceAlreadyDone_skips_unlessForced() {
        RuntimeFixture f = dev(REPORT_AT.plusSeconds(60));
        f.invoke(RuntimeFixture.scheduled("report", REPORT_AT));
        String manual = "{\"kind\":\"run\",\"job\":\"report\",\"at\":\"" + REPORT_AT + "\"";

        InvocationResult again = f.invoke(manual + "}");
        InvocationResult forced = f.invoke(manual + ",\"force\":true}");

        assertThat(again.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.ALREADY_DONE));
        assertThat(forced.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.verdict()).isEqualTo(Verdict.PASS));
        assertThat(f.ran).hasSize(2);
    }

    @Test
    void replay_dryRun_listsTheOccurrencesAndWritesNothing() {
        RuntimeFixture f = dev(REPORT_AT.plusSeconds(86_400 * 3));

        InvocationResult result = f.invoke("{\"kind\":\"replay\",\"job\":\"report\",\"from\":\"2026-11-28T00:00:00Z\","
                + "\"to\":\"2026-12-01T00:00:00Z\",\"dry_run\":true}");

        assertThat(result.occurrences())
                .extracting(o -> o.occurrence().toString())
                .containsExactly("2026-11-28T14:00:00Z", "2026-11-29T14:00:00Z", "2026-11-30T14:00:00Z");
        assertThat(result.occurrences()).allSatisfy(o -> assertThat(o.reason()).isEqualTo(Reason.DRY_RUN));
        assertThat(f.ran).isEmpty();
        assertThat(f.ledger.cursor("report")).isEmpty();
    }

    @Test
    void replay_dryRun_reportsEachWouldRunOccurrencesPreviewCounts_andNoneForAJobThatCannotTell() {
        RuntimeFixture f = dev(REPORT_AT.plusSeconds(86_400 * 3));
        f.invoke("{\"kind\":\"replay\",\"job\":\"report\",\"from\":\"2026-11-28T00:00:00Z\","
                + "\"to\":\"2026-12-01T00:00:00Z\",\"max\":1}");

        InvocationResult dry = f.invoke("{\"kind\":\"replay\",\"job\":\"report\",\"from\":\"2026-11-28T00:00:00Z\","
                + "\"to\":\"2026-12-01T00:00:00Z\",\"dry_run\":true}");
        InvocationResult cannotTell = f.invoke("{\"kind\":\"replay\",\"job\":\"refund\","
                + "\"from\":\"2026-11-30T00:00:00Z\",\"to\":\"2026-11-30T02:00:00Z\",\"dry_run\":true}");

        List<Map<String, Object>> occurrences = occurrences(dry);
        assertThat(occurrences).extracting(o -> o.get("reason")).containsExactly("ALREADY_DONE", "DRY_RUN", "DRY_RUN");
        assertThat(occurrences.get(0)).doesNotContainKey("preview");
        assertThat(occurrences.subList(1, 3))
                .allSatisfy(o ->
                        assertThat(o.get("preview")).isEqualTo(Map.of("changes", 3, "deliveries", 0, "deletions", 0)));
        assertThat(f.previewed).containsExactly("report@2026-11-29T14:00:00Z", "report@2026-11-30T14:00:00Z");
        assertThat(occurrences(cannotTell)).hasSize(2).allSatisfy(o -> {
            assertThat(o.get("reason")).isEqualTo("DRY_RUN");
            assertThat(o).doesNotContainKey("preview");
        });
        assertThat(f.ran).containsExactly("report@2026-11-28T14:00:00Z");
    }

    @Test
    void manualRun_dryRun_claimsWritesAndSendsNothing_andReportsThePreview() {
        Instant remindAt = Instant.parse("2026-11-30T09:00:00Z"); // 18:00 in Seoul
        RuntimeFixture f = fixture(REPORT_AT, StageFlags.defaultsFor("prod"));

        InvocationResult result = f.invoke("{\"kind\":\"run\",\"job\":\"remind\",\"dry_run\":true}");

        assertThat(result.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.occurrence()).isEqualTo(remindAt);
            assertThat(o.trigger()).isEqualTo(Trigger.MANUAL);
            assertThat(o.reason()).isEqualTo(Reason.DRY_RUN);
            assertThat(o.attempt()).isZero();
            assertThat(o.fence()).isNull();
            assertThat(o.detail()).isEqualTo("would run: 0 changes, 1 delivery, 0 deletions");
        });
        assertThat(occurrences(result))
                .singleElement()
                .satisfies(o ->
                        assertThat(o.get("preview")).isEqualTo(Map.of("changes", 0, "deliveries", 1, "deletions", 0)));
        assertThat(f.previewed).containsExactly("remind@" + remindAt);
        assertThat(f.ran).isEmpty();
        assertThat(f.sent).isEmpty();
        assertThat(f.events).isEmpty();
        assertThat(f.outcomeLines()).isEmpty();
        assertThat(f.ledger.run(new RunKey("remind", remindAt))).isEmpty();
        assertThat(f.ledger.cursor("remind")).isEmpty();
        assertThat(f.ledger.lock("remind")).isEqualTo(LockState.absent("remind"));
    }

    @Test
    void manualRun_dryRun_ofAnOccurrenceAlreadyDone_saysSo_unlessForced_andLeavesTheRunItemAsItWas() {
        RuntimeFixture f = dev(REPORT_AT.plusSeconds(60));
        f.invoke(RuntimeFixture.scheduled("report", REPORT_AT));
        RunRecord before = f.ledger.run(new RunKey("report", REPORT_AT)).orElseThrow();
        String dry = "{\"kind\":\"run\",\"job\":\"report\",\"at\":\"" + REPORT_AT + "\",\"dry_run\":true";

        InvocationResult again = f.invoke(dry + "}");
        InvocationResult forced = f.invoke(dry + ",\"force\":true}");

        assertThat(again.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.reason()).isEqualTo(Reason.ALREADY_DONE);
            assertThat(o.preview()).isEmpty();
        });
        assertThat(forced.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.reason()).isEqualTo(Reason.DRY_RUN);
            assertThat(o.preview()).contains(JobPreview.changes(3));
        });
        assertThat(f.ran).hasSize(1);
        assertThat(f.ledger.run(new RunKey("report", REPORT_AT))).contains(before);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> occurrences(InvocationResult result) {
        try {
            return (List<Map<String, Object>>) RuntimeFixture.JSON
                    .readValue(ResultJson.render(result), Map.class)
                    .get("occurrences");
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void replay_runsTheRangeOldestFirst_andRepeatingIt_skipsWhatIsDone_andGetsFurther() {
        RuntimeFixture f = dev(REPORT_AT.plusSeconds(86_400 * 3));
        String replay = "{\"kind\":\"replay\",\"job\":\"report\",\"from\":\"2026-11-28T00:00:00Z\","
                + "\"to\":\"2026-12-01T00:00:00Z\",\"max\":2}";

        InvocationResult first = f.invoke(replay);
        InvocationResult second = f.invoke(replay);

        assertThat(first.occurrences())
                .extracting(OccurrenceReport::verdict)
                .containsExactly(Verdict.PASS, Verdict.PASS);
        assertThat(first.notRun()).isEqualTo(1);
        assertThat(second.occurrences())
                .as("max counts occurrences to run, not those already done")
                .extracting(OccurrenceReport::reason)
                .containsExactly(Reason.ALREADY_DONE, Reason.ALREADY_DONE, Reason.OK);
        assertThat(second.notRun()).isZero();
        assertThat(f.ran)
                .containsExactly(
                        "report@2026-11-28T14:00:00Z", "report@2026-11-29T14:00:00Z", "report@2026-11-30T14:00:00Z");
    }

    @Test
    void replay_dryRun_afterARun_marksTheDoneOccurrencesDone_andOnlyTheOthersAsWouldRun() {
        RuntimeFixture f = dev(REPORT_AT.plusSeconds(86_400 * 3));
        f.invoke("{\"kind\":\"replay\",\"job\":\"report\",\"from\":\"2026-11-28T00:00:00Z\","
                + "\"to\":\"2026-12-01T00:00:00Z\",\"max\":1}");

        InvocationResult dry = f.invoke("{\"kind\":\"replay\",\"job\":\"report\",\"from\":\"2026-11-28T00:00:00Z\","
                + "\"to\":\"2026-12-01T00:00:00Z\",\"dry_run\":true}");

        assertThat(dry.occurrences())
                .extracting(OccurrenceReport::reason)
                .containsExactly(Reason.ALREADY_DONE, Reason.DRY_RUN, Reason.DRY_RUN);
        assertThat(f.ran).containsExactly("report@2026-11-28T14:00:00Z");
    }

    @Test
    void replay_tellsAnInvocationsListener_ofEachOccurrenceAfterItsOutcomeLine_andADryRunTellsNone() {
        RuntimeFixture f = dev(REPORT_AT.plusSeconds(86_400 * 3));
        List<String> told = new ArrayList<>();
        OccurrenceListener progress = (job, outcome, log) -> told.add(job.id() + " " + outcome.occurrence() + " "
                + outcome.reason().wire() + " after line " + f.outcomeLines().size());
        String range = "\"job\":\"report\",\"from\":\"2026-11-28T00:00:00Z\",\"to\":\"2026-12-01T00:00:00Z\"";

        f.runtime.handle("{\"kind\":\"replay\"," + range + ",\"max\":2}", f.deadline(), f.log(), progress);
        f.runtime.handle("{\"kind\":\"replay\"," + range + ",\"dry_run\":true}", f.deadline(), f.log(), progress);
        f.invoke("{\"kind\":\"replay\"," + range + "}");

        assertThat(told)
                .containsExactly(
                        "report 2026-11-28T14:00:00Z OK after line 1", "report 2026-11-29T14:00:00Z OK after line 2");
        assertThat(f.outcomeLines())
                .as("the last replay, without the listener, still writes its line; the listener is not told")
                .hasSize(3);
    }

    @Test
    void replay_stoppedByMaintenance_reportsEveryOccurrenceNotRun_andSaysWhatStoppedIt() {
        Instant now = REPORT_AT.plusSeconds(86_400 * 10);
        RuntimeFixture f = dev(now);
        f.ledger.maintenanceOn(new MaintenanceRequest(
                List.of("report"),
                new MaintenanceHold("loading synthetic data", "ops", now.plusSeconds(3600)),
                Duration.ZERO,
                Duration.ofMillis(100)));

        InvocationResult result = f.invoke("{\"kind\":\"replay\",\"job\":\"report\",\"from\":\"2026-11-28T00:00:00Z\","
                + "\"to\":\"2026-12-08T00:00:00Z\",\"max\":10}");

        assertThat(result.occurrences())
                .hasSize(10)
                .allSatisfy(o -> assertThat(o.reason()).isEqualTo(Reason.MAINTENANCE));
        assertThat(result.notRun())
                .as("the refused occurrence and the nine after it")
                .isEqualTo(10);
        assertThat(result.stoppedBy()).contains(Reason.MAINTENANCE);
        assertThat(f.ran).isEmpty();
    }

    @Test
    void replay_stoppedByAFailure_countsTheFailedOccurrenceAndTheOnesAfterItAsLeft() {
        RuntimeFixture f = dev(REPORT_AT);

        InvocationResult result =
                f.invoke("{\"kind\":\"replay\",\"job\":\"exploder\",\"from\":\"2026-11-30T12:00:00Z\","
                        + "\"to\":\"2026-11-30T13:00:00Z\"}");

        assertThat(result.occurrences())
                .extracting(OccurrenceReport::reason)
                .containsExactly(Reason.JOB_ERROR, Reason.EARLIER_FAILED, Reason.EARLIER_FAILED, Reason.EARLIER_FAILED);
        assertThat(result.notRun())
                .as("the failed occurrence, to be retried, and the three left behind it")
                .isEqualTo(4);
        assertThat(f.ran).containsExactly("exploder@2026-11-30T12:00:00Z");
    }

    @Test
    void replay_outOfTime_countsTheOccurrencesItDidNotReachAsLeft() {
        RuntimeFixture f = dev(REPORT_AT);

        InvocationResult result = f.runtime.handle(
                "{\"kind\":\"replay\",\"job\":\"report-free\",\"from\":\"2026-11-30T12:00:00Z\","
                        + "\"to\":\"2026-11-30T13:00:00Z\"}",
                Deadline.fromRemaining(REPORT_AT, Duration.ofSeconds(4)),
                f.log());

        assertThat(result.occurrences())
                .hasSize(4)
                .allSatisfy(o -> assertThat(o.reason()).isEqualTo(Reason.DEADLINE));
        assertThat(result.notRun()).isEqualTo(4);
        assertThat(f.ran).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"kind\":\"run\",\"job\":\"report-free\",\"dryrun\":true}                    | dryrun   | did you mean dry_run?",
                "{\"kind\":\"run\",\"job\":\"report-free\",\"dry-run\":true}                   | dry-run  | did you mean dry_run?",
                "{\"kind\":\"run\",\"job\":\"report-free\",\"DryRun\":true}                    | DryRun   | did you mean dry_run?",
                "{\"kind\":\"run\",\"job\":\"report-free\",\"forse\":true}                     | forse    | did you mean force?",
                "{\"kind\":\"replay\",\"job\":\"report-free\",\"from\":\"2026-11-30T12:00:00Z\",\"to\":\"2026-11-30T13:00:00Z\",\"dryrun\":true} | dryrun | did you mean dry_run?",
                "{\"kind\":\"replay\",\"job\":\"report-free\",\"from\":\"2026-11-30T12:00:00Z\",\"to\":\"2026-11-30T13:00:00Z\",\"maximum\":2} | maximum | accepted: kind, job, from, to, max, dry_run",
                "{\"kind\":\"scheduled\",\"job\":\"report-free\",\"scheduled_time\":\"2026-11-30T13:45:00Z\",\"scheduledtime\":\"2026-11-30T13:30:00Z\"} | scheduledtime | did you mean scheduled_time?",
                "{\"kind\":\"ping\",\"job\":\"report-free\"}                                      | job      | accepted: kind",
            })
    void payload_withAFieldItsKindDoesNotHave_isRefusedNamingTheField_andRunsNothing(
            String payload, String field, String expected) {
        RuntimeFixture f = dev(REPORT_AT);

        InvocationResult result = f.invoke(payload.strip());

        assertThat(result.error()).hasValueSatisfying(e -> {
            assertThat(e.code()).isEqualTo("UNKNOWN_FIELD");
            assertThat(e.field()).isEqualTo(field);
            assertThat(e.message()).contains("'" + field + "'", expected);
        });
        assertThat(result.occurrences()).isEmpty();
        assertThat(f.ran).isEmpty();
        assertThat(f.ledger.cursor("report-free")).isEmpty();
    }

    @Test
    void scheduledDelivery_underTheOldCamelCaseFieldNames_runsAsUnderTheNewOnes_andWarnsNamingThem() {
        RuntimeFixture f = dev(REPORT_AT.plusSeconds(30));

        InvocationResult result = f.invoke("{\"kind\":\"scheduled\",\"job\":\"report\",\"scheduledTime\":\""
                + REPORT_AT + "\",\"executionId\":\"e-1\",\"attemptNumber\":\"1\","
                + "\"scheduleArn\":\"arn:aws:scheduler:us-east-1:123456789012:schedule/punctual-dev/report\"}");

        assertThat(result.error()).isEmpty();
        assertThat(result.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.occurrence()).isEqualTo(REPORT_AT);
            assertThat(o.trigger()).isEqualTo(Trigger.SCHEDULED);
            assertThat(o.verdict()).isEqualTo(Verdict.PASS);
        });
        assertThat(warnings(f, "payload uses renamed fields")).singleElement().satisfies(w -> {
            assertThat(w.path("old_fields").toString())
                    .isEqualTo("[\"scheduledTime\",\"executionId\",\"attemptNumber\",\"scheduleArn\"]");
            assertThat(w.path("new_fields").toString())
                    .isEqualTo("[\"scheduled_time\",\"execution_id\",\"attempt_number\",\"schedule_arn\"]");
            assertThat(w.path("refused_from").asText()).isEqualTo(RenamedFields.REFUSED_FROM);
        });
    }

    @Test
    void manualRun_withTheOldDryRunName_isStillADryRun_neverARealRun() {
        RuntimeFixture f = dev(REPORT_AT.plusSeconds(3600));

        InvocationResult result = f.invoke("{\"kind\":\"run\",\"job\":\"report\",\"dryRun\":true}");

        assertThat(result.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.DRY_RUN));
        assertThat(f.ran).isEmpty();
        assertThat(f.ledger.run(new RunKey("report", REPORT_AT))).isEmpty();
    }

    @Test
    void payload_withTheNewNameOnly_logsNoRenameWarning() {
        RuntimeFixture f = dev(REPORT_AT.plusSeconds(3600));

        f.invoke("{\"kind\":\"run\",\"job\":\"report\",\"dry_run\":true}");

        assertThat(warnings(f, "payload uses renamed fields")).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"kind\":\"run\",\"job\":\"report\",\"dry_run\":false,\"dryRun\":true} | dry_run | dryRun",
                "{\"kind\":\"scheduled\",\"job\":\"report\",\"scheduledTime\":\"2026-11-30T14:00:00Z\",\"scheduled_time\":\"2026-11-30T13:00:00Z\"} | scheduled_time | scheduledTime",
            })
    void payload_withAFieldUnderItsOldAndItsNewName_isRefused_namingBoth_andRunsNothing(
            String payload, String field, String old) {
        RuntimeFixture f = dev(REPORT_AT.plusSeconds(3600));

        InvocationResult result = f.invoke(payload.strip());

        assertThat(result.error()).hasValueSatisfying(e -> {
            assertThat(e.code()).isEqualTo("DUPLICATE_FIELD");
            assertThat(e.field()).isEqualTo(field);
            assertThat(e.message()).contains("'" + field + "'", "'" + old + "'", "give it once, as " + field);
        });
        assertThat(result.occurrences()).isEmpty();
        assertThat(f.ran).isEmpty();
        assertThat(f.ledger.cursor("report")).isEmpty();
    }

    private static List<com.fasterxml.jackson.databind.JsonNode> warnings(RuntimeFixture f, String message) {
        List<com.fasterxml.jackson.databind.JsonNode> found = new ArrayList<>();
        for (String line : f.lines) {
            try {
                com.fasterxml.jackson.databind.JsonNode node = RuntimeFixture.JSON.readTree(line);
                if (message.equals(node.path("message").asText())) {
                    found.add(node);
                }
            } catch (IOException e) {
                throw new AssertionError("log line is not JSON: " + line, e);
            }
        }
        return found;
    }

    @Test
    void ping_touchesNothing() {
        RuntimeFixture f = dev(REPORT_AT);

        InvocationResult result = f.invoke("{\"kind\":\"ping\"}");

        assertThat(result.valid()).isTrue();
        assertThat(result.occurrences()).isEmpty();
        assertThat(f.ran).isEmpty();
    }
}
