package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.PunctualException;
import dev.punctual.job.FunctionPool;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.assertions.Annotations;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

/**
 * A generated catalog of 300 jobs in three pools synthesises within CloudFormation's limits: at most
 * 500 resources, 200 parameters and 200 outputs per template, each template under 1 MB (the limit for a
 * template read from S3, which is how nested templates and large stacks are deployed). So does the
 * fullest jobs stack synth accepts, and one job more is refused.
 */
class ScaleTest {

    static final int JOBS = 300;
    static final int MAX_RESOURCES = 500;
    static final long MAX_TEMPLATE_BYTES = 1_000_000;

    /** Expression and zone per job, cycling through sub-hourly, hourly, daily, weekday, weekly, monthly. */
    private static final List<String[]> SCHEDULES = List.of(
            new String[] {"*/5 * * * *", "Europe/Berlin"},
            new String[] {"0 * * * *", "Asia/Seoul"},
            new String[] {"0 9 * * *", "America/New_York"},
            new String[] {"cron(0 6 ? * MON-FRI *)", "Europe/London"},
            new String[] {"cron(0 3 ? * SUN *)", "Australia/Sydney"},
            new String[] {"cron(0 7 1 * ? *)", "America/Sao_Paulo"});

    private static final List<FunctionPool> POOLS = List.of(
            FunctionPool.DEFAULT,
            new FunctionPool("batch", 2048, Duration.ofMinutes(15)),
            new FunctionPool("reports", 1536, Duration.ofMinutes(10)));

    private static JobCatalog catalog;
    private static StageStack stage;
    private static long synthMillis;
    private static Map<String, Long> templateBytes;

    static JobCatalog generated(int count) {
        return new JobCatalog(IntStream.range(0, count).mapToObj(ScaleTest::job).toList());
    }

    /**
     * Generated job {@code i}: id job-NNN, a schedule and a pool cycling through those above; one job in
     * a hundred (those whose index ends in 07) opts in to per-job metrics and so gets a missed-run alarm.
     */
    static JobDefinition job(int i) {
        return job(i, i % 100 == 7);
    }

    static JobDefinition job(int i, boolean perJobMetrics) {
        String[] schedule = SCHEDULES.get(i % SCHEDULES.size());
        JobDefinition.Builder builder = JobDefinition.builder("job-%03d".formatted(i))
                .description("generated job " + i)
                .schedule(schedule[0], schedule[1])
                .pool(POOLS.get(i % POOLS.size()))
                .job(s -> ctx -> JobResult.empty());
        if (perJobMetrics) {
            builder.perJobMetrics();
        }
        return builder.build();
    }

    /** Generated jobs whose ids all fall into shard 0, all opted in to per-job metrics (the most resources). */
    static JobCatalog oneShard(int count) {
        return new JobCatalog(IntStream.iterate(0, i -> i + 1)
                .filter(i -> StageStack.shardOf("job-%03d".formatted(i)) == 0)
                .limit(count)
                .mapToObj(i -> job(i, true))
                .toList());
    }

