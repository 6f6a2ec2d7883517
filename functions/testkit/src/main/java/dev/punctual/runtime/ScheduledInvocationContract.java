package dev.punctual.runtime;

import static dev.punctual.runtime.RuntimeFixture.scheduled;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.punctual.events.LifecycleEvent;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.MaintenanceHold;
import dev.punctual.ledger.MaintenanceRequest;
import dev.punctual.ledger.Outcome;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.Trigger;
import dev.punctual.ledger.testkit.MutableClock;
import dev.punctual.outcome.Reason;
import dev.punctual.outcome.Verdict;
import dev.punctual.stage.StageFlags;
import dev.punctual.time.OccurrenceCalculator;
import dev.punctual.time.Schedule;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

public abstract class ScheduledInvocationContract {

    /**
     * The ledger the runtime runs on, on the fixture's clock (which is also its sleeper): the in-memory
     * one here, DynamoDB through the emulator in the aws module, any future store in its own.
     */
    protected abstract RunLedger ledger(MutableClock clock);

    private RuntimeFixture dev(Instant start) {
        return new RuntimeFixture(start, StageFlags.defaultsFor("dev"), this::ledger);
    }

    private RuntimeFixture fixture(Instant start, StageFlags flags) {
        return new RuntimeFixture(start, flags, this::ledger);
    }

    /** The fixture's clock only moves forward: late deliveries arrive after their scheduled time. */
    private static void moveClockTo(RuntimeFixture f, Instant to) {
        assertThat(to).isAfterOrEqualTo(f.clock.peek());
        f.clock.advance(Duration.between(f.clock.peek(), to));
    }

    /** 09:00 in New York on 2026-11-30 (EST, UTC-5). */
    private static final Instant REPORT_AT = Instant.parse("2026-11-30T14:00:00Z");

