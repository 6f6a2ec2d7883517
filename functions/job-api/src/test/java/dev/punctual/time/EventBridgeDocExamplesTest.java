package dev.punctual.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The cron examples of the EventBridge Scheduler and EventBridge user guides, in UTC. The expected
 * instants were worked out by hand from a calendar (2027-03-01 is a Monday).
 */
class EventBridgeDocExamplesTest {

    private static List<String> firstThree(String expression, String after) {
        var calculator = OccurrenceCalculator.of(Schedule.parse(expression, "UTC"));
        List<String> found = new ArrayList<>();
        Instant cursor = Instant.parse(after);
        for (int i = 0; i < 3; i++) {
            var next = calculator.next(cursor);
            if (next.isEmpty()) {
                break;
            }
            cursor = next.get();
            found.add(cursor.toString());
        }
        return found;
    }

    @ParameterizedTest(name = "{0}: {5}")
    @CsvSource(
            delimiter = '|',
            value = {
                "cron(0 10 * * ? *)            | 2027-03-01T00:00:00Z | 2027-03-01T10:00:00Z | 2027-03-02T10:00:00Z | 2027-03-03T10:00:00Z | 10:00 every day",
                "cron(15 12 * * ? *)           | 2027-03-01T00:00:00Z | 2027-03-01T12:15:00Z | 2027-03-02T12:15:00Z | 2027-03-03T12:15:00Z | 12:15 every day",
                "cron(0 18 ? * MON-FRI *)      | 2027-03-05T19:00:00Z | 2027-03-08T18:00:00Z | 2027-03-09T18:00:00Z | 2027-03-10T18:00:00Z | 18:00 Monday to Friday",
                "cron(0 8 1 * ? *)             | 2027-03-01T09:00:00Z | 2027-04-01T08:00:00Z | 2027-05-01T08:00:00Z | 2027-06-01T08:00:00Z | 08:00 on the first of the month",
                "cron(0/15 * * * ? *)          | 2027-03-01T00:00:00Z | 2027-03-01T00:15:00Z | 2027-03-01T00:30:00Z | 2027-03-01T00:45:00Z | every 15 minutes",
                "cron(0/10 * ? * MON-FRI *)    | 2027-03-05T23:55:00Z | 2027-03-08T00:00:00Z | 2027-03-08T00:10:00Z | 2027-03-08T00:20:00Z | every 10 minutes Monday to Friday",
                "cron(0/5 8-17 ? * MON-FRI *)  | 2027-03-01T17:52:00Z | 2027-03-01T17:55:00Z | 2027-03-02T08:00:00Z | 2027-03-02T08:05:00Z | every 5 minutes 08:00-17:55 Monday to Friday",
                "cron(0 9 ? * 2#1 *)           | 2027-03-01T00:00:00Z | 2027-03-01T09:00:00Z | 2027-04-05T09:00:00Z | 2027-05-03T09:00:00Z | 09:00 on the first Monday of each month",
                "cron(1/10 * * * ? *)          | 2027-03-01T00:00:00Z | 2027-03-01T00:01:00Z | 2027-03-01T00:11:00Z | 2027-03-01T00:21:00Z | every tenth minute from minute 1",
                "cron(0 12 3W * ? *)           | 2027-04-01T00:00:00Z | 2027-04-02T12:00:00Z | 2027-05-03T12:00:00Z | 2027-06-03T12:00:00Z | weekday nearest the 3rd (Sat 3 Apr -> Fri 2)",
                "cron(0 12 ? * 3#2 *)          | 2027-03-01T00:00:00Z | 2027-03-09T12:00:00Z | 2027-04-13T12:00:00Z | 2027-05-11T12:00:00Z | second Tuesday",
                "cron(15 10 ? * 6L 2022-2023)  | 2023-10-01T00:00:00Z | 2023-10-27T10:15:00Z | 2023-11-24T10:15:00Z | 2023-12-29T10:15:00Z | last Friday in 2022-2023",
                "cron(0 8 L * ? *)             | 2028-01-31T09:00:00Z | 2028-02-29T08:00:00Z | 2028-03-31T08:00:00Z | 2028-04-30T08:00:00Z | last day of the month, leap year",
                "cron(0 8 LW * ? *)            | 2027-04-01T00:00:00Z | 2027-04-30T08:00:00Z | 2027-05-31T08:00:00Z | 2027-06-30T08:00:00Z | last weekday of the month",
            })
    void documentedExample_inUtc_runsAtTheDocumentedTimes(
            String expression, String after, String first, String second, String third, String meaning) {
        assertThat(firstThree(expression, after)).as(meaning).containsExactly(first, second, third);
    }

    @ParameterizedTest(name = "{0} ends after {1}")
    @CsvSource(
            delimiter = '|',
            value = {"cron(15 10 ? * 6L 2022-2023) | 2023-12-29T10:15:00Z"})
    void expressionWithYearRange_afterItsLastYear_hasNoNextOccurrence(String expression, String last) {
        var calculator = OccurrenceCalculator.of(Schedule.parse(expression, "UTC"));
        assertThat(calculator.next(Instant.parse(last))).isEmpty();
        assertThat(calculator.previous(Instant.parse("2030-01-01T00:00:00Z"))).contains(Instant.parse(last));
    }
}
