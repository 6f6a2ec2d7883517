package dev.punctual.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ScheduleParsingTest {

    @ParameterizedTest(name = "Unix {0} deploys as {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "0 9 * * 1-5        | cron(0 9 ? * MON-FRI *)",
                "*/15 * * * *       | cron(0/15 * * * ? *)",
                "0 0 * * 0          | cron(0 0 ? * SUN *)",
                "0 0 * * 7          | cron(0 0 ? * SUN *)",
                "0 0 * * 5-7        | cron(0 0 ? * SUN,FRI-SAT *)",
                "0 0 * * sat,sun    | cron(0 0 ? * SUN,SAT *)",
                "0 12 1,15 * *      | cron(0 12 1,15 * ? *)",
                "0 6 * JAN-MAR *    | cron(0 6 * 1-3 ? *)",
                "0-30/10 */6 * * *  | cron(0,10,20,30 0/6 * * ? *)",
                "5 4 */1 * *        | cron(5 4 * * ? *)",
                "* * * * *          | cron(* * * * ? *)",
            })
    void unixExpression_translates_toTheExactEventBridgeExpression(String unix, String eventBridge) {
        assertThat(ScheduleExpression.parse(unix).toEventBridge()).isEqualTo(eventBridge);
    }

    @ParameterizedTest(name = "EventBridge {0} deploys unchanged")
    @CsvSource(
            delimiter = '|',
            value = {
                "cron(0 10 * * ? *)",
                "cron(0 18 ? * MON-FRI *)",
                "cron(0/5 8-17 ? * MON-FRI *)",
                "cron(15 10 ? * 6L 2022-2023)",
                "cron(0 9 ? * 2#1 *)",
                "cron(0 8 LW * ? *)",
                "cron(0 8 15W * ? *)",
                "cron(0 8 L * ? *)",
                "cron(1/10 * * * ? *)",
            })
    void eventBridgeExpression_inCanonicalForm_rendersUnchanged(String expression) {
        assertThat(ScheduleExpression.parse(expression).toEventBridge()).isEqualTo(expression);
    }

    @Test
    void eventBridgeExpression_withNumbersAndNames_rendersCanonically() {
        assertThat(ScheduleExpression.parse("cron(0 9 ? jan,feb 2-6 *)").toEventBridge())
                .isEqualTo("cron(0 9 ? 1-2 MON-FRI *)");
        assertThat(ScheduleExpression.parse("cron(0 9 ? * L *)").toEventBridge())
                .isEqualTo("cron(0 9 ? * SAT *)");
    }

    @Test
    void rateAndAt_renderAsEventBridgeWritesThem() {
        assertThat(ScheduleExpression.parse("rate(1 minute)").toEventBridge()).isEqualTo("rate(1 minute)");
        assertThat(ScheduleExpression.parse("rate(12 hours)").toEventBridge()).isEqualTo("rate(12 hours)");
        assertThat(ScheduleExpression.parse("at(2027-06-01T09:30:00)").toEventBridge())
                .isEqualTo("at(2027-06-01T09:30:00)");
    }

    @Test
    void describe_readsTheExpressionBackForPeople() {
        assertThat(ScheduleExpression.parse("0 9 * * 1-5").describe()).isEqualTo("at 09:00 on MON-FRI");
        assertThat(ScheduleExpression.parse("cron(0 9 ? * 2#1 *)").describe())
                .isEqualTo("at 09:00 on the first MON of the month");
        assertThat(ScheduleExpression.parse("cron(0/15 * L 2 ? 2028)").describe())
                .isEqualTo("at minute 0/15 of every hour on the last day of the month in FEB in year 2028");
    }

    @Test
    void unixExpression_outOfRangeDayOfWeek_namesFieldValueAndAcceptedRange() {
        assertThatThrownBy(() -> ScheduleExpression.parse("0 9 * * 8"))
                .isInstanceOf(ScheduleExpressionException.class)
                .hasMessageStartingWith("day-of-week: \"8\" is out of range")
                .hasMessageContaining("0-7 or SUN-SAT");
    }

    @Test
    void unixExpression_withSecondsField_isRefusedAsMoreThanOncePerMinute() {
        assertThatThrownBy(() -> ScheduleExpression.parse("*/10 * * * * *"))
                .hasMessageContaining("seconds")
                .hasMessageContaining("once a minute");
    }

    @Test
    void eventBridgeExpression_withSevenFields_isRefusedAsMoreThanOncePerMinute() {
        assertThatThrownBy(() -> ScheduleExpression.parse("cron(0 0 9 * * ? *)"))
                .hasMessageContaining("seconds");
    }

    @Test
    void unixExpression_restrictingDayOfMonthAndDayOfWeek_isRefusedWithTwoSchedulesSuggested() {
        assertThatThrownBy(() -> ScheduleExpression.parse("0 9 15 * MON"))
                .isInstanceOf(ScheduleExpressionException.class)
                .hasMessageContaining("either")
                .hasMessageContaining("two schedules")
                .hasMessageContaining("'0 9 15 * *' and '0 9 * * MON'");
    }

    @ParameterizedTest(name = "{0} is refused: {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "cron(0 9 * * * *)                | exactly one of them is ?",
                "cron(0 9 ? * ? *)                | are both ?",
                "cron(0 9 * * ? 2300)             | year: \"2300\" is out of range",
                "cron(60 9 * * ? *)               | minutes: \"60\" is out of range",
                "cron(0 24 * * ? *)               | hours: \"24\" is out of range",
                "cron(0 9 ? * 3#1,6#3 *)          | one # expression per field",
                "cron(0 9 ? * 2#6 *)              | 1-5 exist",
                "cron(0 9 ? * 8 *)                | day-of-week: \"8\" is out of range",
                "cron(0 9 ? * */2 *)              | does not allow",
                "cron(0 9 1,L * ? *)              | L or W inside a list",
                "cron(0 9 * * ?)                  | needs a year field",
                "cron(0 9 32 * ? *)               | day-of-month: \"32\" is out of range",
                "cron(0 9-5 * * ? *)              | write both parts: 9-23,0-5",
                "cron(0/30 20-2 ? * MON-FRI *)    | write both parts: 20-23,0-2",
                "cron(0 9 ? * FRI-MON *)          | write both parts: FRI-SAT,SUN-MON",
                "cron(0 9 L-3 * ? *)              | Quartz's L-n",
                "cron(0 9 L-3W * ? *)             | Quartz's L-n",
                "0 9 * * 1/2                      | Unix crons read differently",
                "0 9 * * MON/2                    | Unix crons read differently",
                "cron(0/120 * * * ? *)            | step of 120, longer than the field's 0-59",
                "cron(5/155 * * * ? *)            | only ever match 5",
                "0 0/24 * * *                     | step of 24",
                "rate(٥ minutes)                  | is not a whole number",
                "cron(٠ 9 * * ? *)                | is not understood",
                "０ ９ * * *                        | is not understood",
                "cron(0 9 * 13 ? *)               | month: \"13\" is out of range",
                "0 9 L * *                        | EventBridge syntax",
                "0 9 ? * 1                        | only EventBridge cron",
                "0 9 * *                          | has 4 fields",
                "rate(1 minutes)                  | requires 'minute'",
                "rate(5 minute)                   | requires 'minutes'",
                "rate(30 seconds)                 | more often than once a minute",
                "rate(0 minutes)                  | out of range",
                "rate(2 weeks)                    | is not a unit",
                "at(2027-02-30T09:00:00)          | not a valid local date-time",
                "at(2027-02-03 09:00)             | not a valid local date-time",
            })
    void invalidExpression_isRefused_withAMessageNamingThePart(String expression, String expected) {
        assertThatThrownBy(() -> ScheduleExpression.parse(expression))
                .isInstanceOf(ScheduleExpressionException.class)
                .hasMessageContaining(expected)
                .hasMessageContaining("accepted: ");
    }

    @Test
    void schedule_withoutZone_isRefusedBecauseUtcIsNeverAssumed() {
        assertThatThrownBy(() -> Schedule.parse("0 9 * * *", null))
                .hasMessageStartingWith("time-zone: \"\" is missing")
                .hasMessageContaining("write UTC");
        assertThatThrownBy(() -> Schedule.parse("0 9 * * *", " ")).hasMessageContaining("missing");
    }

    @Test
    void schedule_withUnknownOrOffsetZone_isRefused() {
        assertThatThrownBy(() -> Schedule.parse("0 9 * * *", "Mars/Olympus_Mons"))
                .hasMessageContaining("not a known time zone");
        assertThatThrownBy(() -> Schedule.parse("0 9 * * *", "+02:00")).hasMessageContaining("is an offset");
        assertThatThrownBy(() -> Schedule.parse("0 9 * * *", "GMT+2")).hasMessageContaining("not an IANA zone");
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({
        "europe/paris, Europe/Paris",
        "Europe/Pairs, Europe/Paris",
        "asia/seoul, Asia/Seoul"
    })
    void schedule_inAZoneMistypedOrInTheWrongCase_isRefused_suggestingTheZoneMeant(String typed, String meant) {
        assertThatThrownBy(() -> Schedule.parse("0 9 * * *", typed))
                .hasMessageContaining("is not a known time zone (did you mean " + meant + "?)");
    }

    @Test
    void schedule_inARetiredSystemVZone_isRefusedAtParse_namingAnIanaReplacement() {
        assertThatThrownBy(() -> Schedule.parse("0 9 * * *", "SystemV/EST5"))
                .hasMessageContaining("retired SystemV zone")
                .hasMessageContaining("Etc/GMT+5");
    }

    @Test
    void schedule_withUtcWrittenOut_isAccepted() {
        assertThat(Schedule.parse("0 9 * * *", "UTC").zone().getId()).isEqualTo("UTC");
    }

    @Test
    void atSchedule_inSpringForwardGap_isRefusedBecauseItWouldNeverRun() {
        assertThatThrownBy(() -> Schedule.parse("at(2027-03-28T02:30:00)", "Europe/Berlin"))
                .hasMessageContaining("does not exist in Europe/Berlin");
        assertThat(Schedule.parse("at(2027-03-28T02:30:00)", "UTC").toEventBridge())
                .isEqualTo("at(2027-03-28T02:30:00)");
    }
}
