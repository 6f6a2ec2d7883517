package dev.punctual.cli.output;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.cli.PunctualCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/**
 * The exit code a run or replay result maps to, on the result JSON of events/README.md (whichever JVM
 * ran the handler): a script tells "did the work" from "ran nothing" from "failed" by it.
 */
class ResultExitCodesTest {

    private record Printed(int code, String out, String err) {}

    private static Printed print(String json) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code =
                ResultOutput.print(json, true, "punctual run", new PrintWriter(out, true), new PrintWriter(err, true));
        return new Printed(code, out.toString(), err.toString());
    }

    private static String result(
            String kind, int pass, int skip, int fail, String occurrences, String stoppedBy, int notRun) {
        return "{\"status\":\"OK\",\"stage\":\"dev\",\"kind\":\"" + kind + "\",\"job\":\"j\",\"counts\":{\"pass\":"
                + pass + ",\"skip\":" + skip + ",\"fail\":" + fail + "},\"occurrences\":[" + occurrences
                + "],\"missed\":null,\"not_run\":" + notRun + ",\"stopped_by\":"
                + (stoppedBy == null ? "null" : "\"" + stoppedBy + "\"") + ",\"error\":null}";
    }

    private static String occurrence(String outcome, String reason) {
        return "{\"job\":\"j\",\"occurrence\":\"2026-11-30T14:00:00Z\",\"local\":\"2026-11-30T09:00:00-05:00\","
                + "\"trigger\":\"MANUAL\",\"outcome\":\"" + outcome + "\",\"reason\":\"" + reason
                + "\",\"attempt\":1,\"fence\":1}";
    }

    @Test
    void aRunThatPassed_exitsZero() {
        assertThat(print(result("run", 1, 0, 0, occurrence("PASS", "OK"), null, 0))
                        .code())
                .isZero();
    }

    @Test
    void aRunSkippedForMaintenance_exitsThree_sayingWhy() {
        Printed printed = print(result("run", 0, 1, 0, occurrence("SKIP", "MAINTENANCE"), null, 0));

        assertThat(printed.code()).isEqualTo(PunctualCli.RAN_NOTHING).isEqualTo(3);
        assertThat(printed.err()).contains("punctual run: ran nothing: SKIP MAINTENANCE (exit 3)");
    }

    @Test
    void aRunOfAnOccurrenceAlreadyDone_exitsThree() {
        assertThat(print(result("run", 0, 1, 0, occurrence("SKIP", "ALREADY_DONE"), null, 0))
                        .code())
                .isEqualTo(PunctualCli.RAN_NOTHING);
    }

    @Test
    void aDryRun_exitsZero_forItWasAskedToRunNothing() {
        assertThat(print(result("run", 0, 1, 0, occurrence("SKIP", "DRY_RUN"), null, 0))
                        .code())
                .isZero();
    }

    @Test
    void aFailure_exitsOne_evenBesideSkips() {
        String both = occurrence("SKIP", "ALREADY_DONE") + "," + occurrence("FAIL", "ERROR");

        assertThat(print(result("replay", 0, 1, 1, both, null, 0)).code()).isEqualTo(PunctualCli.FAILURE);
    }

    @Test
    void anInvokedScheduledDeliveryThatSkipped_ranNothing_andExitsThree_asRunDoes() {
        // One exit code for "ran nothing" whichever command sent the payload (issue 40, 8): invoking a
        // scheduled event twice says 3 the second time, as run does for an occurrence already done.
        assertThat(print(result("scheduled", 0, 1, 0, occurrence("SKIP", "ALREADY_DONE"), null, 0))
                        .code())
                .isEqualTo(PunctualCli.RAN_NOTHING);
    }

    @Test
    void aReplayStoppedByMaintenance_exitsOne_andSaysToWaitForItsEnd_notToRaiseMax() {
        Printed printed = print(result("replay", 0, 1, 0, occurrence("SKIP", "MAINTENANCE"), "MAINTENANCE", 4));

        assertThat(printed.code()).isEqualTo(PunctualCli.FAILURE);
        assertThat(printed.err()).contains("replay stopped: MAINTENANCE; 4 occurrence(s) not run; maintenance holds");
        assertThat(printed.out())
                .contains("not run: 4 more occurrence(s) in the range (the replay was stopped)")
                .doesNotContain("raise --max");
    }

    @Test
    void aReplayStoppedBecauseTheStageRefusesDestructiveJobs_doesNotSayReplayingAgainHelps() {
        Printed printed = print(result("replay", 0, 1, 0, occurrence("SKIP", "REFUSED"), "REFUSED", 2));

        assertThat(printed.err())
                .contains("this stage refuses destructive jobs, so replaying here cannot run them")
                .doesNotContain("replay again");
    }

    @Test
    void aReplayThatReachedItsMax_saysToRaiseIt() {
        Printed printed =
                print(result("replay", 2, 0, 0, occurrence("PASS", "OK") + "," + occurrence("PASS", "OK"), null, 3));

        assertThat(printed.code()).isZero();
        assertThat(printed.out()).contains("not run: 3 more occurrence(s) in the range (raise --max or replay again)");
    }

    @Test
    void aPing_printsThatTheFunctionAnswered_notAnEmptyTable() {
        Printed printed = print("{\"status\":\"OK\",\"stage\":\"dev\",\"kind\":\"ping\",\"job\":null,\"counts\":"
                + "{\"pass\":0,\"skip\":0,\"fail\":0},\"occurrences\":[],\"missed\":null,\"not_run\":0,"
                + "\"stopped_by\":null,\"error\":null}");

        assertThat(printed.code()).isZero();
        assertThat(printed.out())
                .contains("the function answered; a ping runs no job")
                .doesNotContain("OCCURRENCE");
    }

    @Test
    void aReplayOfAnEmptyRange_saysSo_andRanNothing() {
        Printed printed = print(result("replay", 0, 0, 0, "", null, 0));

        assertThat(printed.out()).contains("no occurrence to run").doesNotContain("OCCURRENCE");
        assertThat(printed.code()).isEqualTo(PunctualCli.RAN_NOTHING);
        assertThat(printed.err()).contains("ran nothing: no occurrence in the range");
    }
}
