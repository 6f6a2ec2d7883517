package dev.punctual.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class LifecycleEventTest {

    @Test
    void occurrencesMissed_detail_carriesTheRangeAndCountInStableOrder() {
        LifecycleEvent event = new LifecycleEvent.OccurrencesMissed(
                "dev", "expire", Instant.parse("2026-11-28T00:00:00Z"), Instant.parse("2026-11-29T00:00:00Z"), 97);

        assertThat(event.detail().keySet()).containsExactly("stage", "job", "first", "last", "count");
        assertThat(event.detail()).containsEntry("count", 97L).containsEntry("first", "2026-11-28T00:00:00Z");
    }

    @Test
    void runSucceeded_detail_carriesFenceAndDuration() {
        LifecycleEvent event = new LifecycleEvent.RunSucceeded(
                "prod", "report", Instant.parse("2026-11-29T14:00:00Z"), "MANUAL", 12, 830);

        assertThat(event.detailType()).isEqualTo("Punctual Run Succeeded");
        assertThat(event.detail()).containsEntry("fence", 12L).containsEntry("trigger", "MANUAL");
    }
}