    @Test
    void scheduled_followingTheCursor_runsOnce_recordsSuccess_andWritesOneOutcomeLine() {
        RuntimeFixture f = dev(REPORT_AT.plusSeconds(2));

        InvocationResult result = f.invoke(scheduled("report", REPORT_AT));

        assertThat(result.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.verdict()).isEqualTo(Verdict.PASS);
            assertThat(o.reason()).isEqualTo(Reason.OK);
            assertThat(o.fence()).isNotNull();
        });
        assertThat(f.ran).containsExactly("report@" + REPORT_AT);
        assertThat(f.ledger.cursor("report")).contains(REPORT_AT);
        assertThat(f.ledger.run(new RunKey("report", REPORT_AT)))
                .hasValueSatisfying(r -> assertThat(r.status()).isEqualTo(RunStatus.SUCCEEDED));
        JsonNode line = f.outcomeLines().get(0);
        assertThat(line.get("occurrence_local").asText()).isEqualTo("2026-11-30T09:00:00-05:00");
        assertThat(line.get("lateness_ms").asLong()).isEqualTo(2000);
        assertThat(line.get("Pass").asInt()).isEqualTo(1);
        assertThat(f.events).singleElement().isInstanceOf(LifecycleEvent.RunSucceeded.class);
    }

    @Test
    void scheduled_pass_carriesTheJobsResultAsAnObjectOnTheOutcomeLine_andADuplicatesLineCarriesNone() {
        RuntimeFixture f = dev(REPORT_AT.plusSeconds(2));

        f.invoke(scheduled("report", REPORT_AT));
        f.invoke(scheduled("report", REPORT_AT));

        List<JsonNode> lines = f.outcomeLines();
        assertThat(lines.get(0).get("result").isObject()).isTrue();
        assertThat(lines.get(0).get("result").get("rows").asInt()).isEqualTo(3);
        assertThat(lines.get(0).get("result").get("date").asText()).isEqualTo("2026-11-30");
        assertThat(lines.get(1).get("reason").asText()).isEqualTo("ALREADY_DONE");
        assertThat(lines.get(1).get("result").isObject()).isTrue();
        assertThat(lines.get(1).get("result").isEmpty()).isTrue();
    }

    @Test
    void scheduled_passWithASecretAndAnOversizedResult_masksTheSecret_andCutsTheResultWithAMarker() {
        Instant at = Instant.parse("2026-11-30T14:00:00Z");
        RuntimeFixture f = dev(at.plusSeconds(1));

        f.invoke(scheduled("verbose", at));

        JsonNode result = f.outcomeLines().get(0).get("result");
        assertThat(result.get("api_token").asText()).isEqualTo("[REDACTED]");
        assertThat(result.get("batches").get(1).asInt()).isEqualTo(2);
        assertThat(result.get("notes").asText()).hasSize(1500);
        // "remarks" would take the object past the cap: it and every key after it are left out, counted.
        assertThat(result.has("remarks")).isFalse();
        assertThat(result.has("rows")).isFalse();
        assertThat(result.get("_truncated").asInt()).isEqualTo(2);
        assertThat(result.toString().length()).isLessThanOrEqualTo(ResultSummary.MAX_CHARS);
        assertThat(f.lines).noneSatisfy(line -> assertThat(line).contains("tok-123456"));
    }

    /**
     * Personal data a job puts in its own log line, its result or its error is masked by kind wherever it
     * lands: the job's log line, the outcome line, the run item and the lifecycle event (issue 24, item 10).
     */
    @Test
    void personalDataInAJobsLogResultAndError_isMaskedByKind_inTheLinesTheRunItemAndTheEvent() {
        Instant passing = Instant.parse("2026-11-30T14:30:00Z");
        Instant failing = Instant.parse("2026-11-30T14:45:00Z");
        RuntimeFixture f = dev(failing.plusSeconds(1));

        f.invoke(scheduled("contact", passing));
        f.invoke(scheduled("bouncer", failing));

        String everything = String.join("\n", f.lines)
                + f.ledger.run(new RunKey("contact", passing)).orElseThrow()
                + f.ledger.run(new RunKey("bouncer", failing)).orElseThrow()
                + f.events.stream().map(e -> e.detail().toString()).toList();
        assertThat(everything)
                .doesNotContain("bob@example.com", "1234-5678", "4111 1111", RuntimeFixture.PUSH_TOKEN)
                .contains("[email]", "[phone]", "[card]", "[push-token]");
        assertThat(f.outcomeLines().get(0).at("/result/note").asText())
                .isEqualTo("charged [card], pushed to [push-token]");
        assertThat(f.ledger.run(new RunKey("bouncer", failing)).orElseThrow().errorSummary())
                .isEqualTo("IllegalStateException: SMTP 550: no mailbox [email]; SMS to [phone]");
        assertThat(f.events)
                .filteredOn(LifecycleEvent.RunFailed.class::isInstance)
                .singleElement()
                .satisfies(e -> assertThat(e.detail().get("error").toString()).contains("[email]", "[phone]"));
    }

    @Test
    void scheduled_failure_carriesAnEmptyResultOnTheOutcomeLine() {
        Instant at = Instant.parse("2026-11-30T14:00:00Z");
        RuntimeFixture f = dev(at.plusSeconds(1));

        f.invoke(scheduled("exploder", at));

        JsonNode line = f.outcomeLines().get(0);
        assertThat(line.get("outcome").asText()).isEqualTo("FAIL");
        assertThat(line.get("result").isObject()).isTrue();
        assertThat(line.get("result").isEmpty()).isTrue();
    }

    @Test
    void scheduled_duplicateDeliveryOfASucceededOccurrence_isSkippedAsAlreadyDone_andRunsNothing() {
        RuntimeFixture f = dev(REPORT_AT.plusSeconds(2));
        f.invoke(scheduled("report", REPORT_AT));

        InvocationResult duplicate = f.invoke(scheduled("report", REPORT_AT));

        assertThat(duplicate.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.verdict()).isEqualTo(Verdict.SKIP);
            assertThat(o.reason()).isEqualTo(Reason.ALREADY_DONE);
        });
        assertThat(f.ran).hasSize(1);
    }

    @Test
    void scheduled_afterAnOutage_replaysTheNewestAllowedOldestFirst_andRecordsTheRestAsOneMissedRange() {
        Instant first = Instant.parse("2026-11-30T00:00:00Z");
        RuntimeFixture f = dev(first);
        f.invoke(scheduled("expire", first));
        Instant trigger = first.plus(Duration.ofHours(3));
        f.clock.advance(Duration.ofHours(3));

        InvocationResult result = f.invoke(scheduled("expire", trigger));

        assertThat(result.occurrences())
                .extracting(OccurrenceReport::occurrence)
                .containsExactly(
                        trigger.minus(Duration.ofMinutes(45)),
                        trigger.minus(Duration.ofMinutes(30)),
                        trigger.minus(Duration.ofMinutes(15)),
                        trigger);
        assertThat(result.occurrences()).allSatisfy(o -> assertThat(o.verdict()).isEqualTo(Verdict.PASS));
        assertThat(result.missed()).hasValueSatisfying(m -> {
            assertThat(m.first()).isEqualTo(first.plus(Duration.ofMinutes(15)));
            assertThat(m.last()).isEqualTo(trigger.minus(Duration.ofMinutes(60)));
            assertThat(m.count()).isEqualTo(8);
        });
        assertThat(f.events)
                .filteredOn(LifecycleEvent.OccurrencesMissed.class::isInstance)
                .hasSize(1);
        assertThat(f.ledger.cursor("expire")).contains(trigger);
        assertThat(f.outcomeLines()).last().satisfies(line -> {
            assertThat(line.get("catch_up_count").asInt()).isEqualTo(3);
            assertThat(line.get("missed_count").asInt()).isEqualTo(8);
        });
    }

    @Test
    void destructiveJob_inDev_isRefusedBeforeItStarts_andTheSkipIsRecorded() {
        Instant sunday = Instant.parse("2026-11-29T02:00:00Z"); // 03:00 in Berlin (CET)
        RuntimeFixture f = dev(sunday);

        InvocationResult result = f.invoke(scheduled("purge", sunday));

        assertThat(result.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.verdict()).isEqualTo(Verdict.SKIP);
            assertThat(o.reason()).isEqualTo(Reason.DESTRUCTIVE_DISABLED);
        });
        assertThat(f.ran).isEmpty();
        assertThat(f.ledger.run(new RunKey("purge", sunday)))
                .hasValueSatisfying(r -> assertThat(r.status()).isEqualTo(RunStatus.SKIPPED));
    }

    @Test
    void destructiveJob_inProd_runs() {
        Instant sunday = Instant.parse("2026-11-29T02:00:00Z");
        RuntimeFixture f = fixture(sunday, StageFlags.defaultsFor("prod"));

        assertThat(f.invoke(scheduled("purge", sunday)).occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.verdict()).isEqualTo(Verdict.PASS));
    }

    @Test
    void scheduled_whileMaintenanceHoldsTheGroup_recordsAMaintenanceSkip_andRunsNothing() {
        RuntimeFixture f = dev(REPORT_AT);
        f.ledger.maintenanceOn(new MaintenanceRequest(
                List.of("report"),
                new MaintenanceHold("loading synthetic data", "ops@example.com", REPORT_AT.plus(Duration.ofHours(1))),
                Duration.ZERO,
                Duration.ofMillis(100)));

        InvocationResult result = f.invoke(scheduled("report", REPORT_AT));

        assertThat(result.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.reason()).isEqualTo(Reason.MAINTENANCE);
            assertThat(o.detail()).isEqualTo("loading synthetic data");
        });
        assertThat(f.ran).isEmpty();
        assertThat(f.outcomeLines().get(0).get("detail").asText()).isEqualTo("loading synthetic data");
    }

    @Test
    void scheduled_whileAHoldWrittenWithANewlineAndASecretHoldsTheGroup_recordsItsSkipDetailOnOneLine_redacted() {
        RuntimeFixture f = dev(REPORT_AT);
        f.ledger.maintenanceOn(new MaintenanceRequest(
                List.of("report"),
                // A word after the secret: the redactor masks a value up to the next space, so an escape glued
                // to it would be masked with it (safe, but not the point here).
                new MaintenanceHold(
                        "rotating password=hunter2 now\n2026-11-30T14:00:00Z PASS report \u001B[32mOK\u202E",
                        "ops",
                        REPORT_AT.plus(Duration.ofHours(1))),
                Duration.ZERO,
                Duration.ofMillis(100)));

        InvocationResult result = f.invoke(scheduled("report", REPORT_AT));

        String shown = "rotating password=[REDACTED] now\\u000A2026-11-30T14:00:00Z PASS report \\u001B[32mOK\\u202E";
        assertThat(result.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.reason()).isEqualTo(Reason.MAINTENANCE);
            assertThat(o.detail()).isEqualTo(shown);
        });
        assertThat(f.outcomeLines().get(0).get("detail").asText()).isEqualTo(shown);
        assertThat(f.ledger.run(new RunKey("report", REPORT_AT)).orElseThrow().reason())
                .isEqualTo("MAINTENANCE: " + shown);
        assertThat(f.ran).isEmpty();
    }

    @Test
    void sharedLockGroup_heldByAnotherJobPastTheLockWait_theScheduledDeliveryWaitsWithinItsInvocation_andRuns() {
        Instant at = Instant.parse("2026-11-30T01:00:00Z");
        RuntimeFixture f = dev(at);
        // expire, due the same minute, holds the group for 90 s (longer than the 5 s lock wait).
        f.ledger.claim(ClaimRequest.scheduled(new RunKey("expire", at), 1, 3, at.plusSeconds(90))
                .inGroup("reservations"));

        InvocationResult result = f.invoke(scheduled("refund", at));

        assertThat(result.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.verdict()).isEqualTo(Verdict.PASS);
            assertThat(o.fence()).isEqualTo(2L);
        });
        assertThat(f.ran).containsExactly("refund@" + at);
        assertThat(f.clock.peek())
                .isAfterOrEqualTo(at.plusSeconds(90))
                .isBefore(at.plusSeconds(90).plus(OccurrenceRunner.SIBLING_POLL).plusSeconds(1));
    }

    @Test
    void sharedLockGroup_waitLongerThanTheLeaseTerm_theClaimAfterTheWaitGetsAFullTerm_andRuns() {
        Instant at = Instant.parse("2026-11-30T01:00:00Z");
        RuntimeFixture f = dev(at);
        // expire holds the group for 90 s; refund's leases last 60 s each: a lease asked for before the
        // wait would be over by the time the group frees.
        f.ledger.claim(ClaimRequest.scheduled(new RunKey("expire", at), 1, 3, at.plusSeconds(90))
                .inGroup("reservations"));

        InvocationResult result =
                f.runtime.handle(scheduled("refund", at), f.deadline().withLeaseTerm(Duration.ofMinutes(1)), f.log());

        assertThat(result.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.verdict()).isEqualTo(Verdict.PASS);
            assertThat(o.fence()).isEqualTo(2L);
        });
        assertThat(f.ran).containsExactly("refund@" + at);
    }

    @Test
    void catalogOrder_laterJobDeliveredFirst_waitsForTheEarlierJobsDelivery_thenRunsWithoutIt() {
        // 10:00 in Seoul: expire (*/15) and refund (hourly) of the reservations group are both due, and
        // expire comes first in the catalog. Its delivery never arrives here.
        Instant at = Instant.parse("2026-11-30T01:00:00Z");
        RuntimeFixture f = dev(at);

        InvocationResult result = f.invoke(scheduled("refund", at));

        assertThat(result.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.verdict()).isEqualTo(Verdict.PASS));
        assertThat(f.ran).containsExactly("refund@" + at);
        assertThat(f.clock.peek())
                .as("waited for expire's delivery, then went ahead")
                .isAfterOrEqualTo(at.plus(CatalogOrder.ARRIVAL_GRACE))
                .isBefore(at.plus(CatalogOrder.ARRIVAL_GRACE).plus(OccurrenceRunner.SIBLING_POLL));
    }

    @Test
    void catalogOrder_earlierJobAlreadyRan_laterJobRunsAtOnce() {
        Instant at = Instant.parse("2026-11-30T01:00:00Z");
        RuntimeFixture f = dev(at);

        f.invoke(scheduled("expire", at));
        InvocationResult refund = f.invoke(scheduled("refund", at));

        assertThat(refund.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.verdict()).isEqualTo(Verdict.PASS));
        assertThat(f.ran).containsExactly("expire@" + at, "refund@" + at);
        assertThat(f.clock.peek()).isBefore(at.plus(OccurrenceRunner.SIBLING_POLL));
    }

    @Test
    void catalogOrder_earlierJobDeliveredFirst_doesNotWaitForTheLaterOne() {
        Instant at = Instant.parse("2026-11-30T01:00:00Z");
        RuntimeFixture f = dev(at);

        f.invoke(scheduled("expire", at));

        assertThat(f.ran).containsExactly("expire@" + at);
        assertThat(f.clock.peek()).isBefore(at.plus(OccurrenceRunner.SIBLING_POLL));
    }

    @Test
    void manualRun_inASharedGroupHeldByAnotherJob_isRefusedLockBusyAfterTheLockWaitOnly() {
        Instant at = Instant.parse("2026-11-30T01:00:00Z");
        RuntimeFixture f = dev(at.plusSeconds(60));
        f.ledger.claim(ClaimRequest.scheduled(new RunKey("expire", at), 1, 3, at.plus(Duration.ofMinutes(4)))
                .inGroup("reservations"));

        InvocationResult result = f.invoke("{\"kind\":\"run\",\"job\":\"refund\",\"at\":\"" + at + "\"}");

        assertThat(result.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.LOCK_BUSY));
        assertThat(f.clock.peek())
                .isBefore(at.plusSeconds(60).plus(StageFlags.DEFAULT_LOCK_WAIT).plusSeconds(1));
    }

    @Test
    void sharedLockGroup_heldPastTheDeliverysOwnDeadline_givesLockBusy_afterWaitingOnTheMovedClock() {
        Instant at = Instant.parse("2026-11-30T01:00:00Z");
        RuntimeFixture f = dev(at);
        // Another job of the group holds it past the lock wait.
        f.ledger.claim(ClaimRequest.scheduled(new RunKey("expire", at), 1, 3, at.plus(Duration.ofMinutes(5)))
                .inGroup("reservations"));

        InvocationResult result = f.invoke(scheduled("refund", at));

        assertThat(result.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.LOCK_BUSY));
        assertThat(f.clock.peek())
                .isAfterOrEqualTo(at.plus(StageFlags.DEFAULT_LOCK_WAIT).minusMillis(250));
        assertThat(f.ran).isEmpty();
        assertThat(f.outcomeLines().get(0).get("LockBusy").asInt()).isEqualTo(1);
    }

    @Test
    void jobError_failsTheOccurrence_leavesLaterOnesClaimable_andNeverLogsTheSecret() {
        Instant first = Instant.parse("2026-11-30T00:00:00Z");
        RuntimeFixture f = dev(first);
        f.ledger.recordMissed(
                new RunKey("exploder", first.minus(Duration.ofMinutes(15))), first.minus(Duration.ofMinutes(15)), 1);
        Instant trigger = first.plus(Duration.ofMinutes(15));
        f.clock.advance(Duration.ofMinutes(15));

        InvocationResult result = f.invoke(scheduled("exploder", trigger));

        assertThat(result.occurrences())
                .extracting(OccurrenceReport::reason)
                .containsExactly(Reason.JOB_ERROR, Reason.EARLIER_FAILED);
        assertThat(f.ran).containsExactly("exploder@" + first);
        assertThat(String.join("\n", f.lines)).doesNotContain("hunter2-secret").contains("IllegalStateException");
        assertThat(f.ledger.run(new RunKey("exploder", first))).hasValueSatisfying(r -> {
            assertThat(r.status()).isEqualTo(RunStatus.FAILED);
            assertThat(r.errorSummary()).doesNotContain("hunter2-secret");
        });
        assertThat(f.events)
                .filteredOn(LifecycleEvent.RunFailed.class::isInstance)
                .hasSize(1);
    }

    @Test
    void scheduled_whenTheStagesSchedulesAreOff_recordsASkip() {
        RuntimeFixture f = fixture(REPORT_AT, new StageFlags("dev", false, false, false, Duration.ofSeconds(5)));

        assertThat(f.invoke(scheduled("report", REPORT_AT)).occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.SCHEDULES_DISABLED));
        assertThat(f.ran).isEmpty();
    }

    @Test
    void reminder_inDev_hasItsDeliverySuppressedAndLogged_butPasses() {
        Instant at = Instant.parse("2026-11-30T09:00:00Z"); // 18:00 in Seoul
        RuntimeFixture f = dev(at);

        InvocationResult result = f.invoke(scheduled("remind", at));

        assertThat(result.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.verdict()).isEqualTo(Verdict.PASS);
            assertThat(o.result().toString()).contains("Suppressed");
        });
        assertThat(f.sent).isEmpty();
        assertThat(f.lines).anySatisfy(line -> assertThat(line).contains("external delivery suppressed"));
        assertThat(f.lines)
                .as("the recipient and the subject are personal data; no line carries them")
                .allSatisfy(line -> assertThat(line).doesNotContain("member-1", "Tomorrow"));
        assertThat(ResultJson.render(result)).doesNotContain("member-1", "Tomorrow");
    }

    @Test
    void reminder_inProd_sendsThroughTheRealPort() {
        Instant at = Instant.parse("2026-11-30T09:00:00Z");
        RuntimeFixture f = fixture(at, StageFlags.defaultsFor("prod"));

        f.invoke(scheduled("remind", at));

        assertThat(f.sent)
                .singleElement()
                .satisfies(m -> assertThat(m.recipient()).isEqualTo("member-1"));
    }

    @Test
    void scheduled_withTooLittleTimeLeft_startsNothing_andLeavesTheOccurrenceClaimable() {
        RuntimeFixture f = dev(REPORT_AT);

        InvocationResult result = f.runtime.handle(
                scheduled("report", REPORT_AT), Deadline.fromRemaining(REPORT_AT, Duration.ofSeconds(4)), f.log());

        assertThat(result.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.DEADLINE));
        assertThat(f.ran).isEmpty();
        assertThat(f.ledger.run(new RunKey("report", REPORT_AT))).isEmpty();
    }

    @Test
    void maintenanceDuringAGap_recordsOneSkipForTheDeliveredOccurrence_recordsNoMissedRange_andLeavesTheGapPending() {
        Instant first = Instant.parse("2026-11-30T00:00:00Z");
        RuntimeFixture f = dev(first);
        f.invoke(scheduled("expire", first));
        Instant trigger = first.plus(Duration.ofHours(2));
        f.clock.advance(Duration.ofHours(2));
        f.ledger.maintenanceOn(new MaintenanceRequest(
                List.of("reservations"),
                new MaintenanceHold("restore", "ops", trigger.plus(Duration.ofMinutes(10))),
                Duration.ZERO,
                Duration.ofMillis(100)));

        InvocationResult result = f.invoke(scheduled("expire", trigger));

        assertThat(result.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.occurrence()).isEqualTo(trigger);
            assertThat(o.reason()).isEqualTo(Reason.MAINTENANCE);
        });
        assertThat(result.missed()).isEmpty();
        assertThat(f.ledger.cursor("expire")).contains(first);
        assertThat(f.ran).containsExactly("expire@" + first);
    }

    @Test
    void jobOverrunningItsLease_isFenced_neverReportedAsSuccess() {
        Instant at = Instant.parse("2026-11-30T10:00:00Z");
        RuntimeFixture f = dev(at);

        InvocationResult result = f.invoke(scheduled("overrun", at));

        assertThat(result.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.verdict()).isEqualTo(Verdict.FAIL);
            assertThat(o.reason()).isEqualTo(Reason.FENCED);
        });
        assertThat(f.ledger.run(new RunKey("overrun", at)))
                .hasValueSatisfying(r -> assertThat(r.status()).isNotEqualTo(RunStatus.SUCCEEDED));
        assertThat(f.events).noneMatch(LifecycleEvent.RunSucceeded.class::isInstance);
    }

    @Test
    void claimWhoseWriteLandsAfterItsLeaseEnded_neverStartsTheJob_failsAsLeaseEnded_andTheRetryRunsIt() {
        // The claim's request is built at 14:00:00 with a one-minute lease and lands at 14:01:10 (the
        // SDK resending it on a slow network): the ledger grants a lease that is already over.
        RuntimeFixture f = new RuntimeFixture(
                REPORT_AT,
                StageFlags.defaultsFor("dev"),
                clock -> claimsLandingLate(ledger(clock), clock, Duration.ofSeconds(70)));

        InvocationResult late = f.runtime.handle(
                scheduled("report", REPORT_AT), f.deadline().withLeaseTerm(Duration.ofMinutes(1)), f.log());

        assertThat(late.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.verdict()).isEqualTo(Verdict.FAIL);
            assertThat(o.reason()).isEqualTo(Reason.LEASE_ENDED);
            assertThat(o.detail()).contains("the job was not started");
        });
        assertThat(f.ran).isEmpty();
        assertThat(f.ledger.run(new RunKey("report", REPORT_AT)))
                .hasValueSatisfying(r -> assertThat(r.status()).isEqualTo(RunStatus.FAILED));

        InvocationResult retry = f.invoke(scheduled("report", REPORT_AT));

        assertThat(retry.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.reason()).isEqualTo(Reason.OK);
            assertThat(o.fence()).isEqualTo(2L);
        });
        assertThat(f.ran).containsExactly("report@" + REPORT_AT);
    }

    /** The ledger, whose first claim lands {@code delay} after it was built, as a late-landing write does. */
    private static RunLedger claimsLandingLate(RunLedger ledger, MutableClock clock, Duration delay) {
        java.util.concurrent.atomic.AtomicBoolean delayed = new java.util.concurrent.atomic.AtomicBoolean();
        return (RunLedger) java.lang.reflect.Proxy.newProxyInstance(
                RunLedger.class.getClassLoader(), new Class<?>[] {RunLedger.class}, (proxy, method, args) -> {
                    if (method.getName().startsWith("claim") && delayed.compareAndSet(false, true)) {
                        clock.advance(delay);
                    }
                    try {
                        return method.invoke(ledger, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Test
    void longJob_underOneMinuteLeases_extendsBeforeEachStep_andSucceedsAfterFourMinutes() {
        Instant at = Instant.parse("2026-11-30T10:00:00Z");
        RuntimeFixture f = dev(at);

        InvocationResult result =
                f.runtime.handle(scheduled("marathon", at), f.deadline().withLeaseTerm(Duration.ofMinutes(1)), f.log());

        assertThat(result.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.verdict()).isEqualTo(Verdict.PASS);
            assertThat(o.reason()).isEqualTo(Reason.OK);
        });
        assertThat(f.clock.peek()).isEqualTo(at.plus(Duration.ofMinutes(4)));
        assertThat(f.ledger.run(new RunKey("marathon", at)))
                .hasValueSatisfying(r -> assertThat(r.status()).isEqualTo(RunStatus.SUCCEEDED));
        assertThat(f.ledger.lock("marathon").fence()).isEqualTo(1);
    }

    @Test
    void jobPollingShouldStop_stopsAtTheInvocationsDeadline_andCompletesInsideItsLease() {
        Instant at = Instant.parse("2026-11-30T10:00:00Z");
        RuntimeFixture f = dev(at);

        InvocationResult result = f.invoke(scheduled("stepper", at));

        // Five minutes left: shouldStop() turns true 2 s (Deadline.SAFETY) before the end, at 10:04:58. The
        // stepper polls before each 4 s step, so its last poll before that (10:04:56) lets one more step
        // run to 10:05:00: a job's step must be shorter than the safety margin to finish inside it.
        assertThat(result.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.verdict()).isEqualTo(Verdict.PASS);
            JsonNode summary = RuntimeFixture.JSON.valueToTree(o.result());
            assertThat(summary.get("steps").asInt()).isEqualTo(75);
            assertThat(summary.get("stopped_at").asText()).isEqualTo("2026-11-30T10:05:00Z");
            assertThat(summary.get("deadlines").asInt()).isEqualTo(1);
            assertThat(o.detail())
                    .as("a pass's summary is its result, never JSON in the detail")
                    .isNull();
        });
        // 75 polls under a lease that already lasts the whole invocation: not one heartbeat write.
        assertThat(f.extensions()).isZero();
    }

    @Test
    void jobPollingShouldStop_underAOneMinuteLease_isRenewedByTheRuntime_andRunsToTheInvocationsDeadline() {
        Instant at = Instant.parse("2026-11-30T10:00:00Z");
        RuntimeFixture f = dev(at);

        InvocationResult result =
                f.runtime.handle(scheduled("stepper", at), f.deadline().withLeaseTerm(Duration.ofMinutes(1)), f.log());

        // The stepper never extends; its polls renew the lease whenever less than half a term (30 s) is
        // left: at 10:00:32 to 10:01:32, then every 32 s (eight 4 s steps) a minute past the poll, until
        // a term would pass the invocation's own bound (10:05:02, five minutes plus the tolerance): the
        // eighth renewal (10:04:16) is capped there and no ninth is written. So the same 75 steps and
        // the same stop as under a whole-invocation lease, for eight fenced writes, one per renewal.
        // Renewals: every 32 s from the first lease's end (10:01:00) to the bound, rounded up.
        long renewals = (Duration.ofSeconds(302 - 60).toSeconds() + 31) / 32;
        assertThat(result.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.verdict()).isEqualTo(Verdict.PASS);
            JsonNode detail = RuntimeFixture.JSON.valueToTree(o.result());
            assertThat(detail.get("steps").asInt()).isEqualTo(75);
            assertThat(detail.get("stopped_at").asText()).isEqualTo("2026-11-30T10:05:00Z");
            assertThat(detail.get("deadlines").asLong()).isEqualTo(renewals + 1);
        });
        assertThat(f.extensions()).isEqualTo(renewals).isEqualTo(8);
        assertThat(f.ledger.lock("stepper").fence()).isEqualTo(1);
        assertThat(f.ledger.run(new RunKey("stepper", at)))
                .hasValueSatisfying(r -> assertThat(r.status()).isEqualTo(RunStatus.SUCCEEDED));
    }

    @Test
    void stuckJob_underAOneMinuteLease_neverPolling_isTakenOverAfterItsTerm_andFenced() {
        Instant at = Instant.parse("2026-11-30T10:00:00Z");
        RuntimeFixture f = dev(at);

        InvocationResult outer =
                f.runtime.handle(scheduled("stuck", at), f.deadline().withLeaseTerm(Duration.ofMinutes(1)), f.log());

        // Nothing renews a lease for a job that shows no sign of life: at 10:01:30 a successor takes
        // the group (fence 2) and runs the occurrence; the stuck runner's completion is refused.
        assertThat(f.nested)
                .singleElement()
                .satisfies(inner -> assertThat(inner.occurrences())
                        .singleElement()
                        .satisfies(o -> {
                            assertThat(o.verdict()).isEqualTo(Verdict.PASS);
                            assertThat(o.fence()).isEqualTo(2L);
                        }));
        assertThat(outer.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.verdict()).isEqualTo(Verdict.FAIL);
            assertThat(o.reason()).isEqualTo(Reason.FENCED);
        });
        assertThat(f.extensions()).isZero();
        assertThat(f.ledger.run(new RunKey("stuck", at)))
                .hasValueSatisfying(r -> assertThat(r.status()).isEqualTo(RunStatus.SUCCEEDED));
    }

    /**
     * The ledger, whose claims answer {@code late} after they were sent (an SDK resend, a slow network):
     * the claim's lease was computed when it was sent, so it comes back with that much less of its term.
     */
    private RunLedger answeringClaimsLate(MutableClock clock, Duration late) {
        RunLedger ledger = ledger(clock);
        return (RunLedger) java.lang.reflect.Proxy.newProxyInstance(
                RunLedger.class.getClassLoader(), new Class<?>[] {RunLedger.class}, (proxy, method, args) -> {
                    try {
                        Object answer = method.invoke(ledger, args);
                        if (method.getName().startsWith("claim")) {
                            clock.advance(late);
                        }
                        return answer;
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Test
    void claimAnsweredWithSecondsOfItsLeaseLeft_isRenewedBeforeTheJobStarts_soAJobThatNeverPollsCompletes() {
        Instant at = Instant.parse("2026-11-30T10:00:00Z");
        // A one-minute term (the CLI's for a one-minute pool) answered 55 s late: 3 s of working time left.
        RuntimeFixture f = new RuntimeFixture(
                at, StageFlags.defaultsFor("dev"), clock -> answeringClaimsLate(clock, Duration.ofSeconds(55)));

        InvocationResult result =
                f.runtime.handle(scheduled("unpolled", at), f.deadline().withLeaseTerm(Duration.ofMinutes(1)), f.log());

        // Before, the job started on those 3 s, worked 30 s without a poll, and its completion was fenced.
        assertThat(result.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.verdict()).isEqualTo(Verdict.PASS);
            assertThat(o.reason()).isEqualTo(Reason.OK);
        });
        assertThat(f.ran).containsExactly("unpolled@" + at);
        assertThat(f.extensions()).as("one renewal, before the job started").isEqualTo(1);
        assertThat(f.ledger.run(new RunKey("unpolled", at)))
                .hasValueSatisfying(r -> assertThat(r.status()).isEqualTo(RunStatus.SUCCEEDED));
    }

    @Test
    void claimAnsweredWhenTheInvocationItselfHasSecondsLeft_isNotStarted_andLeftToARetry() {
        Instant at = Instant.parse("2026-11-30T10:00:00Z");
        // The invocation's own end bounds the lease: nothing can renew it, and 1 s is too little to start.
        RuntimeFixture f = new RuntimeFixture(
                at, StageFlags.defaultsFor("dev"), clock -> answeringClaimsLate(clock, Duration.ofSeconds(55)));
        Deadline shortInvocation = Deadline.fromRemaining(at, Duration.ofSeconds(58));

        InvocationResult result = f.runtime.handle(scheduled("unpolled", at), shortInvocation, f.log());

        assertThat(result.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.verdict()).isEqualTo(Verdict.FAIL);
            assertThat(o.reason()).isEqualTo(Reason.LEASE_ENDED);
        });
        assertThat(f.ran).as("the job was not started").isEmpty();
    }

    @Test
    void jobPollingAfterItsLeaseWasTakenOver_theRenewalIsRefused_shouldStopTurnsTrue_andItIsFenced() {
        Instant at = Instant.parse("2026-11-30T10:00:00Z");
        RuntimeFixture f = dev(at);

        InvocationResult outer =
                f.runtime.handle(scheduled("lapsed", at), f.deadline().withLeaseTerm(Duration.ofMinutes(1)), f.log());

        // First poll at 10:00:00 (a full term left: no write); the next at 10:01:30, after a successor
        // took the group: the renewal is the one write, refused by the fence, and shouldStop() says so.
        assertThat(f.ran).containsExactly("lapsed@" + at, "lapsed@" + at, "lapsed shouldStop=false,true");
        assertThat(f.extensions()).isEqualTo(1);
        assertThat(outer.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.verdict()).isEqualTo(Verdict.FAIL);
            assertThat(o.reason()).isEqualTo(Reason.FENCED);
        });
        assertThat(f.ledger.lock("lapsed").fence()).isEqualTo(2);
    }

    @Test
    void jobWhoseLeaseWasTakenOver_isRefusedTheHeartbeat_toldToStop_andFenced() {
        Instant at = Instant.parse("2026-11-30T10:00:00Z");
        RuntimeFixture f = dev(at);

        InvocationResult outer = f.runtime.handle(
                scheduled("overtaken", at), f.deadline().withLeaseTerm(Duration.ofMinutes(1)), f.log());

        assertThat(f.nested)
                .singleElement()
                .satisfies(inner -> assertThat(inner.occurrences())
                        .singleElement()
                        .satisfies(o -> assertThat(o.verdict()).isEqualTo(Verdict.PASS)));
        assertThat(outer.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.verdict()).isEqualTo(Verdict.FAIL);
            assertThat(o.reason()).isEqualTo(Reason.FENCED);
        });
        assertThat(f.ran)
                .containsExactly("overtaken@" + at, "overtaken@" + at, "overtaken extended=false shouldStop=true");
        assertThat(f.ledger.run(new RunKey("overtaken", at)))
                .hasValueSatisfying(r -> assertThat(r.status()).isEqualTo(RunStatus.SUCCEEDED));
        assertThat(f.lines).anyMatch(l -> l.contains("lease lost before completion"));
    }

    @Test
    void duplicateDeliveryWhileTheFirstStillRuns_isSkippedAsInProgressElsewhere() {
        Instant at = Instant.parse("2026-11-30T10:30:00Z");
        RuntimeFixture f = dev(at);

        InvocationResult outer = f.invoke(scheduled("reentrant", at));

        assertThat(f.nested)
                .singleElement()
                .satisfies(inner -> assertThat(inner.occurrences())
                        .singleElement()
                        .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.IN_PROGRESS_ELSEWHERE)));
        assertThat(outer.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.verdict()).isEqualTo(Verdict.PASS));
        assertThat(f.ran).containsExactly("reentrant@" + at);
    }

    @Test
    void occurrenceFailingMaxAttemptsTimes_isExhausted_andOnlyAForcedRunTriesAgain() {
        Instant at = Instant.parse("2026-11-30T00:15:00Z");
        RuntimeFixture f = dev(at.plusSeconds(60));
        String manual = "{\"kind\":\"run\",\"job\":\"exploder\",\"at\":\"" + at + "\"";

        List<Reason> reasons = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            reasons.add(f.invoke(manual + "}").occurrences().get(0).reason());
        }
        Reason forced =
                f.invoke(manual + ",\"force\":true}").occurrences().get(0).reason();

        assertThat(reasons)
                .containsExactly(Reason.JOB_ERROR, Reason.JOB_ERROR, Reason.JOB_ERROR, Reason.ATTEMPTS_EXHAUSTED);
        assertThat(forced).isEqualTo(Reason.JOB_ERROR);
        assertThat(f.ran).hasSize(4);
    }

    /**
     * Berlin's 02:30 happens twice on 2027-10-31 (00:30Z in summer time, 01:30Z in winter time) and is
     * one occurrence. Delivered at the later instant after a day's gap, it used to run both instants:
     * catch-up ran the calculator's 00:30Z and the delivery ran 01:30Z.
     */
    @Test
    void fallBack_deliveryAtTheLaterInstantOfARepeatedLocalTime_runsThatLocalTimeOnce() {
        Instant saturday = Instant.parse("2027-10-30T00:30:00Z");
        Instant sundayEarlier = Instant.parse("2027-10-31T00:30:00Z");
        Instant sundayLater = Instant.parse("2027-10-31T01:30:00Z");
        RuntimeFixture f = dev(saturday);
        f.invoke(scheduled("nightly-berlin", saturday));
        moveClockTo(f, sundayLater.plusSeconds(3));

        InvocationResult later = f.invoke(scheduled("nightly-berlin", sundayLater));
        InvocationResult earlier = f.invoke(scheduled("nightly-berlin", sundayEarlier));

        assertThat(f.ran).containsExactly("nightly-berlin@" + saturday, "nightly-berlin@" + sundayEarlier);
        assertThat(later.occurrences())
                .extracting(OccurrenceReport::occurrence, OccurrenceReport::reason)
                .containsExactly(Tuple.tuple(sundayEarlier, Reason.OK));
        assertThat(earlier.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.ALREADY_DONE));
        assertThat(f.ledger.run(new RunKey("nightly-berlin", sundayLater))).isEmpty();
        assertThat(f.ledger.cursor("nightly-berlin")).contains(sundayEarlier);
    }

    @Test
    void manualRunOfALaterOccurrence_doesNotMoveTheCursor_soTheGapBeforeItIsStillCaughtUp() {
        Instant first = Instant.parse("2026-11-30T00:00:00Z");
        RuntimeFixture f = dev(first);
        f.invoke(scheduled("expire", first));
        f.clock.advance(Duration.ofMinutes(61));
        f.invoke("{\"kind\":\"run\",\"job\":\"expire\"}"); // the 01:00 occurrence, by hand

        assertThat(f.ledger.cursor("expire")).contains(first);
        f.clock.advance(Duration.ofMinutes(14));
        InvocationResult next = f.invoke(scheduled("expire", first.plus(Duration.ofMinutes(75))));

        assertThat(next.occurrences())
                .extracting(OccurrenceReport::occurrence, OccurrenceReport::reason)
                .containsExactly(
                        Tuple.tuple(first.plus(Duration.ofMinutes(30)), Reason.OK),
                        Tuple.tuple(first.plus(Duration.ofMinutes(45)), Reason.OK),
                        Tuple.tuple(first.plus(Duration.ofMinutes(60)), Reason.ALREADY_DONE),
                        Tuple.tuple(first.plus(Duration.ofMinutes(75)), Reason.OK));
        // Beyond the policy's three replays, 00:15 is recorded as missed: accounted for, never silently lost.
        assertThat(next.missed()).hasValueSatisfying(m -> {
            assertThat(m.first()).isEqualTo(first.plus(Duration.ofMinutes(15)));
            assertThat(m.count()).isEqualTo(1);
        });
        assertThat(f.ledger.cursor("expire")).contains(first.plus(Duration.ofMinutes(75)));
    }

    @Test
    void deferringTheDeliveredOccurrenceBehindCatchUp_doesNotCountAsAnAttempt() {
        Instant first = Instant.parse("2026-11-30T00:00:00Z");
        RuntimeFixture f = dev(first);
        f.invoke(scheduled("report-free", first));
        Instant trigger = first.plus(Duration.ofMinutes(30));
        f.clock.advance(Duration.ofMinutes(30));

        f.invoke(scheduled("report-free", trigger)); // replays 00:15, then runs 00:30 after deferring it

        assertThat(f.ledger.run(new RunKey("report-free", trigger)))
                .hasValueSatisfying(r -> assertThat(r.attempts()).isEqualTo(1));
    }

    /**
     * Issue 38: a history tells a caught-up occurrence from the delivered one by its trigger, recorded in the
     * writes catch-up sends anyway; it moves the cursor as the delivery's own occurrence does.
     */
    @Test
    void catchUp_recordsTheOlderOccurrenceWithTriggerCatchUp_andTheDeliveredOneAsScheduled() {
        Instant first = Instant.parse("2026-11-30T00:00:00Z");
        RuntimeFixture f = dev(first);
        f.invoke(scheduled("report-free", first));
        Instant caughtUp = first.plus(Duration.ofMinutes(15));
        Instant delivered = first.plus(Duration.ofMinutes(30));
        f.clock.advance(Duration.ofMinutes(30));

        InvocationResult result = f.invoke(scheduled("report-free", delivered));

        assertThat(f.ledger.run(new RunKey("report-free", caughtUp))).hasValueSatisfying(r -> {
            assertThat(r.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(r.trigger()).isEqualTo(Trigger.CATCH_UP);
        });
        assertThat(f.ledger.run(new RunKey("report-free", delivered)))
                .hasValueSatisfying(r -> assertThat(r.trigger()).isEqualTo(Trigger.SCHEDULED));
        assertThat(result.occurrences())
                .extracting(o -> o.trigger())
                .containsExactly(Trigger.CATCH_UP, Trigger.SCHEDULED);
        assertThat(f.ledger.cursor("report-free")).contains(delivered);
    }

    /**
     * A deploy moved {@code report} from 08:00 to 09:00 New York ({@code 0 9 * * *}); the old schedule's
     * 08:00 delivery, and its retry an hour later, arrive after the new catalog is live.
     */
    @Test
    void scheduled_deliveryOfAReplacedSchedulesOccurrence_isRecordedAsANotAnOccurrenceSkip_andRunsNothing() {
        Instant yesterday = REPORT_AT.minus(Duration.ofDays(1));
        Instant oldOccurrence = OccurrenceCalculator.of(Schedule.parse("0 8 * * *", "America/New_York"))
                .next(yesterday)
                .orElseThrow(); // 2026-11-30T13:00:00Z, 08:00 in New York
        RuntimeFixture f = dev(yesterday);
        f.invoke(scheduled("report", yesterday));
        moveClockTo(f, oldOccurrence.plusSeconds(2));

        InvocationResult result = f.invoke(scheduled("report", oldOccurrence));

        assertThat(result.valid()).isTrue();
        assertThat(result.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.occurrence()).isEqualTo(oldOccurrence);
            assertThat(o.verdict()).isEqualTo(Verdict.SKIP);
            assertThat(o.reason()).isEqualTo(Reason.NOT_AN_OCCURRENCE);
            assertThat(o.attempt()).isZero();
        });
        assertThat(f.ran).containsExactly("report@" + yesterday);
        assertThat(f.ledger.cursor("report")).contains(yesterday);
        assertThat(f.ledger.run(new RunKey("report", oldOccurrence))).hasValueSatisfying(r -> {
            assertThat(r.status()).isEqualTo(RunStatus.SKIPPED);
            assertThat(r.attempts()).isZero();
            assertThat(r.reason()).contains(Reason.NOT_AN_OCCURRENCE.wire());
        });
        assertThat(f.outcomeLines()).last().satisfies(line -> {
            assertThat(line.get("outcome").asText()).isEqualTo("SKIP");
            assertThat(line.get("reason").asText()).isEqualTo(Reason.NOT_AN_OCCURRENCE.wire());
            assertThat(line.get("trigger").asText()).isEqualTo("SCHEDULED");
            assertThat(line.get("detail").asText())
                    .contains(
                            "not an occurrence",
                            "cron(0 9 * * ? *)",
                            "America/New_York",
                            yesterday.toString(),
                            REPORT_AT.toString());
            assertThat(line.get("Skip").asInt()).isEqualTo(1);
        });

        f.clock.advance(Duration.ofHours(1)); // the scheduler's retry of the same old occurrence
        InvocationResult duplicate = f.invoke(scheduled("report", oldOccurrence));

        assertThat(duplicate.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.NOT_AN_OCCURRENCE));
        assertThat(f.ledger.run(new RunKey("report", oldOccurrence))).hasValueSatisfying(r -> {
            assertThat(r.status()).isEqualTo(RunStatus.SKIPPED);
            assertThat(r.attempts()).isZero();
        });
        assertThat(f.ledger.cursor("report")).contains(yesterday);
        assertThat(f.ran).hasSize(1);
        assertThat(f.events).singleElement().isInstanceOf(LifecycleEvent.RunSucceeded.class);

        moveClockTo(f, REPORT_AT.plusSeconds(2));
        InvocationResult next = f.invoke(scheduled("report", REPORT_AT));

        assertThat(next.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.occurrence()).isEqualTo(REPORT_AT);
            assertThat(o.verdict()).isEqualTo(Verdict.PASS);
            assertThat(o.attempt()).isEqualTo(1);
        });
        assertThat(next.missed()).isEmpty();
        assertThat(f.ledger.cursor("report")).contains(REPORT_AT);
        assertThat(f.ran).containsExactly("report@" + yesterday, "report@" + REPORT_AT);
    }

    @Test
    void retryOfAReplacedSchedulesOccurrenceThatFailedBeforeTheDeploy_keepsTheFailedItem_andRunsNothing() {
        Instant oldOccurrence = Instant.parse("2026-11-30T13:00:00Z"); // 08:00 New York, the replaced 0 8 * * *
        RuntimeFixture f = dev(oldOccurrence);
        ClaimResult.Claimed claimed = (ClaimResult.Claimed) f.ledger.claim(ClaimRequest.scheduled(
                new RunKey("report", oldOccurrence), 1, 3, oldOccurrence.plus(Duration.ofMinutes(5))));
        f.ledger.complete(claimed.claim(), new Outcome.Failed("IllegalStateException: the old build failed"));
        moveClockTo(f, oldOccurrence.plus(Duration.ofMinutes(30)));

        InvocationResult retry = f.invoke(scheduled("report", oldOccurrence));

        assertThat(retry.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.NOT_AN_OCCURRENCE));
        assertThat(f.ran).isEmpty();
        assertThat(f.ledger.run(new RunKey("report", oldOccurrence))).hasValueSatisfying(r -> {
            assertThat(r.status()).isEqualTo(RunStatus.FAILED);
            assertThat(r.attempts()).isEqualTo(1);
        });
        assertThat(f.ledger.cursor("report")).isEmpty();
    }

    /** Stray deliveries of an old every-10-minutes schedule leave the every-15-minutes catch-up as it was. */
    @Test
    void deliveriesOfAReplacedSchedule_leaveTheCatchUpOfTheCurrentOneUnchanged() {
        Instant first = Instant.parse("2026-11-30T00:00:00Z");
        RuntimeFixture f = dev(first);
        f.invoke(scheduled("expire", first));
        for (int minute : new int[] {10, 20}) {
            moveClockTo(f, first.plus(Duration.ofMinutes(minute)));
            assertThat(f.invoke(scheduled("expire", first.plus(Duration.ofMinutes(minute))))
                            .occurrences())
                    .singleElement()
                    .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.NOT_AN_OCCURRENCE));
        }
        Instant trigger = first.plus(Duration.ofMinutes(30));
        moveClockTo(f, trigger);

        InvocationResult result = f.invoke(scheduled("expire", trigger));

        assertThat(result.occurrences())
                .extracting(OccurrenceReport::occurrence, OccurrenceReport::reason)
                .containsExactly(
                        Tuple.tuple(first.plus(Duration.ofMinutes(15)), Reason.OK), Tuple.tuple(trigger, Reason.OK));
        assertThat(result.missed()).isEmpty();
        assertThat(f.ledger.cursor("expire")).contains(trigger);
        assertThat(f.ran)
                .containsExactly(
                        "expire@" + first, "expire@" + first.plus(Duration.ofMinutes(15)), "expire@" + trigger);
        assertThat(f.ledger.run(new RunKey("expire", first.plus(Duration.ofMinutes(10)))))
                .hasValueSatisfying(r -> assertThat(r.status()).isEqualTo(RunStatus.SKIPPED));
    }

    @Test
    void lateRetryOfAFailedOccurrenceTheCursorAlreadyPassed_runsAgain_andKeepsTheFailureHistory() {
        Instant at = Instant.parse("2026-11-30T00:15:00Z");
        RuntimeFixture f = dev(at);
        f.invoke(scheduled("exploder", at)); // first run: FAIL, attempt 1
        f.ledger.recordMissed(new RunKey("exploder", at), at, 1); // the cursor moves past it meanwhile

        InvocationResult retry = f.invoke(scheduled("exploder", at));

        assertThat(retry.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.reason()).isEqualTo(Reason.JOB_ERROR);
            assertThat(o.attempt()).isEqualTo(2);
        });
        assertThat(f.ledger.run(new RunKey("exploder", at))).hasValueSatisfying(r -> {
            assertThat(r.status()).isEqualTo(RunStatus.FAILED);
            assertThat(r.attempts()).isEqualTo(2);
        });
    }
}
