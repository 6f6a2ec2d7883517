package dev.punctual.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** A rate() deploys as its UTC cron, so its deliveries are occurrences and nothing else is one. */
class InvocationResolverRateTest {

    private static final Instant NOW = Instant.parse("2027-03-29T00:30:00Z");

    private static final JobDefinition QUARTERLY = JobDefinition.builder("quarterly")
            .schedule("rate(15 minutes)", "Europe/Berlin")
            .job(services -> context -> JobResult.empty())
            .build();

    private final InvocationResolver resolver = new InvocationResolver(Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void scheduledDelivery_ofARateAtItsOccurrence_isValid() {
        Invocation.Scheduled delivery = delivery("2027-03-29T00:15:00Z");

        assertThat(resolver.resolve(delivery)).isEqualTo(new PayloadParser.Parsed.Valid(delivery));
    }

    @Test
    void scheduledDelivery_ofARateBetweenItsOccurrences_isRecordedAsNotAnOccurrence() {
        PayloadParser.Parsed parsed = resolver.resolve(delivery("2027-03-29T00:07:00Z"));

        assertThat(parsed)
                .isInstanceOfSatisfying(
                        PayloadParser.Parsed.Valid.class,
                        valid -> assertThat(valid.invocation()).isInstanceOf(Invocation.NotAnOccurrence.class));
    }

    private static Invocation.Scheduled delivery(String at) {
        return new Invocation.Scheduled(
                RunSubject.of(QUARTERLY),
                Instant.parse(at),
                "exec-1",
                1,
                "arn:aws:scheduler:eu-central-1:1:schedule/g/quarterly");
    }
}