    @BeforeAll
    static void synth() throws IOException {
        catalog = generated(JOBS);
        long started = System.nanoTime();
        stage = Synth.stage(Stages.named("prod"), catalog);
        Path assembly = Path.of(((App) stage.getNode().getRoot()).synth().getDirectory());
        synthMillis = (System.nanoTime() - started) / 1_000_000;
        templateBytes = new LinkedHashMap<>();
        try (Stream<Path> files = Files.list(assembly)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".template.json"))
                    .sorted()
                    .toList()) {
                templateBytes.put(file.getFileName().toString(), Files.size(file));
            }
        }
    }

    @Test
    void threeHundredJobs_splitIntoNestedJobsStacks_eachWithinTheResourceParameterAndOutputLimits() {
        List<Template> templates = new ArrayList<>();
        templates.add(Template.fromStack(stage));
        stage.jobStacks().forEach(j -> templates.add(Template.fromStack(j)));
        List<String> report = new ArrayList<>();
        for (Template template : templates) {
            Map<String, Object> json = template.toJSON();
            int resources = size(json.get("Resources"));
            report.add(resources + " resources, " + size(json.get("Parameters")) + " parameters");
            assertThat(resources).isLessThanOrEqualTo(MAX_RESOURCES);
            assertThat(size(json.get("Parameters"))).isLessThanOrEqualTo(200);
            assertThat(size(json.get("Outputs"))).isLessThanOrEqualTo(200);
        }
        System.out.println("ScaleTest: " + JOBS + " jobs synthesised in " + synthMillis + " ms; stage + "
                + stage.jobStacks().size() + " jobs stacks: " + report + "; template bytes " + templateBytes);

        assertThat(stage.jobStacks()).hasSizeGreaterThan(1).hasSizeLessThanOrEqualTo(StageStack.JOB_SHARDS);
    }

    @Test
    void threeHundredJobs_everyTemplateFile_isUnderOneMegabyte() {
        assertThat(templateBytes).hasSize(1 + stage.jobStacks().size());
        assertThat(templateBytes.values()).allSatisfy(bytes -> assertThat(bytes).isLessThan(MAX_TEMPLATE_BYTES));
    }

    @Test
    void threeHundredJobs_eachHaveOneScheduleInTheirZone_andOnlyThoseThatOptedInAMissedRunAlarm() {
        Map<String, Templates.Located> schedules = Templates.jobSchedules(stage);

        assertThat(schedules).hasSize(JOBS);
        for (JobDefinition job : catalog.jobs()) {
            assertThat(schedules.get(job.id()).properties())
                    .containsEntry(
                            "ScheduleExpressionTimezone", job.schedule().zone().getId());
        }
        int alarms = 0;
        for (JobsStack jobs : stage.jobStacks()) {
            alarms += jobs.missedRunAlarms().size();
            Template.fromStack(jobs)
                    .resourceCountIs(
                            "AWS::CloudWatch::Alarm", jobs.missedRunAlarms().size());
        }
        assertThat(alarms)
                .isEqualTo(catalog.jobs().stream()
                        .filter(JobDefinition::perJobMetrics)
                        .count())
                .isEqualTo(JOBS / 100);
    }

    @Test
    void threeHundredJobs_withThreePools_pingOnlyThePoolsThatMayIdleOverSevenDays() {
        // Every job of "batch" runs hourly or weekly (i % 3 == 1: hourly, weekly); "reports" daily or
        // monthly; default every 5 minutes or weekdays. None idles for 7 days, so no ping is needed.
        assertThat(stage.poolCadences().keySet()).containsExactly("default", "batch", "reports");
        assertThat(stage.keepWarm()).isEmpty();
    }

    @Test
    void threeHundredJobs_awsSolutions_reportsNoUnsuppressedFinding() {
        Annotations annotations = Annotations.fromStack(stage);

        assertThat(annotations.findError("*", Match.stringLikeRegexp("AwsSolutions-.*")))
                .isEmpty();
        assertThat(annotations.findWarning("*", Match.stringLikeRegexp("AwsSolutions-.*")))
                .isEmpty();
    }

    @Test
    void threeHundredJobs_eachInTheJobsStackOfItsIdsShard_noneOverTheShardLimit() {
        assertThat(stage.jobStacks()).allSatisfy(jobs -> {
            assertThat(jobs.schedules()).hasSizeLessThanOrEqualTo(StageStack.MAX_JOBS_PER_SHARD);
            jobs.schedules()
                    .keySet()
                    .forEach(id -> assertThat(jobs.getNode().getId()).isEqualTo("Jobs" + StageStack.shardOf(id)));
        });
    }

    /**
     * The worst case synth accepts: a shard at {@link StageStack#MAX_JOBS_PER_SHARD} with all three
     * pools. Its template keeps 50 resources (25 more pools) and a fifth of a megabyte (about 1 KB more
     * per job, such as long descriptions) to spare.
     */
    @Test
    void fullShard_ofTheMostJobsAllowed_staysWellUnderTheResourceAndSizeLimits() throws IOException {
        StageStack full = Synth.stage(Stages.named("prod"), oneShard(StageStack.MAX_JOBS_PER_SHARD));
        Path assembly = Path.of(((App) full.getNode().getRoot()).synth().getDirectory());

        assertThat(full.jobStacks()).singleElement().satisfies(jobs -> {
            int resources = size(Template.fromStack(jobs).toJSON().get("Resources"));
            long bytes = Files.size(assembly.resolve(jobs.getTemplateFile()));
            System.out.println("ScaleTest: a full shard of " + StageStack.MAX_JOBS_PER_SHARD + " jobs: " + resources
                    + " resources, " + bytes + " bytes");
            assertThat(resources)
                    .as("a schedule and an alarm per job that opted in; the scheduler roles live in the stage stack")
                    .isEqualTo(2 * StageStack.MAX_JOBS_PER_SHARD)
                    .isLessThanOrEqualTo(MAX_RESOURCES - 50);
            assertThat(bytes).isLessThan(MAX_TEMPLATE_BYTES * 4 / 5);
        });
    }

    @Test
    void shard_overTheMostJobsAllowed_isRefused_namingTheStackAndTheFixedShardCount() {
        JobCatalog tooMany = oneShard(StageStack.MAX_JOBS_PER_SHARD + 1);

        assertThatThrownBy(() -> Synth.stage(Stages.named("prod"), tooMany))
                .isInstanceOf(PunctualException.class)
                .hasMessageContaining("jobs stack Jobs0 would hold 201 jobs, more than 200")
                .hasMessageContaining("StageStack.JOB_SHARDS = 32");
    }

    private static int size(Object section) {
        return section == null ? 0 : ((Map<?, ?>) section).size();
    }
}
