package dev.punctual.infra;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.job.JobCatalog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.IntSummaryStatistics;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.LongSummaryStatistics;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;

/**
 * Prints synth time and template figures for generated catalogs of 300 and 2,000 jobs, and how evenly
 * the shards fill with 2,000 and 4,000 ids. Not a test: no figure is asserted, and the name does not
 * match surefire's default includes, so {@code ./mvnw verify} never runs it (a 2,000-job synth through
 * jsii takes too long for every build). Run it with
 *
 * <pre>
 * ./mvnw -q -pl infra -am -Dsurefire.failIfNoSpecifiedTests=false -Dtest=SynthMeasurement verify
 * </pre>
 *
 * The first synth in the JVM also pays for starting jsii and loading the CDK, so 300 jobs is measured
 * twice: first (cold) and last (warm).
 */
class SynthMeasurement {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void printSynthTimeAndTemplateFigures() throws IOException {
        for (int jobs : new int[] {300, 2_000, 300}) {
            measure(jobs);
        }
    }

    /**
     * Hash skew without synthesis: the fullest and emptiest shard for 2,000 and 4,000 ids, generated
     * (job-NNN, which CRC-32 spreads unusually evenly) and random three-word kebab-case ids.
     */
    @Test
    void printShardSkew() {
        List<String> words = List.of(
                "daily", "weekly", "report", "expire", "refund", "purge", "send", "sync", "billing", "invoice",
                "export", "cleanup", "rotate", "backup", "notify", "digest", "audit", "index", "cache", "ledger");
        Random random = new Random(42);
        for (int count : new int[] {2_000, 4_000}) {
            Set<String> kebab = new LinkedHashSet<>();
            while (kebab.size() < count) {
                kebab.add(words.get(random.nextInt(words.size())) + "-" + words.get(random.nextInt(words.size())) + "-"
                        + words.get(random.nextInt(words.size())) + "-" + random.nextInt(1_000));
            }
            List<String> generated = IntStream.range(0, count)
                    .mapToObj(i -> "job-%03d".formatted(i))
                    .toList();
            System.out.printf(
                    "SynthMeasurement: %,d ids over %d shards (mean %.1f): generated %s, kebab-case %s%n",
                    count,
                    StageStack.JOB_SHARDS,
                    count / (double) StageStack.JOB_SHARDS,
                    spread(generated),
                    spread(kebab));
        }
    }

    private static String spread(Collection<String> ids) {
        int[] perShard = new int[StageStack.JOB_SHARDS];
        ids.forEach(id -> perShard[StageStack.shardOf(id)]++);
        IntSummaryStatistics stats = IntStream.of(perShard).summaryStatistics();
        return stats.getMin() + "-" + stats.getMax();
    }

    private static void measure(int count) throws IOException {
        JobCatalog catalog = ScaleTest.generated(count);
        long started = System.nanoTime();
        StageStack stage = Synth.stage(Stages.named("prod"), catalog);
        long built = System.nanoTime();
        Path assembly = Path.of(((App) stage.getNode().getRoot()).synth().getDirectory());
        long synthesised = System.nanoTime();

        Path parent = assembly.resolve(stage.getTemplateFile());
        IntSummaryStatistics resources = new IntSummaryStatistics();
        IntSummaryStatistics jobs = new IntSummaryStatistics();
        LongSummaryStatistics bytes = new LongSummaryStatistics();
        for (JobsStack stack : stage.jobStacks()) {
            Path template = assembly.resolve(stack.getTemplateFile());
            resources.accept(resourcesIn(template));
            jobs.accept(stack.schedules().size());
            bytes.accept(Files.size(template));
        }
        System.out.printf(
                "SynthMeasurement: %,d jobs: %,d ms (construct %,d + synth %,d); stage stack %d resources, %.1f KB;"
                        + " %d jobs stacks: jobs %d-%d, resources %d-%d, template %.1f-%.1f KB%n",
                count,
                (synthesised - started) / 1_000_000,
                (built - started) / 1_000_000,
                (synthesised - built) / 1_000_000,
                resourcesIn(parent),
                Files.size(parent) / 1024.0,
                stage.jobStacks().size(),
                jobs.getMin(),
                jobs.getMax(),
                resources.getMin(),
                resources.getMax(),
                bytes.getMin() / 1024.0,
                bytes.getMax() / 1024.0);
    }

    private static int resourcesIn(Path template) throws IOException {
        return JSON.readTree(template.toFile()).get("Resources").size();
    }
}
