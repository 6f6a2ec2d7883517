package dev.punctual.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.ledger.MutableClock;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.observability.Verdict;
import dev.punctual.stage.StageFlags;
import java.time.Instant;
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
                "{\"kind\":\"scheduled\",\"job\":\"nope\",\"scheduledTime\":\"2026-11-30T14:00:00Z\"} | UNKNOWN_JOB | job",
                "{\"kind\":\"scheduled\",\"job\":\"report\"}                     | MISSING_FIELD | scheduledTime",
                "{\"kind\":\"scheduled\",\"job\":\"report\",\"scheduledTime\":\"yesterday\"} | BAD_TIME | scheduledTime",
                "{\"kind\":\"scheduled\",\"job\":7,\"scheduledTime\":\"2026-11-30T14:00:00Z\"} | WRONG_TYPE | job",
                "{\"kind\":\"scheduled\",\"job\":\"report\",\"scheduledTime\":\"2026-11-30T14:00:00Z\",\"attemptNumber\":\"x\"} | WRONG_TYPE | attemptNumber",
                "{\"kind\":\"run\",\"job\":\"report\",\"force\":\"yes\"}         | WRONG_TYPE    | force",
                "{\"kind\":\"run\",\"job\":\"report\",\"at\":\"2026-11-30T14:01:00Z\"} | NOT_AN_OCCURRENCE | at",
                "{\"kind\":\"run\",\"job\":\"report\",\"at\":\"2026-11-30T13:00:00Z\"} | NOT_AN_OCCURRENCE | at",
                "{\"kind\":\"replay\",\"job\":\"report\",\"from\":\"2026-11-30T00:00:00Z\",\"to\":\"2026-11-29T00:00:00Z\"} | BAD_RANGE | to",
                "{\"kind\":\"replay\",\"job\":\"report\",\"from\":\"2026-11-20T00:00:00Z\",\"to\":\"2026-11-29T00:00:00Z\",\"max\":5000} | BAD_RANGE | max",
                "{\"kind\":\"run\",\"job\":\"report\",\"at\":\"2026-12-30T14:00:00Z\"} | NOT_DUE | at",
                "{\"kind\":\"scheduled\",\"job\":\"report\",\"scheduledTime\":\"2026-11-30T14:07:00Z\"} | NOT_AN_OCCURRENCE | scheduledTime",
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

    /**
     * Only a scheduler's delivery that may really be late is recorded as a NOT_AN_OCCURRENCE skip: a
     * time in the future, one older than the two retry layers can deliver, or a payload without the
     * scheduler's context attributes is refused as before, and nothing is written for it.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "in the future                         | 2026-11-30T14:07:00Z | true  | after now",
                "older than 30 h of retries            | 2026-11-29T07:59:00Z | true  | older than",
                "without executionId and scheduleArn   | 2026-11-30T13:00:00Z | false | executionId",
            })
    void scheduledNonOccurrence_thatCannotBeALateDelivery_isRefused_andWritesNothing(
            String why, Instant at, boolean fromScheduler, String explanation) {
        RuntimeFixture f = dev(REPORT_AT);
        String payload = fromScheduler
                ? RuntimeFixture.scheduled("report", at)
                : "{\"kind\":\"scheduled\",\"job\":\"report\",\"scheduledTime\":\"" + at + "\"}";

        InvocationResult result = f.invoke(payload);

        assertThat(result.error()).hasValueSatisfying(e -> {
            assertThat(e.code()).isEqualTo("NOT_AN_OCCURRENCE");
            assertThat(e.field()).isEqualTo("scheduledTime");
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
        Instant oldest = REPORT_AT.minus(java.time.Duration.ofHours(30));

        InvocationResult result = f.invoke(RuntimeFixture.scheduled("report", oldest));

        assertThat(result.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reasons.NOT_AN_OCCURRENCE));
        assertThat(f.ledger.run(new RunKey("report", oldest))).isPresent();
    }

    @Test
    void manualRun_withoutAt_runsTheLatestDueOccurrence_asManual() {
        RuntimeFixture f = dev(REPORT_AT.plusSeconds(3600));

        InvocationResult result = f.invoke("{\"kind\":\"run\",\"job\":\"report\"}");

        assertThat(result.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.occurrence()).isEqualTo(REPORT_AT);
            assertThat(o.trigger()).isEqualTo(dev.punctual.ledger.Trigger.MANUAL);
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
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reasons.ALREADY_DONE));
        assertThat(forced.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.verdict()).isEqualTo(Verdict.PASS));
        assertThat(f.ran).hasSize(2);
    }

    @Test
    void replay_dryRun_listsTheOccurrencesAndWritesNothing() {
        RuntimeFixture f = dev(REPORT_AT.plusSeconds(86_400 * 3));

        InvocationResult result = f.invoke("{\"kind\":\"replay\",\"job\":\"report\",\"from\":\"2026-11-28T00:00:00Z\","
                + "\"to\":\"2026-12-01T00:00:00Z\",\"dryRun\":true}");

        assertThat(result.occurrences())
                .extracting(o -> o.occurrence().toString())
                .containsExactly("2026-11-28T14:00:00Z", "2026-11-29T14:00:00Z", "2026-11-30T14:00:00Z");
        assertThat(result.occurrences()).allSatisfy(o -> assertThat(o.reason()).isEqualTo(Reasons.DRY_RUN));
        assertThat(f.ran).isEmpty();
        assertThat(f.ledger.cursor("report")).isEmpty();
    }

    @Test
    void replay_runsTheRangeOldestFirst_andRepeatingItSkipsWhatIsDone() {
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
                .extracting(OccurrenceReport::reason)
                .containsExactly(Reasons.ALREADY_DONE, Reasons.ALREADY_DONE);
        assertThat(f.ran).containsExactly("report@2026-11-28T14:00:00Z", "report@2026-11-29T14:00:00Z");
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
