package dev.punctual.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import dev.punctual.events.LifecycleEvent;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.testkit.MutableClock;
import dev.punctual.outcome.Reason;
import dev.punctual.stage.StageFlags;
import dev.punctual.time.Blackout;
import dev.punctual.time.HolidayCalendar;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Calendars and blackout windows on the runtime's paths (issue 22, 3, 4 and 6; decision 0034): an excluded
 * occurrence is recorded as SKIP CALENDAR or BLACKOUT on its own run item, never run, never counted as
 * missed; catch-up walks past it, and replays what was missed outside it by the job's own policy; the
 * watchdog never reports it; a date past the calendar's range is refused and counted, once. Run on every
 * ledger.
 */
public abstract class CalendarAndBlackoutContract {

    /** The ledger the runtime runs on, on the fixture's clock. */
    protected abstract RunLedger ledger(MutableClock clock);

    /** Every occurrence a job ran, in order, as {@code job@instant}. */
    private final List<String> ran = new CopyOnWriteArrayList<>();

    private static final HolidayCalendar KR = HolidayCalendar.of(
            "kr-test",
            LocalDate.of(2026, 1, 1),
            LocalDate.of(2027, 12, 31),
            Map.of(
                    LocalDate.of(2027, 1, 1), "New Year's Day",
                    LocalDate.of(2027, 2, 8), "Seollal"));

    private static Instant local(String dateTime, String zone) {
        return LocalDateTime.parse(dateTime).atZone(ZoneId.of(zone)).toInstant();
    }

    private JobDefinition.Builder job(String id, String cron, String zone) {
        return JobDefinition.builder(id).schedule(cron, zone).job(services -> context -> {
            ran.add(id + "@" + context.occurrence());
            return JobResult.empty();
        });
    }

    private RuntimeFixture fixture(Instant start, Supplier<JobCatalog> catalog) {
        return new RuntimeFixture(start, StageFlags.defaultsFor("dev"), this::ledger, f -> catalog.get());
    }

    private static void moveTo(RuntimeFixture f, Instant at) {
        f.clock.advance(Duration.between(f.clock.peek(), at));
    }

    private static InvocationResult deliver(RuntimeFixture f, String job, Instant occurrence) {
        moveTo(f, occurrence.plusSeconds(2));
        return f.invoke(RuntimeFixture.scheduled(job, occurrence));
    }

    private static JsonNode lastLine(RuntimeFixture f) {
        List<JsonNode> lines = f.outcomeLines();
        return lines.get(lines.size() - 1);
    }

    // --- calendars -------------------------------------------------------------------------------------

    private JobCatalog payroll() {
        return JobCatalog.of(
                job("payroll", "0 9 * * *", "Asia/Seoul").businessDaysOf(KR).build());
    }

