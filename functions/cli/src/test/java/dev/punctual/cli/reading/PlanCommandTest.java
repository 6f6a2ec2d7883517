package dev.punctual.cli.reading;

import static dev.punctual.fixtures.FixtureCatalog.DAILY;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.cli.PunctualCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PlanCommandTest {
    private static final Clock NOW = Clock.fixed(Instant.parse("2027-03-27T12:00:00Z"), ZoneOffset.UTC);

    record Result(int exitCode, String out, String err) {}

    private static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exitCode = PunctualCli.execute(new PrintWriter(out), new PrintWriter(err), NOW, args);
        return new Result(exitCode, out.toString(), err.toString());
    }

    @Test
    void planJson_berlinDailyAt0230AcrossSpringForward_listsOccurrencesAndTheSkippedLocalTime() throws Exception {
        Result result = run(
                "plan",
                "--schedule",
                "30 2 * * *",
                "--zone",
                "Europe/Berlin",
                "--from",
                "2027-03-27T00:00:00Z",
                "--to",
                "2027-03-30T00:30:00Z",
                "--json");

        assertThat(result.exitCode()).isZero();
        assertThat(result.err()).isEmpty();
        JsonNode json = new ObjectMapper().readTree(result.out());
        assertThat(json.get("deployed").asText()).isEqualTo("cron(30 2 * * ? *)");
        assertThat(json.get("zone").asText()).isEqualTo("Europe/Berlin");
        JsonNode occurrences = json.get("occurrences");
        assertThat(occurrences).hasSize(2);
        assertThat(occurrences.get(0).get("utc").asText()).isEqualTo("2027-03-27T01:30:00Z");
        assertThat(occurrences.get(0).get("local").asText()).isEqualTo("2027-03-27T02:30:00+01:00");
        assertThat(occurrences.get(1).get("utc").asText()).isEqualTo("2027-03-29T00:30:00Z");
        assertThat(occurrences.get(1).get("local").asText()).isEqualTo("2027-03-29T02:30:00+02:00");
        assertThat(json.get("skipped")).hasSize(1);
        assertThat(json.get("skipped").get(0).get("note").asText()).contains("does not exist");
    }

    /** Decision 0049: deployed as its containing cron; after its COUNT, no more occurrences, said as such. */
    @Test
    void planOfAnRruleWithCount_namesTheDeployedCron_andSaysNoMoreOccurrencesAfterTheLast() throws Exception {
        String rule = "DTSTART:20270104T090000 RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;COUNT=3";
        Result text = run(
                "plan",
                "--schedule",
                rule,
                "--zone",
                "Europe/Berlin",
                "--from",
                "2027-01-01T00:00:00Z",
                "--count",
                "10");
        Result json = run(
                "plan",
                "--schedule",
                rule,
                "--zone",
                "Europe/Berlin",
                "--from",
                "2027-01-01T00:00:00Z",
                "--count",
                "10",
                "--json");

        assertThat(text.exitCode()).as(text.err()).isZero();
        assertThat(text.out())
                .contains("expression  cron(0 9 ? * MON 2027)")
                .contains("answered OUTSIDE_RULE, with no ledger write")
                .contains("2027-02-01T08:00:00Z")
                .doesNotContain("2027-01-11T08:00:00Z")
                .contains(
                        "no more occurrences: the rule's COUNT or UNTIL has ended it (the last was 2027-02-01T08:00:00Z)");
        JsonNode tree = new ObjectMapper().readTree(json.out());
        assertThat(tree.get("deployed").asText()).isEqualTo("cron(0 9 ? * MON 2027)");
        assertThat(tree.get("occurrences")).hasSize(3);
        assertThat(tree.get("no_more_occurrences").asBoolean()).isTrue();
    }

    @Test
    void planOfAnRruleWithOccurrencesLeft_doesNotSayItEnded() throws Exception {
        Result json = run(
                "plan",
                "--schedule",
                "DTSTART:20270104T090000 RRULE:FREQ=WEEKLY;COUNT=30",
                "--zone",
                "Europe/Berlin",
                "--from",
                "2027-01-01T00:00:00Z",
                "--count",
                "3",
                "--json");

        assertThat(json.exitCode()).as(json.err()).isZero();
        assertThat(new ObjectMapper()
                        .readTree(json.out())
                        .get("no_more_occurrences")
                        .asBoolean())
                .isFalse();
    }

    @Test
    void planJson_toIsExclusive_anOccurrenceExactlyAtToIsLeftOut() throws Exception {
        Result result = run(
                "plan",
                "--schedule",
                "0 * * * *",
                "--zone",
                "UTC",
                "--from",
                "2027-01-01T00:00:00Z",
                "--to",
                "2027-01-01T02:00:00Z",
                "--json");
        JsonNode occurrences = new ObjectMapper().readTree(result.out()).get("occurrences");
        assertThat(occurrences).hasSize(2);
        assertThat(occurrences.get(1).get("utc").asText()).isEqualTo("2027-01-01T01:00:00Z");
    }

    @Test
    void planJson_fallBackRepeatedHour_notesTheMergedOccurrence() throws Exception {
        Result result = run(
                "plan",
                "--schedule",
                "cron(30 1 * * ? *)",
                "--zone",
                "America/New_York",
                "--from",
                "2027-11-07T00:00:00Z",
                "--count",
                "1",
                "--json");
        JsonNode occurrence =
                new ObjectMapper().readTree(result.out()).get("occurrences").get(0);
        assertThat(occurrence.get("utc").asText()).isEqualTo("2027-11-07T05:30:00Z");
        assertThat(occurrence.get("local").asText()).isEqualTo("2027-11-07T01:30:00-04:00");
        assertThat(occurrence.get("note").asText()).contains("occurs twice", "runs once");
    }

    @Test
    void planWithoutFrom_countOfThree_startsAtTheInjectedClock() throws Exception {
        Result result = run("plan", "--schedule", "0 9 * * 1-5", "--zone", "UTC", "--count", "3", "--json");
        JsonNode occurrences = new ObjectMapper().readTree(result.out()).get("occurrences");
        assertThat(occurrences)
                .extracting(node -> node.get("utc").asText())
                .containsExactly("2027-03-29T09:00:00Z", "2027-03-30T09:00:00Z", "2027-03-31T09:00:00Z");
    }

    @Test
    void planText_showsExpressionAndOneLinePerOccurrence() {
        Result result = run(
                "plan",
                "--schedule",
                "0 9 * * 1-5",
                "--zone",
                "Europe/Berlin",
                "--from",
                "2027-03-29T00:00:00Z",
                "--count",
                "2");
        assertThat(result.exitCode()).isZero();
        assertThat(result.out())
                .contains("expression  cron(0 9 ? * MON-FRI *)")
                .contains("2027-03-29T07:00:00Z   2027-03-29T09:00:00+02:00")
                .contains("2027-03-30T07:00:00Z   2027-03-30T09:00:00+02:00");
    }

    @Test
    void planText_ofARate_showsTheUtcCronTheCdkDeploys() {
        Result result = run(
                "plan",
                "--schedule",
                "rate(15 minutes)",
                "--zone",
                "Europe/Berlin",
                "--from",
                "2027-03-29T00:00:00Z",
                "--count",
                "1");

        assertThat(result.exitCode()).isZero();
        assertThat(result.out()).contains("expression  cron(0/15 * * * ? *) in UTC");
    }

    @Test
    void planJson_ofARateNoCronExpresses_saysItIsNotDeployable() throws Exception {
        Result result = run(
                "plan",
                "--schedule",
                "rate(90 minutes)",
                "--zone",
                "UTC",
                "--from",
                "2027-03-29T00:00:00Z",
                "--count",
                "1",
                "--json");

        assertThat(result.exitCode()).isZero();
        assertThat(new ObjectMapper().readTree(result.out()).get("deployed").asText())
                .startsWith("not deployable: rate: \"rate(90 minutes)\" cannot be deployed");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "bad expression             | plan --schedule '0 9 * * 8' --zone UTC --count 1                 | --schedule: day-of-week",
                "unknown zone               | plan --schedule '0 9 * * 1' --zone Mars/Base --count 1           | --zone: \"Mars/Base\" is not a known time zone",
                "misspelled zone            | plan --schedule '0 9 * * 1' --zone Europe/Pairs --count 1        | did you mean Europe/Paris?",
                "zone in lower case         | plan --schedule '0 9 * * 1' --zone europe/paris --count 1        | did you mean Europe/Paris?",
                "missing zone               | plan --schedule '0 9 * * 1' --count 1                            | --zone",
                "bad from                   | plan --schedule '0 9 * * 1' --zone UTC --from tomorrow --count 1 | --from",
                "local from without offset  | plan --schedule '0 9 * * 1' --zone UTC --from 2027-01-01T00:00 --count 1 | --from",
                "bad to                     | plan --schedule '0 9 * * 1' --zone UTC --to never                | --to",
                "to before from             | plan --schedule '0 9 * * 1' --zone UTC --from 2027-01-02T00:00:00Z --to 2027-01-01T00:00:00Z | not after",
                "both to and count          | plan --schedule '0 9 * * 1' --zone UTC --to 2028-01-01T00:00:00Z --count 3 | --to, --count: not together",
                "neither to nor count       | plan --schedule '0 9 * * 1' --zone UTC                          | --to",
                "zero count                 | plan --schedule '0 9 * * 1' --zone UTC --count 0                 | --count",
                "negative count             | plan --schedule '0 9 * * 1' --zone UTC --count -5                | --count",
                "absurd count               | plan --schedule '0 9 * * 1' --zone UTC --count 99999999          | --count",
                "non-numeric count          | plan --schedule '0 9 * * 1' --zone UTC --count lots              | --count",
                "too many in window         | plan --schedule '* * * * *' --zone UTC --from 2027-01-01T00:00:00Z --to 2028-01-01T00:00:00Z | --count",
                "seconds field              | plan --schedule '0 */5 * * * *' --zone UTC --count 1             | once a minute",
                "unknown option             | plan --schedule '0 9 * * 1' --zone UTC --count 1 --bogus          | --bogus",
            })
    void invalidPlanInput_exitsTwoWithOneStderrLineAndNothingOnStdout(String scenario, String line, String mention) {
        Result result = run(split(line));
        assertThat(result.exitCode()).as(scenario).isEqualTo(2);
        assertThat(result.out()).as(scenario).isEmpty();
        assertThat(result.err().lines()).as(scenario).hasSize(1);
        assertThat(result.err()).as(scenario).startsWith("punctual plan: ").contains(mention);
        assertThat(result.err())
                .as(scenario + ": names the option, not the schedule model's part")
                .doesNotContain("time-zone");
    }

    /** Splits like a shell would for these lines: single quotes group words. */
    private static String[] split(String line) {
        var words = new java.util.ArrayList<String>();
        var matcher = java.util.regex.Pattern.compile("'([^']*)'|(\\S+)").matcher(line);
        while (matcher.find()) {
            words.add(matcher.group(1) != null ? matcher.group(1) : matcher.group(2));
        }
        return words.toArray(String[]::new);
    }

    @Test
    void planJob_ofTheCatalog_usesItsScheduleAndZone() throws Exception {
        Result result = run("plan", "--job", DAILY, "--from", "2027-03-13T00:00:00Z", "--count", "2", "--json");

        assertThat(result.exitCode()).isZero();
        JsonNode json = new ObjectMapper().readTree(result.out());
        assertThat(json.get("zone").asText()).isEqualTo("America/New_York");
        assertThat(json.at("/occurrences/0/utc").asText()).isEqualTo("2027-03-13T14:00:00Z");
        assertThat(json.at("/occurrences/1/utc").asText()).isEqualTo("2027-03-14T13:00:00Z");
    }

    @Test
    void planJob_unknownId_exitsTwoListingTheKnownJobs() {
        Result result = run("plan", "--job", "nope", "--count", "1");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.out()).isEmpty();
        assertThat(result.err()).contains("--job: 'nope'", DAILY);
    }

    @Test
    void plan_withBothJobAndSchedule_exitsTwo() {
        Result result = run("plan", "--job", DAILY, "--schedule", "0 9 * * *", "--zone", "UTC", "--count", "1");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.out()).isEmpty();
    }
}
