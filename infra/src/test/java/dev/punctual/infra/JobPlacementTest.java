package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.punctual.fixtures.FixtureCatalog;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;

/**
 * Adding or removing a job changes that job's schedule and alarm, and the ledger policies of its pool's
 * role, which name its ledger items, and nothing else: every other job
 * stays in its jobs stack under the same logical ids, so CloudFormation never moves a schedule (whose
 * name is fixed) between stacks. Each catalog is synthesised in-process and read back from its cloud
 * assembly. 300 ± 1 is the everyday case; 200 + 1 and 201 - 1 are where a placement that depends on the
 * job count would reshuffle (the former power-of-two placement went from two stacks to four there).
 */
class JobPlacementTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final JobCatalog THREE_HUNDRED = ScaleTest.generated(300);
    private static final JobCatalog TWO_HUNDRED_ONE = ScaleTest.generated(201);

    private static Assembly threeHundred;
    private static Assembly threeHundredPlusOne;
    private static Assembly threeHundredMinusOne;
    private static Assembly twoHundred;
    private static Assembly twoHundredOne;
    private static Assembly twoHundredOneMinusOne;

    @BeforeAll
    static void synth() throws IOException {
        threeHundred = Assembly.of(THREE_HUNDRED);
        threeHundredPlusOne = Assembly.of(ScaleTest.generated(301));
        threeHundredMinusOne = Assembly.of(without(THREE_HUNDRED, "job-123"));
        twoHundred = Assembly.of(ScaleTest.generated(200));
        twoHundredOne = Assembly.of(TWO_HUNDRED_ONE);
        twoHundredOneMinusOne = Assembly.of(without(TWO_HUNDRED_ONE, "job-123"));
    }

    @Test
    void threeHundredJobs_plusOne_changeOnlyTheNewJobsScheduleAndAlarm_andTheReceivingStacksTemplateUrl() {
        assertOnlyTheJobsOwnResourcesDiffer(threeHundred, threeHundredPlusOne, "job-300");
    }

    @Test
    void twoHundredJobs_plusOne_whereACountBasedPlacementWouldReshuffle_changeOnlyTheNewJobsResources() {
        assertOnlyTheJobsOwnResourcesDiffer(twoHundred, twoHundredOne, "job-200");
    }

    @Test
    void threeHundredJobs_minusOne_changeOnlyTheRemovedJobsScheduleAndAlarm_andTheLosingStacksTemplateUrl() {
        assertOnlyTheJobsOwnResourcesDiffer(threeHundredMinusOne, threeHundred, "job-123");
    }

    @Test
    void twoHundredOneJobs_minusOne_whereACountBasedPlacementWouldReshuffle_changeOnlyTheRemovedJobsResources() {
        assertOnlyTheJobsOwnResourcesDiffer(twoHundredOneMinusOne, twoHundredOne, "job-123");
    }

    @Test
    void anyJob_inCatalogsOfAnySizeOrOrder_getsTheSameShard() {
        List<JobDefinition> all = ScaleTest.generated(2_000).jobs();
        List<JobDefinition> shuffled = new ArrayList<>(all);
        Collections.shuffle(shuffled, new Random(7));
        Map<String, Integer> inAll = shards(all);

        for (List<JobDefinition> jobs :
                List.of(all.subList(0, 1), all.subList(0, 7), all.subList(0, 300), all.reversed(), shuffled)) {
            assertThat(inAll).as("%d jobs", jobs.size()).containsAllEntriesOf(shards(jobs));
        }
    }

    @Test
    void anyJob_inTheSynthesisedCatalogs_sitsInTheJobsStackNamedByItsShard() {
        for (Assembly assembly : List.of(
                threeHundred,
                threeHundredPlusOne,
                threeHundredMinusOne,
                twoHundred,
                twoHundredOne,
                twoHundredOneMinusOne)) {
            assertThat(assembly.placement())
                    .isNotEmpty()
                    .allSatisfy((job, stack) -> assertThat(stack).as(job).isEqualTo("Jobs" + StageStack.shardOf(job)));
        }
    }

    @Test
    void shardOf_knownIds_isPinned_becauseAnotherHashOrShardCountWouldMoveDeployedJobs() {
        assertThat(Map.of(
                        FixtureCatalog.DAILY,
                        StageStack.shardOf(FixtureCatalog.DAILY),
                        "missed-run-watchdog",
                        StageStack.shardOf("missed-run-watchdog"),
                        FixtureCatalog.DESTRUCTIVE,
                        StageStack.shardOf(FixtureCatalog.DESTRUCTIVE),
                        "job-000",
                        StageStack.shardOf("job-000")))
                .isEqualTo(Map.of(
                        FixtureCatalog.DAILY,
                        19,
                        "missed-run-watchdog",
                        0,
                        FixtureCatalog.DESTRUCTIVE,
                        18,
                        "job-000",
                        27));
        assertThat(StageStack.JOB_SHARDS).isEqualTo(32);
    }

    @Test
    void fixtureCatalog_ofSixJobs_getsAJobsStackPerNonEmptyShardOnly() {
        StageStack dev = Synth.stage("dev");
        Set<String> shards = Synth.CATALOG.ids().stream()
                .map(id -> "Jobs" + StageStack.shardOf(id))
                .collect(Collectors.toSet());

        assertThat(dev.jobStacks())
                .extracting(jobs -> jobs.getNode().getId())
                .containsExactlyInAnyOrderElementsOf(shards);
    }

    /**
     * {@code with} is {@code without} plus the job {@code id}. Everything else must be identical: each
     * other resource of every template (same logical id, same properties, byte for byte) and each other
     * job's stack. The one allowed change outside the job's schedule and alarm is the stage stack's
     * resource for the nested stack holding the job, whose TemplateURL follows that stack's template
     * (and whose Parameters would follow the aliases its jobs target).
     *
     * <p>The job shares its stack with another job of its pool, so the role and policy the scheduler
     * uses for that pool stay either way; the first or last job of a pool in a stack brings or takes
     * them too. Its pool's ledger policies change in place: they name the job's ledger items.
     */
    private static void assertOnlyTheJobsOwnResourcesDiffer(Assembly without, Assembly with, String id) {
        assertThat(with.placement()).containsKey(id);
        assertThat(without.placement()).doesNotContainKey(id);
        Map<String, String> others = new TreeMap<>(with.placement());
        String stack = others.remove(id);
        assertThat(others).as("the jobs stack of every other job").isEqualTo(without.placement());
        String pool = with.catalog().require(id).pool().name();
        assertThat(others)
                .as("precondition: another job of pool %s in %s", pool, stack)
                .anySatisfy((other, in) -> {
                    assertThat(in).isEqualTo(stack);
                    assertThat(with.catalog().require(other).pool().name()).isEqualTo(pool);
                });

        Set<String> own = with.resourcesOf(id);
        assertThat(own)
                .as(
                        "the job's schedule (and missed-run alarm if it opted in), in %s and in no other nested stack",
                        stack)
                .hasSize(with.catalog().require(id).perJobMetrics() ? 2 : 1)
                .allSatisfy(key -> assertThat(key).startsWith(stack + "/"));
        assertThat(without.resourcesOf(id)).isEmpty();

        Map<String, JsonNode> after = new TreeMap<>(with.resources());
        after.keySet().removeAll(own);
        Map<String, JsonNode> before = without.resources();
        assertThat(after.keySet()).as("logical ids besides the job's own").isEqualTo(before.keySet());
        String nestedStackResource = with.nestedStackResource(stack);
        List<String> changed = new ArrayList<>();
        after.forEach((key, resource) -> {
            if (!key.equals(nestedStackResource)
                    && !resource.toString().equals(before.get(key).toString())) {
                changed.add(key);
            }
        });
        // The pool's console test events list a run and a dry-run replay of each of its jobs: its one
        // create-or-update of the schema may change.
        List<String> testEvents = changed.stream()
                .filter(key -> after.get(key).path("Type").asText().equals(ConsoleTestEvents.RESOURCE_TYPE))
                .toList();
        assertThat(testEvents).as("console test events changed").hasSizeLessThanOrEqualTo(1);
        changed.removeAll(testEvents);
        // The job's pool's role names the job's ledger items (PoolLedgerPolicies); no other pool's changes.
        String parent = with.stage().getNode().getId();
        List<String> ledgerGrants = changed.stream()
                .filter(key -> key.startsWith(parent + "/Pool" + pool + "LedgerPolicy"))
                .toList();
        assertThat(ledgerGrants).as("ledger policies of pool %s changed", pool).isNotEmpty();
        changed.removeAll(ledgerGrants);
        assertThat(changed).as("resources changed besides the job's own").isEmpty();
        assertThat(withoutUrlAndParameters(after.get(nestedStackResource)))
                .as(
                        "%s, the parent's resource for %s: only its TemplateURL and Parameters may change",
                        nestedStackResource, stack)
                .isEqualTo(withoutUrlAndParameters(before.get(nestedStackResource)));

        assertThat(with.templates().keySet()).isEqualTo(without.templates().keySet());
        with.templates().forEach((other, template) -> {
            if (other.startsWith("Jobs") && !other.equals(stack)) {
                assertThat(template)
                        .as("template of %s, which does not hold the job", other)
                        .isEqualTo(without.templates().get(other));
            }
        });
        assertThat(withoutResources(with.parsed().get(parent)))
                .as("the stage stack's template besides its resources")
                .isEqualTo(withoutResources(without.parsed().get(parent)));
        assertThat(stack).isEqualTo("Jobs" + StageStack.shardOf(id));
    }

    private static String withoutResources(JsonNode template) {
        ObjectNode copy = template.deepCopy();
        copy.remove("Resources");
        return copy.toString();
    }

    private static String withoutUrlAndParameters(JsonNode resource) {
        ObjectNode copy = resource.deepCopy();
        ((ObjectNode) copy.get("Properties")).remove(List.of("TemplateURL", "Parameters"));
        return copy.toString();
    }

    private static Map<String, Integer> shards(List<JobDefinition> jobs) {
        Map<String, Integer> shards = new HashMap<>();
        StageStack.byShard(jobs).forEach((shard, share) -> share.forEach(job -> shards.put(job.id(), shard)));
        return shards;
    }

    private static JobCatalog without(JobCatalog catalog, String id) {
        return new JobCatalog(
                catalog.jobs().stream().filter(j -> !j.id().equals(id)).toList());
    }

    /**
     * A synthesised stage read back from its cloud assembly: each template's text and parsed
     * resources, by stack ("Punctual-prod" for the stage stack, "JobsN" for a jobs stack).
     */
    private record Assembly(
            JobCatalog catalog, StageStack stage, Map<String, String> templates, Map<String, JsonNode> parsed) {

        static Assembly of(JobCatalog catalog) throws IOException {
            StageStack stage = Synth.stage(Stages.named("prod"), catalog);
            Path directory = Path.of(((App) stage.getNode().getRoot()).synth().getDirectory());
            Map<String, String> templates = new TreeMap<>();
            templates.put(stage.getNode().getId(), Files.readString(directory.resolve(stage.getTemplateFile())));
            for (JobsStack jobs : stage.jobStacks()) {
                templates.put(jobs.getNode().getId(), Files.readString(directory.resolve(jobs.getTemplateFile())));
            }
            Map<String, JsonNode> parsed = new TreeMap<>();
            for (Map.Entry<String, String> template : templates.entrySet()) {
                parsed.put(template.getKey(), JSON.readTree(template.getValue()));
            }
            return new Assembly(catalog, stage, templates, parsed);
        }

        /** Every resource of every template, keyed "stack/logicalId". */
        Map<String, JsonNode> resources() {
            Map<String, JsonNode> all = new TreeMap<>();
            parsed.forEach((stack, template) -> template.get("Resources")
                    .properties()
                    .forEach(r -> all.put(stack + "/" + r.getKey(), r.getValue())));
            return all;
        }

        /** Each job's jobs stack, found by the name of its schedule in the templates. */
        Map<String, String> placement() {
            Map<String, String> placement = new TreeMap<>();
            resources().forEach((key, resource) -> {
                if (resource.get("Type").asText().equals("AWS::Scheduler::Schedule") && key.startsWith("Jobs")) {
                    placement.put(resource.at("/Properties/Name").asText(), key.substring(0, key.indexOf('/')));
                }
            });
            return placement;
        }

        /** The job's schedule (by name) and missed-run alarm (by its job dimension), wherever they are. */
        Set<String> resourcesOf(String id) {
            String dimension = "{\"Name\":\"job\",\"Value\":\"" + id + "\"}";
            Set<String> found = new HashSet<>();
            resources().forEach((key, resource) -> {
                String type = resource.get("Type").asText();
                boolean schedule = type.equals("AWS::Scheduler::Schedule")
                        && resource.at("/Properties/Name").asText().equals(id);
                boolean alarm = type.equals("AWS::CloudWatch::Alarm")
                        && resource.toString().contains(dimension);
                if (schedule || alarm) {
                    found.add(key);
                }
            });
            return found;
        }

        /** The key of the stage stack's AWS::CloudFormation::Stack resource for a jobs stack. */
        String nestedStackResource(String jobsStack) {
            JobsStack jobs = stage.jobStacks().stream()
                    .filter(j -> j.getNode().getId().equals(jobsStack))
                    .findFirst()
                    .orElseThrow();
            return stage.getNode().getId() + "/" + stage.getLogicalId(jobs.getNestedStackResource());
        }
    }
}
