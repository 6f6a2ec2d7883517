package dev.punctual.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.catchup.CatchUpPolicy;
import dev.punctual.job.EntityJob;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A put's checks: every refusal names its field and what is accepted; what passes is what runs. */
class EntityScheduleTest {

    private static final JobDefinition TENANT_REPORT = JobDefinition.builder("tenant-report")
            .schedule("0 9 * * *", "UTC")
            .perEntity(EntityJob.parameters("locale", "copies"))
            .job(services -> context -> JobResult.empty())
            .build();

    @Test
    void withoutAnExpression_anEntityTakesTheJobsExpression_inItsOwnZone() {
        EntitySchedule s = EntitySchedule.of(TENANT_REPORT, "acme", null, "Europe/Paris", Map.of("locale", "fr"));

        assertThat(s.schedule().expression().source()).isEqualTo("0 9 * * *");
        assertThat(s.schedule().zone().getId()).isEqualTo("Europe/Paris");
        assertThat(s.parameters()).containsExactly(Map.entry("locale", "fr"));
        assertThat(s.name()).isEqualTo("tenant-report.acme");
        assertThat(s.ledgerId()).isEqualTo("tenant-report:acme");
    }

    @Test
    void anEntityMayHaveItsOwnExpression_inAnyDialect_aOneTimeAtIncluded() {
        EntitySchedule s = EntitySchedule.of(TENANT_REPORT, "acme", "at(2027-01-15T09:00:00)", "Asia/Seoul", Map.of());

        assertThat(s.schedule().expression().source()).isEqualTo("at(2027-01-15T09:00:00)");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "no zone            | acme | 0 9 * * *   |               | zone       | there is no default",
                "unknown zone       | acme | 0 9 * * *   | Europe/Pairs  | zone       | did you mean Europe/Paris?",
                "bad expression     | acme | 0 9 * * 8   | UTC           | schedule   | day-of-week",
                "bad entity id      | a/b  | 0 9 * * *   | UTC           | entity     | letters, digits",
                "empty entity id    | ''   | 0 9 * * *   | UTC           | entity     | 1-128 characters",
                "too far apart      | acme | 0 9 1 * *   | UTC           | schedule   | longer than the job's catch-up",
                "rate no cron fits  | acme | rate(7 minutes) | UTC       | schedule   | rate",
            })
    void aPutThatBreaksARule_isRefusedNamingTheField(
            String scenario, String entity, String expression, String zone, String field, String says) {
        JobDefinition weeklyCatchUp = JobDefinition.builder("tenant-report")
                .schedule("0 9 * * *", "UTC")
                .catchUp(CatchUpPolicy.oldestFirst(3, Duration.ofDays(8)))
                .perEntity(EntityJob.parameters("locale"))
                .job(services -> context -> JobResult.empty())
                .build();

        assertRefused(() -> EntitySchedule.of(weeklyCatchUp, entity, expression, zone, Map.of()), field, says);
    }

    @ParameterizedTest(name = "zone \"{0}\"")
    @CsvSource(
            delimiter = '|',
            value = {"' Europe/Paris'", "'Europe/Paris '", "'	UTC'"})
    void aZoneWithWhiteSpaceAroundIt_isRefusedNamingZone_notTrimmed(String zone) {
        assertRefused(
                () -> EntitySchedule.of(TENANT_REPORT, "acme", null, zone, Map.of()),
                "zone",
                "has white space around it; accepted: the zone id alone");
    }

    @Test
    void forAWriter_aScheduleWithoutAnOccurrenceAfterNow_isRefusedNamingSchedule() {
        java.time.Instant now = java.time.Instant.parse("2026-11-30T14:00:02Z");
        EntitySchedule past = EntitySchedule.of(TENANT_REPORT, "acme", "at(2026-11-30T09:00:00)", "UTC", Map.of());
        EntitySchedule future = EntitySchedule.of(TENANT_REPORT, "acme", "at(2026-11-30T15:00:00)", "UTC", Map.of());

        assertRefused(
                () -> past.requireOccurrenceAfter(now),
                "schedule",
                "'at(2026-11-30T09:00:00)' in UTC has no occurrence after now (2026-11-30T14:00:02Z)");
        assertThat(future.requireOccurrenceAfter(now)).isSameAs(future);
        assertThat(EntitySchedule.of(TENANT_REPORT, "acme", null, "UTC", Map.of())
                        .requireOccurrenceAfter(now))
                .isNotNull();
    }

    @Test
    void forAWriter_anExpressionThatMatchesNoDate_isRefusedNamingSchedule() {
        assertRefused(
                () -> EntitySchedule.of(TENANT_REPORT, "acme", "0 9 30 2 *", "UTC", Map.of())
                        .requireOccurrenceAfter(java.time.Instant.parse("2026-11-30T14:00:02Z")),
                "schedule",
                "'0 9 30 2 *'");
    }

    @Test
    void aParameterTheJobDoesNotDeclare_isRefused_withTheKeyItProbablyMeant() {
        assertRefused(
                () -> EntitySchedule.of(TENANT_REPORT, "acme", null, "UTC", Map.of("locael", "fr")),
                "parameters.locael",
                "accepted: locale, copies (did you mean locale?)");
    }

    @Test
    void aParameterThatIsNotAScalar_isRefused() {
        assertRefused(
                () -> EntitySchedule.of(TENANT_REPORT, "acme", null, "UTC", Map.of("locale", Map.of("x", 1))),
                "parameters.locale",
                "must be a string, a number or true/false");
    }

    @Test
    void parametersLargerThanTheBound_areRefused_andAtTheBoundAccepted() {
        Map<String, Object> atBound = new LinkedHashMap<>();
        // {"locale":"..."} is 13 characters besides the value.
        atBound.put("locale", "x".repeat(EntityJob.MAX_PARAMETER_CHARS - 13));
        EntitySchedule.of(TENANT_REPORT, "acme", null, "UTC", atBound);
        atBound.put("locale", "x".repeat(EntityJob.MAX_PARAMETER_CHARS - 12));

        assertRefused(
                () -> EntitySchedule.of(TENANT_REPORT, "acme", null, "UTC", atBound),
                "parameters",
                "accepted: at most " + EntityJob.MAX_PARAMETER_CHARS);
    }

    @Test
    void wholeNumbers_areKeptAsJsonReadsThemBack_soAPutAndItsReadBackAreEqual() {
        EntitySchedule s = EntitySchedule.of(TENANT_REPORT, "acme", null, "UTC", Map.of("copies", 2));

        assertThat(s.parameters()).containsExactly(Map.entry("copies", 2L));
    }

    @Test
    void aJobWithOneScheduleOfItsOwn_takesNoEntitySchedule() {
        JobDefinition nightly = JobDefinition.builder("nightly")
                .schedule("0 2 * * *", "UTC")
                .job(services -> context -> JobResult.empty())
                .build();

        assertRefused(() -> EntitySchedule.of(nightly, "acme", null, "UTC", Map.of()), "job", "perEntity(");
    }

    private static void assertRefused(ThrowableAssert.ThrowingCallable put, String field, String says) {
        assertThatThrownBy(put)
                .isInstanceOfSatisfying(
                        EntityScheduleException.class,
                        e -> assertThat(e.field()).isEqualTo(field))
                .hasMessageStartingWith(field + ": ")
                .hasMessageContaining(says);
    }
}
