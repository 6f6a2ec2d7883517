package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.job.JobCatalog;
import dev.punctual.runtime.Invocation;
import dev.punctual.runtime.PayloadParser;
import dev.punctual.runtime.ScheduledPayload;
import dev.punctual.time.OccurrenceCalculator;
import dev.punctual.time.Schedule;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.services.scheduler.ContextAttribute;

/**
 * One contract between infra and functions: what the CDK app writes into each schedule's target input,
 * filled in the way EventBridge Scheduler fills it, is a valid scheduled invocation of that job for the
 * handler's own payload reader, at an instant the deployed expression fires.
 */
class PayloadContractTest {

    @Test
    void everyJobSchedulesInput_filledAsTheSchedulerFillsIt_parsesAsAScheduledRunOfThatJobAtAnOccurrence() {
        Map<String, Map<String, Object>> schedules = new java.util.LinkedHashMap<>();
        Templates.jobSchedules(Synth.stage("dev"))
                .forEach((name, located) -> schedules.put(name, located.properties()));

        assertHonoured(schedules, Synth.CATALOG);
    }

    @Test
    void aSpreadJobsSchedule_firesItsOffsetAfterEachOccurrence_andItsInputCarriesTheOffset() {
        dev.punctual.job.JobDefinition spread = dev.punctual.job.JobDefinition.builder("hourly-sync")
                .schedule("0 * * * *", "Europe/Berlin")
                .spreadOver(java.time.Duration.ofMinutes(20))
                .job(s -> c -> dev.punctual.job.JobResult.empty())
                .build();
        JobCatalog catalog = JobCatalog.of(spread);
        Map<String, Map<String, Object>> schedules = new java.util.LinkedHashMap<>();
        Templates.jobSchedules(Synth.stage(Stages.named("dev"), catalog))
                .forEach((name, located) -> schedules.put(name, located.properties()));
        Map<String, Object> deployed = schedules.get("hourly-sync");

        assertThat(spread.offsetMinutes()).isPositive();
        assertThat(deployed.get("ScheduleExpression")).isEqualTo("cron(" + spread.offsetMinutes() + " * * * ? *)");
        assertThat((String) ((Map<?, ?>) deployed.get("Target")).get("Input"))
                .startsWith("{\"kind\":\"scheduled\",\"job\":\"hourly-sync\",\"offset_minutes\":"
                        + spread.offsetMinutes() + ",\"scheduled_time\":");
        assertHonoured(schedules, catalog);
    }

    /**
     * Checks the contract on job schedules' properties, by schedule name: exactly the catalog's jobs with
     * one schedule (a per-entity job's schedules are its entities', written at run time, decision 0029),
     * each input a valid scheduled invocation of its job at an instant its deployed expression fires.
     */
    static void assertHonoured(Map<String, Map<String, Object>> schedules, JobCatalog catalog) {
        assertThat(schedules.keySet())
                .containsExactlyInAnyOrderElementsOf(catalog.jobs().stream()
                        .filter(job -> !job.isPerEntity())
                        .map(dev.punctual.job.JobDefinition::id)
                        .toList());
        schedules.forEach((name, properties) -> {
            Instant fires = firstDeliveryOfAnOccurrence(properties, catalog.require(name));
            String input = (String) ((Map<?, ?>) properties.get("Target")).get("Input");

            PayloadParser.Parsed parsed = new PayloadParser(catalog).parse(filled(input, name, fires));

            assertThat(parsed).as(name).isInstanceOf(PayloadParser.Parsed.Valid.class);
            Invocation invocation = ((PayloadParser.Parsed.Valid) parsed).invocation();
            // A spread job's schedule fires its offset after the occurrence it delivers (decision 0035).
            Instant occurrence = fires.minusSeconds(60L * catalog.require(name).offsetMinutes());
            assertThat(invocation)
                    .as(name)
                    .isEqualTo(new Invocation.Scheduled(
                            dev.punctual.runtime.RunSubject.of(catalog.require(name)),
                            occurrence,
                            "b5f9c3e2-exec",
                            2,
                            arn(name)));
            assertThat(OccurrenceCalculator.of(catalog.require(name).schedule()).isOccurrence(occurrence))
                    .as(name + ": the delivery at " + fires + " is for " + occurrence
                            + ", an occurrence of the catalog's schedule")
                    .isTrue();
        });
    }

