package dev.punctual.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

class LifecycleEventTest {

    @Test
    void occurrencesMissed_detail_carriesTheRangeAndCountInStableOrder() {
        LifecycleEvent event = new LifecycleEvent.OccurrencesMissed(
                "dev",
                "expire",
                Instant.parse("2026-11-28T00:00:00Z"),
                Instant.parse("2026-11-29T00:00:00Z"),
                97,
                ZoneId.of("Asia/Seoul"));

        assertThat(event.detail().keySet())
                .containsExactly(
                        "stage",
                        "job",
                        "occurrence",
                        "occurrence_local",
                        "reason",
                        "attempts",
                        "first",
                        "last",
                        "count",
                        "needs_attention");
        assertThat(event.detail())
                .containsEntry("count", 97L)
                .containsEntry("first", "2026-11-28T00:00:00Z")
                .containsEntry("occurrence_local", "2026-11-28T09:00:00+09:00 Asia/Seoul");
    }

    @Test
    void runFailed_needsAttentionOnlyOnItsLastAttempt() {
        ZonedDateTime at = Instant.parse("2026-11-29T14:00:00Z").atZone(ZoneId.of("America/New_York"));
        LifecycleEvent retried =
                new LifecycleEvent.RunFailed("dev", "report", at, "SCHEDULED", "JOB_ERROR", "x", 1, 3, false);
        LifecycleEvent last =
                new LifecycleEvent.RunFailed("dev", "report", at, "SCHEDULED", "JOB_ERROR", "x", 3, 3, true);

        assertThat(retried.detail()).containsEntry("needs_attention", false).containsEntry("attempts", "1 of 3");
        assertThat(last.detail())
                .containsEntry("needs_attention", true)
                .containsEntry("occurrence", "2026-11-29T14:00:00Z")
                .containsEntry("occurrence_local", "2026-11-29T09:00:00-05:00 America/New_York");
    }

    @Test
    void runSucceeded_detail_carriesFenceAndDuration() {
        LifecycleEvent event = new LifecycleEvent.RunSucceeded(
                "prod", "report", Instant.parse("2026-11-29T14:00:00Z"), "MANUAL", 12, 830);

        assertThat(event.detailType()).isEqualTo("Punctual Run Succeeded");
        assertThat(event.detail()).containsEntry("fence", 12L).containsEntry("trigger", "MANUAL");
    }

    @Test
    void anEntitysEvents_carryTheEntityRightAfterTheJob_andAJobsOwnCarryNoEntityKey() {
        ZonedDateTime at = Instant.parse("2026-11-29T14:00:00Z").atZone(ZoneId.of("Europe/Paris"));
        LifecycleEvent failed =
                new LifecycleEvent.RunFailed("dev", "report", at, "MANUAL", "JOB_ERROR", "x", 1, 1, true, "acme");
        LifecycleEvent missed = new LifecycleEvent.OccurrencesMissed(
                "dev", "report", at.toInstant(), at.toInstant(), 1, at.getZone(), "acme");
        LifecycleEvent own = new LifecycleEvent.RunSucceeded("dev", "report", at.toInstant(), "MANUAL", 1, 2);

        assertThat(failed.detail().keySet()).startsWith("stage", "job", "entity", "occurrence");
        assertThat(failed.detail()).containsEntry("entity", "acme");
        assertThat(missed.detail()).containsEntry("entity", "acme");
        assertThat(own.detail()).doesNotContainKey("entity");
    }
}
