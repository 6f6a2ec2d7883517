package dev.punctual.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One occurrence per local time on every path that takes a time from outside: a scheduled delivery or
 * a manual run naming either instant of a local time repeated by a fall-back transition is keyed at the
 * earlier instant, the one the calculator, catch-up and replay use. One golden case per kind of
 * fall-back rule; the instants are written out, not computed.
 */
class RepeatedLocalTimeGoldenTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        // zone,              schedule,    earlier instant,       later instant,         rule
        "Europe/Berlin,       30 2 * * *,  2027-10-31T00:30:00Z,  2027-10-31T01:30:00Z", // CEST to CET, 1 h
        "America/New_York,    30 1 * * *,  2027-11-07T05:30:00Z,  2027-11-07T06:30:00Z", // EDT to EST, 1 h
        "Australia/Lord_Howe, 45 1 * * *,  2027-04-03T14:45:00Z,  2027-04-03T15:15:00Z", // +11 to +10:30, 30 min
        "Europe/Dublin,       30 1 * * *,  2027-10-31T00:30:00Z,  2027-10-31T01:30:00Z", // negative DST in tzdb
    })
    void eitherInstantOfARepeatedLocalTime_isKeyedAtTheEarlierOne_scheduledAndManual(
            String zone, String schedule, Instant earlier, Instant later) {
        JobDefinition nightly = nightly(zone, schedule);
        InvocationResolver resolver = new InvocationResolver(Clock.fixed(later.plusSeconds(60), ZoneOffset.UTC));

        for (Instant delivered : new Instant[] {earlier, later}) {
            assertThat(resolver.resolve(new Invocation.Scheduled(RunSubject.of(nightly), delivered, "exec", 1, "arn")))
                    .as("scheduled at " + delivered)
                    .isEqualTo(new PayloadParser.Parsed.Valid(
                            new Invocation.Scheduled(RunSubject.of(nightly), earlier, "exec", 1, "arn")));
            assertThat(resolver.resolve(
                            new Invocation.ManualRun(RunSubject.of(nightly), Optional.of(delivered), false, false)))
                    .as("manual at " + delivered)
                    .isEqualTo(new PayloadParser.Parsed.Valid(
                            new Invocation.ManualRun(RunSubject.of(nightly), Optional.of(earlier), false, false)));
        }
    }

    private static JobDefinition nightly(String zone, String schedule) {
        return JobDefinition.builder("nightly")
                .schedule(schedule, zone)
                .job(services -> context -> JobResult.empty())
                .build();
    }
}
