package dev.punctual.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.testing.DynamoDbHarness;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The whole demo, once, on the tests' emulator: what it prints must be what the watchdog reported, what
 * the ledger holds and where the log went. The clock is simulated, so the run is the same every time.
 */
class DemoTest {

    private static String output;

    @BeforeAll
    static void runTheDemoOnce() {
        StringWriter out = new StringWriter();
        new Demo(
                        DynamoDbHarness.backend().endpoint().toString(),
                        new PrintWriter(out, true),
                        new PrintWriter(new StringWriter(), true))
                .run();
        output = out.toString();
    }

    @Test
    void theWatchdog_reportsEachOccurrenceTheOutageLost_asItsOwnTimelineEntry() {
        // At 01:07Z the watchdog checks what fell due by 00:07Z (one hour of grace), at 02:07Z by 01:07Z.
        assertThat(line("2027-03-14T01:07:01", "missed-run-watchdog"))
                .contains("finds 2 occurrences overdue (not delivered): expire-reservations"
                        + " 2027-03-14T00:00:00Z, refund-keys 2027-03-14T00:05:00Z");
        assertThat(line("2027-03-14T02:07:01", "missed-run-watchdog"))
                .contains("finds 2 occurrences overdue (not delivered): expire-reservations"
                        + " 2027-03-14T01:00:00Z, refund-keys 2027-03-14T01:05:00Z");
        assertThat(output).doesNotContain("the watchdog notices");
    }

    @Test
    void aDataToolUnderMaintenanceHold_holdsEveryJobWhileItRuns_andTheDataItLoadedHoldsThemUntilReset() {
        assertThat(output).contains("maintenance hold -- ./load-synthetic-members --count 3: every lock group held");
        assertThat(line("2027-03-14T06:00:01", "expire-reservations"))
                .as("while the command runs: its hold")
                .contains("SKIP", "MAINTENANCE", "loading synthetic members");
        assertThat(output)
                .contains("the command loaded 3 synthetic members and exits 0: hold released (renewed 59 times)");
        assertThat(line("2027-03-14T06:30:01", "expire-reservations"))
                .as("after it: the data it loaded, through the examples' maintenance condition")
                .contains("SKIP", "MAINTENANCE", "condition synthetic-members");
        assertThat(output).contains("data set reset (3 synthetic members deleted)");
        assertThat(line("2027-03-14T07:00:01", "expire-reservations", "2027-03-14T16:00:00+09:00"))
                .contains("PASS");
    }

    @Test
    void theFinalLedger_countsEachOccurrenceOnce_soItsCategoriesAddUpToTheOccurrences() {
        // 192 quarter-hours: 11 lost in the outage and given up, 3 skipped for maintenance (catch-up later
        // counted them in a missed range too; here they count once, as skipped), 4 in the nightly backup's
        // blackout (03:00 and 03:15 Seoul on two nights), the rest ran.
        assertThat(ledgerRow("expire-reservations"))
                .containsExactly("expire-reservations", "2027-03-15T11:45:00Z", "192", "174", "7", "0", "11", "0");
        assertThat(ledgerRow("missed-run-watchdog"))
                .containsExactly("missed-run-watchdog", "2027-03-15T11:07:00Z", "48", "47", "1", "0", "0", "0");
        for (String job : List.of(
                "daily-report",
                "expire-reservations",
                "refund-keys",
                "purge-inactive-members",
                "send-reminders",
                "settle-payouts",
                "month-end-close",
                "missed-run-watchdog")) {
            List<String> row = ledgerRow(job);
            int sum = row.subList(3, 8).stream().mapToInt(Integer::parseInt).sum();
            assertThat(sum).as(job + " categories against its occurrences").isEqualTo(Integer.parseInt(row.get(2)));
        }
        assertThat(output)
                .contains("OCCURRENCES: ", "SUCCEEDED: ", "SKIPPED: ", "FAILED: ", "MISSED: ", "UNRECORDED: ");
    }

    @Test
    void theSpringForwardChange_skipsTheLocalTimeOfAJobScheduledInTheGap_whichRunsAgainTheNextNight() {
        assertThat(output)
                .contains("-- clocks go forward in New York at 02:00 local")
                .contains("nightly-snapshot's 2027-03-14T02:30 does not exist (clocks jump from 02:00 to 03:00),"
                        + " so it does not run that day");
        assertThat(line("nightly-snapshot", "2027-03-15T02:30:00-04:00")).contains("PASS");
        assertThat(output).doesNotContain("2027-03-14T02:30:00-0");
        assertThat(ledgerRow("nightly-snapshot"))
                .containsExactly("nightly-snapshot", "2027-03-15T06:30:00Z", "1", "1", "0", "0", "0", "0");
    }