    @Test
    void aDeliveryOnAHoliday_isRecordedAsACalendarSkip_namingTheDate_notCountedAsMissed_neverRun() {
        Instant newYear = local("2027-01-01T09:00", "Asia/Seoul");
        RuntimeFixture f = fixture(newYear, this::payroll);

        InvocationResult result = deliver(f, "payroll", newYear);

        assertThat(result.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.reason()).isEqualTo(Reason.CALENDAR);
            assertThat(o.detail()).isEqualTo("2027-01-01 is New Year's Day in calendar kr-test");
        });
        assertThat(ran).isEmpty();
        assertThat(f.ledger.run(new RunKey("payroll", newYear))).hasValueSatisfying(r -> {
            assertThat(r.status()).isEqualTo(RunStatus.SKIPPED);
            assertThat(r.reason()).startsWith("CALENDAR: 2027-01-01 is New Year's Day");
        });
        assertThat(lastLine(f).get("reason").asText()).isEqualTo("CALENDAR");
        assertThat(lastLine(f).get("missed_count").asInt()).isZero();
    }

    @Test
    void theBusinessDayAfterAHolidayAndAWeekend_catchesUpNothing_andCountsNothingMissed() {
        Instant thursday = local("2026-12-31T09:00", "Asia/Seoul");
        Instant monday = local("2027-01-04T09:00", "Asia/Seoul");
        RuntimeFixture f = fixture(thursday, this::payroll);
        deliver(f, "payroll", thursday);

        InvocationResult result = deliver(f, "payroll", monday);

        assertThat(result.occurrences())
                .extracting(OccurrenceReport::occurrence, OccurrenceReport::reason)
                .containsExactly(tuple(monday, Reason.OK));
        assertThat(ran).containsExactly("payroll@" + thursday, "payroll@" + monday);
        assertThat(lastLine(f).get("missed_count").asInt()).isZero();
        assertThat(f.ledger.cursor("payroll")).contains(monday);
    }

    @Test
    void aHolidayFourteenHoursAheadOfUtc_isTheLocalDate_notTheUtcOne() {
        // 09:00 on 2027-01-01 in Kiritimati is 2026-12-31T19:00Z: a UTC reading would run it.
        Supplier<JobCatalog> catalog = () -> JobCatalog.of(job("island", "0 9 * * *", "Pacific/Kiritimati")
                .exceptDatesOf(KR)
                .build());
        Instant newYear = local("2027-01-01T09:00", "Pacific/Kiritimati");
        Instant nextDay = local("2027-01-02T09:00", "Pacific/Kiritimati");
        RuntimeFixture f = fixture(newYear, catalog);

        InvocationResult holiday = deliver(f, "island", newYear);
        InvocationResult after = deliver(f, "island", nextDay);

        assertThat(newYear).isEqualTo(Instant.parse("2026-12-31T19:00:00Z"));
        assertThat(holiday.occurrences()).extracting(OccurrenceReport::reason).containsExactly(Reason.CALENDAR);
        assertThat(after.occurrences()).extracting(OccurrenceReport::reason).containsExactly(Reason.OK);
        assertThat(ran).containsExactly("island@" + nextDay);
    }

    @Test
    void aHolidayElevenHoursBehindUtc_isTheLocalDate_notTheUtcOne() {
        // 23:00 on 2027-01-01 in Pago Pago is 2027-01-02T10:00Z.
        Supplier<JobCatalog> catalog = () -> JobCatalog.of(job("samoa", "0 23 * * *", "Pacific/Pago_Pago")
                .exceptDatesOf(KR)
                .build());
        Instant newYear = local("2027-01-01T23:00", "Pacific/Pago_Pago");
        RuntimeFixture f = fixture(newYear, catalog);

        InvocationResult holiday = deliver(f, "samoa", newYear);

        assertThat(newYear).isEqualTo(Instant.parse("2027-01-02T10:00:00Z"));
        assertThat(holiday.occurrences()).extracting(OccurrenceReport::reason).containsExactly(Reason.CALENDAR);
        assertThat(ran).isEmpty();
    }

    @Test
    void aDatePastTheCalendarsRange_isRefusedAndCountedAsMissed_onceEvenWhenCatchUpMeetsItAgain() {
        Instant friday = local("2027-12-31T09:00", "Asia/Seoul");
        Instant monday = local("2028-01-03T09:00", "Asia/Seoul");
        Instant tuesday = local("2028-01-04T09:00", "Asia/Seoul");
        RuntimeFixture f = fixture(friday, this::payroll);
        deliver(f, "payroll", friday);

        InvocationResult past = deliver(f, "payroll", monday);
        JsonNode first = lastLine(f);
        InvocationResult again = deliver(f, "payroll", tuesday);

        assertThat(past.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.reason()).isEqualTo(Reason.CALENDAR_ENDED);
            assertThat(o.detail()).contains("calendar kr-test covers 2026-01-01 .. 2027-12-31, not 2028-01-03");
        });
        assertThat(first.get("missed_count").asInt()).isEqualTo(1);
        assertThat(again.occurrences())
                .extracting(OccurrenceReport::occurrence, OccurrenceReport::reason)
                .containsExactly(tuple(tuesday, Reason.CALENDAR_ENDED));
        assertThat(lastLine(f).get("missed_count").asInt()).isEqualTo(1);
        assertThat(ran).containsExactly("payroll@" + friday);
    }

    @Test
    void anOperatorsRunAtAHoliday_runsIt_butARunWithoutAtTakesTheLatestBusinessDay() {
        Instant thursday = local("2026-12-31T09:00", "Asia/Seoul");
        Instant newYear = local("2027-01-01T09:00", "Asia/Seoul");
        RuntimeFixture f = fixture(local("2027-01-02T12:00", "Asia/Seoul"), this::payroll);

        InvocationResult latest = f.invoke("{\"kind\":\"run\",\"job\":\"payroll\"}");
        InvocationResult named = f.invoke("{\"kind\":\"run\",\"job\":\"payroll\",\"at\":\"" + newYear + "\"}");

        assertThat(latest.occurrences())
                .extracting(OccurrenceReport::occurrence)
                .containsExactly(thursday);
        assertThat(named.occurrences()).extracting(OccurrenceReport::reason).containsExactly(Reason.OK);
        assertThat(ran).containsExactly("payroll@" + thursday, "payroll@" + newYear);
    }

    @Test
    void theWatchdog_neverReportsAHolidayOrAWeekend_asOverdue() {
        Instant thursday = local("2026-12-31T09:00", "Asia/Seoul");
        RuntimeFixture f = new RuntimeFixture(
                thursday, StageFlags.defaultsFor("dev"), this::ledger, x -> Catalogs.withBuiltIns(payroll()));
        deliver(f, "payroll", thursday);

        for (Instant at = thursday.plus(Duration.ofMinutes(7));
                at.isBefore(local("2027-01-04T08:00", "Asia/Seoul"));
                at = at.plus(Duration.ofHours(1))) {
            moveTo(f, at.plusSeconds(3));
            f.invoke(RuntimeFixture.scheduled(MissedRunWatchdog.ID, at));
        }

        assertThat(f.events).noneMatch(LifecycleEvent.OccurrenceOverdue.class::isInstance);
    }

    // --- blackouts ------------------------------------------------------------------------------------

    private static final Blackout NIGHTLY =
            Blackout.daily(LocalTime.of(23, 0), LocalTime.of(1, 0), "Europe/Berlin", "nightly backup");

    private JobCatalog quarterly(Blackout window) {
        return JobCatalog.of(
                job("sync", "*/15 * * * *", "Europe/Berlin").blackout(window).build());
    }

    @Test
    void aBlackoutsFirstAndLastMinute_areInside_andItsEndIsNot() {
        Supplier<JobCatalog> catalog = () -> JobCatalog.of(
                job("sync", "* * * * *", "Europe/Berlin").blackout(NIGHTLY).build());
        Instant before = local("2027-01-15T22:59", "Europe/Berlin");
        Instant first = local("2027-01-15T23:00", "Europe/Berlin");
        Instant last = local("2027-01-16T00:59", "Europe/Berlin");
        Instant end = local("2027-01-16T01:00", "Europe/Berlin");
        RuntimeFixture f = fixture(before, catalog);

        List<Reason> reasons = List.of(before, first, last, end).stream()
                .map(at -> deliver(f, "sync", at).occurrences().get(0).reason())
                .toList();

        assertThat(reasons).containsExactly(Reason.OK, Reason.BLACKOUT, Reason.BLACKOUT, Reason.OK);
        assertThat(ran).containsExactly("sync@" + before, "sync@" + end);
        assertThat(f.ledger.run(new RunKey("sync", first)))
                .hasValueSatisfying(r -> assertThat(r.reason())
                        .isEqualTo("BLACKOUT: blackout every day 23:00-01:00" + " Europe/Berlin: nightly backup"));
        assertThat(f.outcomeLines())
                .extracting(l -> l.get("missed_count").asInt())
                .containsOnly(0);
        assertThat(f.outcomeLines().get(3).get("catch_up_count") == null
                        || f.outcomeLines().get(3).get("catch_up_count").asInt() == 0)
                .as("the window's occurrences are not caught up")
                .isTrue();
    }

    @Test
    void aBlackoutAcrossSpringForward_holdsOffTheHourThatExisted_andResumesAtItsLocalEnd() {
        // Europe/Berlin, 2027-03-28: 02:00 CET becomes 03:00 CEST; the window 01:00-04:00 is two real hours.
        Blackout early = Blackout.daily(LocalTime.of(1, 0), LocalTime.of(4, 0), "Europe/Berlin", "etl");
        Supplier<JobCatalog> catalog = () -> JobCatalog.of(
                job("hourly", "0 * * * *", "Europe/Berlin").blackout(early).build());
        Instant midnight = Instant.parse("2027-03-27T23:00:00Z"); // 00:00 CET
        Instant one = Instant.parse("2027-03-28T00:00:00Z"); // 01:00 CET
        Instant three = Instant.parse("2027-03-28T01:00:00Z"); // 03:00 CEST
        Instant four = Instant.parse("2027-03-28T02:00:00Z"); // 04:00 CEST
        RuntimeFixture f = fixture(midnight, catalog);

        List<Reason> reasons = List.of(midnight, one, three, four).stream()
                .map(at -> deliver(f, "hourly", at).occurrences().get(0).reason())
                .toList();

        assertThat(reasons).containsExactly(Reason.OK, Reason.BLACKOUT, Reason.BLACKOUT, Reason.OK);
        assertThat(ran).containsExactly("hourly@" + midnight, "hourly@" + four);
        assertThat(f.outcomeLines())
                .extracting(l -> l.get("missed_count").asInt())
                .containsOnly(0);
    }

    @Test
    void afterABlackout_catchUpReplaysWhatWasMissedOutsideIt_byTheJobsPolicy_butNotTheWindowsOwn() {
        // Hourly; window 02:00-04:00 UTC; last success 23:00; nothing delivered until 05:00. The default
        // policy replays up to 3: of 00, 01, (02, 03 in the window), 04 it replays 00, 01 and 04.
        Blackout window = Blackout.daily(LocalTime.of(2, 0), LocalTime.of(4, 0), "UTC", "vacuum");
        Supplier<JobCatalog> catalog = () ->
                JobCatalog.of(job("hourly", "0 * * * *", "UTC").blackout(window).build());
        Instant eleven = Instant.parse("2027-01-14T23:00:00Z");
        Instant five = Instant.parse("2027-01-15T05:00:00Z");
        RuntimeFixture f = fixture(eleven, catalog);
        deliver(f, "hourly", eleven);

        InvocationResult result = deliver(f, "hourly", five);

        assertThat(result.occurrences())
                .extracting(OccurrenceReport::occurrence, OccurrenceReport::reason)
                .containsExactly(
                        tuple(Instant.parse("2027-01-15T00:00:00Z"), Reason.OK),
                        tuple(Instant.parse("2027-01-15T01:00:00Z"), Reason.OK),
                        tuple(Instant.parse("2027-01-15T04:00:00Z"), Reason.OK),
                        tuple(five, Reason.OK));
        assertThat(ran).doesNotContain("hourly@2027-01-15T02:00:00Z", "hourly@2027-01-15T03:00:00Z");
        assertThat(lastLine(f).get("missed_count").asInt()).isZero();
    }

    @Test
    void aOneOffBlackoutOfTheWholeCatalog_holdsEveryJob_andALockGroupsOnlyItsOwn() {
        Blackout migration = Blackout.once(
                LocalDateTime.parse("2027-01-15T02:00"),
                LocalDateTime.parse("2027-01-15T06:00"),
                "Asia/Seoul",
                "db migration");
        Blackout billingFreeze = Blackout.once(
                Instant.parse("2027-01-15T10:00:00Z"), Instant.parse("2027-01-15T11:00:00Z"), "billing freeze");
        Supplier<JobCatalog> catalog = () -> JobCatalog.of(
                        job("a", "0 * * * *", "UTC").lockGroup("billing").build(),
                        job("b", "0 * * * *", "UTC").build())
                .withBlackout(migration)
                .withBlackout("billing", billingFreeze);
        Instant inMigration = local("2027-01-15T03:00", "Asia/Seoul"); // 2027-01-14T18:00Z
        Instant inFreeze = Instant.parse("2027-01-15T10:00:00Z");
        RuntimeFixture f = fixture(inMigration, catalog);

        Reason aMigration = deliver(f, "a", inMigration).occurrences().get(0).reason();
        Reason bMigration = f.invoke(RuntimeFixture.scheduled("b", inMigration))
                .occurrences()
                .get(0)
                .reason();
        Reason aFreeze = deliver(f, "a", inFreeze).occurrences().get(0).reason();
        Reason bFreeze = f.invoke(RuntimeFixture.scheduled("b", inFreeze))
                .occurrences()
                .get(0)
                .reason();

        assertThat(List.of(aMigration, bMigration, aFreeze)).containsOnly(Reason.BLACKOUT);
        assertThat(bFreeze).isEqualTo(Reason.OK);
        assertThat(f.ledger.run(new RunKey("b", inMigration)))
                .hasValueSatisfying(r -> assertThat(r.reason()).contains("db migration"));
    }
}