    /**
     * The deployed input, written out: field names are a contract with every function version that may
     * receive a delivery (a retry, a redriven dead letter), so a rename shows here first and goes through
     * {@code RenamedFields} (docs/decisions/0028-payload-fields-in-snake-case.md), never by accident.
     */
    @Test
    void everyJobSchedulesInput_isExactlyThePinnedSnakeCasePayload() {
        Templates.jobSchedules(Synth.stage("dev")).forEach((name, located) -> {
            String input = (String) ((Map<?, ?>) located.properties().get("Target")).get("Input");

            assertThat(input)
                    .as(name)
                    .isEqualTo("{\"kind\":\"scheduled\",\"job\":\"" + name + "\","
                            + "\"scheduled_time\":\"<aws.scheduler.scheduled-time>\","
                            + "\"execution_id\":\"<aws.scheduler.execution-id>\","
                            + "\"attempt_number\":\"<aws.scheduler.attempt-number>\","
                            + "\"schedule_arn\":\"<aws.scheduler.schedule-arn>\"}");
        });
    }

    @Test
    void placeholders_areTheCdksContextAttributes() {
        assertThat(ScheduledPayload.SCHEDULED_TIME_ATTRIBUTE).isEqualTo(ContextAttribute.getScheduledTime());
        assertThat(ScheduledPayload.EXECUTION_ID_ATTRIBUTE).isEqualTo(ContextAttribute.getExecutionId());
        assertThat(ScheduledPayload.ATTEMPT_NUMBER_ATTRIBUTE).isEqualTo(ContextAttribute.getAttemptNumber());
        assertThat(ScheduledPayload.SCHEDULE_ARN_ATTRIBUTE).isEqualTo(ContextAttribute.getScheduleArn());
    }

    /**
     * The deployed expression's first firing (after the reference) that delivers an occurrence of the job's schedule. For every
     * kind but an RRULE that is its first firing; an RRULE is deployed as a cron containing it, whose other
     * firings are answered {@code OUTSIDE_RULE} (decision 0049), so the search goes on to the first that is
     * the rule's, within a bounded number of firings: a deployed cron that never delivers one fails here.
     */
    static Instant firstDeliveryOfAnOccurrence(
            Map<String, Object> scheduleProperties, dev.punctual.job.JobDefinition job) {
        Schedule deployed = Schedule.parse((String) scheduleProperties.get("ScheduleExpression"), (String)
                scheduleProperties.get("ScheduleExpressionTimezone"));
        OccurrenceCalculator firings = OccurrenceCalculator.of(deployed);
        OccurrenceCalculator rule = OccurrenceCalculator.of(job.schedule());
        Instant fires = firings.next(Cadence.REFERENCE).orElseThrow();
        for (int firing = 0; firing < 1000; firing++) {
            if (rule.isOccurrence(fires.minusSeconds(60L * job.offsetMinutes()))) {
                return fires;
            }
            fires = firings.next(fires).orElseThrow();
        }
        throw new AssertionError(job.id() + ": none of the first 1000 firings of " + deployed
                + " delivers an occurrence of its schedule");
    }

    /** What the scheduler substitutes: the nominal time as text, the attempt number as text too. */
    private static String filled(String input, String name, Instant scheduledTime) {
        return input.replace(ScheduledPayload.SCHEDULED_TIME_ATTRIBUTE, scheduledTime.toString())
                .replace(ScheduledPayload.EXECUTION_ID_ATTRIBUTE, "b5f9c3e2-exec")
                .replace(ScheduledPayload.ATTEMPT_NUMBER_ATTRIBUTE, "2")
                .replace(ScheduledPayload.SCHEDULE_ARN_ATTRIBUTE, arn(name));
    }

    private static String arn(String name) {
        return "arn:aws:scheduler:eu-central-1:123456789012:schedule/punctual-dev/" + name;
    }
}