    @Test
    void aPerEntityJob_runsEachTenantAt0900InItsOwnZone_andNewYorksMovesAnHourEarlierInUtcAcrossTheChange() {
        assertThat(line("tenant-digest:acme", "2027-03-13T09:00:00-05:00"))
                .startsWith("2027-03-13T14:00:01")
                .contains("PASS");
        assertThat(line("tenant-digest:acme", "2027-03-14T09:00:00-04:00"))
                .startsWith("2027-03-14T13:00:01")
                .contains("PASS");
        assertThat(line("tenant-digest:globex", "2027-03-14T09:00:00Z")).startsWith("2027-03-14T09:00:01");
        assertThat(line("tenant-digest:initech", "2027-03-14T09:00:00+09:00")).startsWith("2027-03-14T00:00:01");
        assertThat(ledgerRow("tenant-digest:acme"))
                .containsExactly("tenant-digest:acme", "2027-03-14T13:00:00Z", "2", "2", "0", "0", "0", "0");
        assertThat(ledgerRow("tenant-digest:globex"))
                .containsExactly("tenant-digest:globex", "2027-03-15T09:00:00Z", "2", "2", "0", "0", "0", "0");
        assertThat(ledgerRow("tenant-digest:initech"))
                .containsExactly("tenant-digest:initech", "2027-03-15T00:00:00Z", "2", "2", "0", "0", "0", "0");
    }

