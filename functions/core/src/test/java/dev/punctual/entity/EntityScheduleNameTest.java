package dev.punctual.entity;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** One name per (job, entity), within EventBridge Scheduler's name rules, readable where it fits. */
class EntityScheduleNameTest {

    private static final Pattern SCHEDULER_NAME = Pattern.compile("[0-9a-zA-Z_.-]{1,64}");

    @Test
    void aShortPlainEntityId_givesTheReadableName() {
        assertThat(EntityScheduleName.of("tenant-report", "acme")).isEqualTo("tenant-report.acme");
        assertThat(EntityScheduleName.of("tenant-report", "acme.eu-1")).isEqualTo("tenant-report.acme.eu-1");
    }

    @Test
    void anIdWithAColonOrTooLong_givesAHashedName_stillUnderTheJobsPrefix_andWithinTheRules() {
        String colon = EntityScheduleName.of("tenant-report", "org:42");
        String longId = EntityScheduleName.of("tenant-report", "a".repeat(128));

        assertThat(colon).startsWith("tenant-report..").matches(SCHEDULER_NAME);
        assertThat(longId).startsWith("tenant-report..").matches(SCHEDULER_NAME);
        assertThat(colon).isNotEqualTo(longId);
        assertThat(EntityScheduleName.of("tenant-report", "org:42"))
                .as("the same on every put")
                .isEqualTo(colon);
    }

    @Test
    void theLongestJobId_withAHashedName_fitsSixtyFourCharacters() {
        String job = "j" + "x".repeat(47);

        assertThat(EntityScheduleName.of(job, "org:1")).matches(SCHEDULER_NAME).hasSize(64);
    }

    @Test
    void tenThousandEntities_getTenThousandNames() {
        Set<String> names = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            names.add(EntityScheduleName.of("tenant-report", "org:" + i));
        }

        assertThat(names).hasSize(10_000);
    }

    @Test
    void theEntityGroup_isBesideTheStagesJobGroup() {
        assertThat(EntityScheduleName.group("dev")).isEqualTo("punctual-dev-entities");
    }
}
