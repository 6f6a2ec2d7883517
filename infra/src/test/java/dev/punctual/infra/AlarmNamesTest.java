package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.job.JobCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

/**
 * Every alarm of a stage (the stage stack's and the opted-in jobs' in the nested stacks) is named for
 * its stage and purpose under the stack's prefix {@code Punctual-<stage>-} (which {@code punctual
 * verify} lists alarms by; alarm names are unique per account and region, and a stack is per region),
 * tells the topic when it fires and when it is OK again, and its description says what to do next.
 */
class AlarmNamesTest {

    private static final Map<String, Map<String, Object>> ALARMS = new LinkedHashMap<>();

    @BeforeAll
    static void synth() {
        // Three generated jobs in the three generated pools; job-007 opts in to per-job metrics; a long job
        // brings its own alarm and the status changes' dead-letter queue's.
        JobCatalog catalog = new JobCatalog(List.of(
                ScaleTest.job(7),
                ScaleTest.job(8),
                ScaleTest.job(9),
                LongJobs.job("month-end", java.time.Duration.ofHours(6), 3, 3)));
        StageStack stage = Synth.stage(Stages.named("dev"), catalog);
        ALARMS.putAll(Templates.properties(Template.fromStack(stage), "AWS::CloudWatch::Alarm"));
        stage.jobStacks()
                .forEach(j -> ALARMS.putAll(Templates.properties(Template.fromStack(j), "AWS::CloudWatch::Alarm")));
    }

    @Test
    void everyAlarm_isNamedForItsStageAndPurpose_underTheStacksPrefix() {
        assertThat(ALARMS.values())
                .extracting(a -> a.get("AlarmName"))
                .containsAll(List.of(
                        "Punctual-dev-Failures",
                        "Punctual-dev-Missed",
                        "Punctual-dev-Overdue",
                        "Punctual-dev-WatchdogSilent",
                        "Punctual-dev-SchedulerDeadLetters",
                        "Punctual-dev-AlertDeadLetters",
                        "Punctual-dev-Pool-default-AsyncFailures",
                        "Punctual-dev-Pool-batch-AsyncFailures",
                        "Punctual-dev-Pool-reports-AsyncFailures",
                        "Punctual-dev-MissedRun-job-007",
                        "Punctual-dev-LongRun-month-end",
                        "Punctual-dev-LongRunDeadLetters"))
                .allSatisfy(name -> assertThat(name).isInstanceOf(String.class))
                .doesNotHaveDuplicates();
        assertThat(ALARMS.values())
                .allSatisfy(a -> assertThat((String) a.get("AlarmName")).startsWith("Punctual-dev-"));
    }

    @Test
    void everyAlarm_notifiesTheTopicWhenItFires_andWhenItIsOkAgain() {
        assertThat(ALARMS.values()).allSatisfy(a -> {
            assertThat(a.get("AlarmActions"))
                    .as("AlarmActions of %s", a.get("AlarmName"))
                    .isNotNull();
            assertThat(a.get("OKActions"))
                    .as("OKActions of %s", a.get("AlarmName"))
                    .isEqualTo(a.get("AlarmActions"));
        });
    }

    @Test
    void everyAlarmsDescription_namesTheStage_andTheRunbookRowWithTheNextStep() throws Exception {
        String runbook = Files.readString(Path.of("..", "docs", "runbook.md"));
        Pattern row = Pattern.compile("docs/runbook\\.md#([a-z-]+)\\)$");
        assertThat(ALARMS.values()).allSatisfy(a -> {
            String description = (String) a.get("AlarmDescription");
            assertThat(description)
                    .as("description of %s", a.get("AlarmName"))
                    .startsWith("Punctual dev: ")
                    .contains(". Next: ")
                    .hasSizeLessThanOrEqualTo(1024);
            Matcher m = row.matcher(description);
            assertThat(m.find())
                    .as("%s ends naming its runbook row", description)
                    .isTrue();
            assertThat(runbook)
                    .as("docs/runbook.md has the row " + m.group(1))
                    .contains("<a id=\"" + m.group(1) + "\">");
        });
    }
}