    @Test
    void theStructuredLogLines_goToTheFileTheDemoNames_oneJsonObjectPerLine() throws IOException {
        Matcher written = Pattern.compile("(\\d+) structured JSON log lines written to (\\S+) ")
                .matcher(output);

        assertThat(written.find())
                .as("the line naming the log file, in:%n%s", output)
                .isTrue();
        List<String> lines = Files.readAllLines(Path.of(written.group(2)));
        assertThat(lines).hasSize(Integer.parseInt(written.group(1)));
        assertThat(lines).allSatisfy(l -> assertThat(l).startsWith("{\"timestamp\":\""));
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("\"message\":\"occurrence overdue\""));
        assertThat(lines)
                .as("the demo creates the stage's bus, so lifecycle events are published")
                .noneSatisfy(l -> assertThat(l).contains("\"message\":\"lifecycle event not published\""));
        Files.delete(Path.of(written.group(2)));
    }

    @Test
    void aHolidayAndAWeekend_areCalendarSkips_andTheSettlementNeverRunsInTheWindow() {
        assertThat(line("settle-payouts", "2027-03-14T17:00:00+09:00", "SCHEDULED"))
                .contains("SKIP", "CALENDAR", "2027-03-14 is a Sunday (business days of calendar kr-public-holidays)");
        assertThat(line("settle-payouts", "2027-03-15T17:00:00+09:00", "SCHEDULED"))
                .contains("SKIP", "CALENDAR", "2027-03-15 is Founding day in calendar company-closing-days");
        assertThat(ledgerRow("settle-payouts")).containsExactly("settle-payouts", "-", "2", "0", "2", "0", "0", "0");
    }

    @Test
    void theNightlyBackupsBlackout_skipsTheReservationGroup_andItsEndRunsAgain() {
        assertThat(line("2027-03-13T18:00:01", "expire-reservations")).contains("SKIP", "BLACKOUT");
        assertThat(line("2027-03-13T18:05:01", "refund-keys")).contains("SKIP", "BLACKOUT");
        assertThat(line("2027-03-13T18:30:01", "expire-reservations")).contains("PASS", "runs again after BLACKOUT");
    }

    @Test
    void aReminderDeliveredPastItsStartDeadline_isADeadlineSkip_neverSentLate() {
        assertThat(line("send-reminders", "2027-03-14T18:00:00+09:00", "SCHEDULED"))
                .contains("SKIP", "DEADLINE_PASSED", "latest start 2027-03-14T09:10:00Z (startDeadline PT10M)");
        assertThat(output).contains("-- send-reminders' 18:00 Seoul delivery arrives 25 minutes late");
    }

    /** Decision 0049: 15 March 2027 is a Monday of member-digest's deployed cron, not of its every-other-week rule. */
    @Test
    void anRruleJobsDeployedCron_firesOnAMondayTheRuleLeavesOut_answeredOutsideRule_withNothingInTheLedger() {
        assertThat(line("member-digest", "2027-03-15T09:00:00+01:00"))
                .startsWith("2027-03-15T08:00:01")
                .contains("SKIP", "OUTSIDE_RULE")
                .contains("fired by its deployed cron(0 9 ? * MON 2026-2199), not a rule occurrence")
                .contains("next 2027-03-22T09:00");
        assertThat(ledgerRow("member-digest"))
                .as("the rule has no occurrence in the window, and the firing wrote no run item")
                .containsExactly("member-digest", "-", "0", "0", "0", "0", "0", "0");
    }

    @Test
    void aSpreadJob_firesItsOffsetAfterItsOccurrence_andRunsTheOccurrenceItself() {
        String report = line("daily-report", "2027-03-13T09:00:00-05:00", "SCHEDULED");
        int offset = Integer.parseInt(report.replaceAll(".*fired \\+(\\d+) min \\(spreadOver\\).*", "$1"));

        assertThat(offset).isBetween(1, 14);
        assertThat(report)
                .startsWith(String.format("2027-03-13T14:%02d:01", offset))
                .contains("PASS", "OK");
    }

    @Test
    void monthEndClose_startsOneExecutionForTheOperatorsRun_andADuplicateMeetsItRunning() {
        String started = line("month-end-close", "2027-02-28T23:00:00+09:00", "STARTED");
        Matcher name = Pattern.compile("execution (\\S+)").matcher(started);

        assertThat(started).contains("MANUAL", "punctual run month-end-close --at 2027-02-28T14:00:00Z");
        assertThat(name.find()).as(started).isTrue();
        assertThat(name.group(1)).contains("month-end-close");
        assertThat(line("month-end-close", "2027-02-28T23:00:00+09:00", "IN_PROGRESS_ELSEWHERE"))
                .contains("SKIP", "the same run delivered again");
        assertThat(line("executions of punctual-demo-", "-month-end-close on moto"))
                .contains("on moto: 1 (" + name.group(1) + " RUNNING)");
    }

    @Test
    void monthEndClose_stepsAsTheStateMachineSendsThem_retryTheChunkOfTheMemberWithAnEditUntilItIsSaved() {
        assertThat(line("step plan")).contains("5 chunks: [m-ada, m-bo, m-chen, m-dara, m-eun]");
        for (String member : List.of("m-ada", "m-bo", "m-dara", "m-eun")) {
            assertThat(line("step chunk", member + " ")).contains("SUCCEEDED", "attempt 1");
        }
        assertThat(line("step chunk", "m-chen", "FAILED"))
                .contains(
                        "attempt 1: chunk m-chen attempt 1 of 3 failed", "reservation r-106 of m-chen is being edited");
        assertThat(line("the agent saves the edit")).contains("r-106 is HELD now");
        assertThat(line("step chunk", "m-chen", "SUCCEEDED")).contains("attempt 2");
        assertThat(output.indexOf("the agent saves the edit"))
                .isBetween(output.indexOf("FAILED     attempt 1"), output.indexOf("SUCCEEDED  attempt 2"));
        assertThat(line("step finish")).contains("SUCCEEDED", "the occurrence SUCCEEDED");
    }

    @Test
    void monthEndClose_leavesItsRunSucceeded_eachChunkRecordedOnce_andItsGroupReleased() {
        assertThat(line("ledger: month-end-close 2027-02-28T14:00:00Z SUCCEEDED"))
                .contains("\"statements\":5", "\"chunks\":5", "\"month\":\"2027-02\"");
        assertThat(line("chunks, each recorded once:"))
                .contains(
                        "m-ada SUCCEEDED after 1 attempt,",
                        "m-chen SUCCEEDED after 2 attempts,",
                        "m-eun SUCCEEDED after 1 attempt");
        assertThat(line("lock group month-end-close:")).contains("released");
        assertThat(output.indexOf("month-end-close, a long job"))
                .isGreaterThan(output.indexOf("routine PASS"))
                .isLessThan(output.indexOf("Final ledger"));
        assertThat(ledgerRow("month-end-close")).containsExactly("month-end-close", "-", "1", "1", "0", "0", "0", "0");
    }

    /** The one printed line holding every part. */
    private static String line(String... parts) {
        List<String> matching = output.lines()
                .filter(l -> Arrays.stream(parts).allMatch(l::contains))
                .toList();
        assertThat(matching).as("lines with %s in:%n%s", List.of(parts), output).hasSize(1);
        return matching.get(0);
    }

    /** A job's row of the final ledger's summary, split into its columns. */
    private static List<String> ledgerRow(String job) {
        String summary = output.substring(output.indexOf("Final ledger"));
        List<String> rows = summary.lines()
                .takeWhile(l -> !l.startsWith("JOB                      OCCURRENCE (UTC)"))
                .filter(l -> l.startsWith(job + " "))
                .toList();
        assertThat(rows).as("ledger rows of %s in:%n%s", job, summary).hasSize(1);
        return List.of(rows.get(0).trim().split("\\s+"));
    }
}
