package dev.punctual.cli.verify;

import dev.punctual.infra.Stages;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import software.amazon.awssdk.services.sfn.model.DescribeStateMachineResponse;
import software.amazon.awssdk.services.sfn.model.StateMachineDoesNotExistException;
import software.amazon.awssdk.services.sfn.model.StateMachineListItem;

/**
 * A stage whose catalog has a long job has, per long job, its STANDARD state machine {@code
 * punctual-<stage>-<job>} with the catalog's limits (decision 0039, 4): TimeoutSeconds its
 * {@code maxDuration}, the {@code Chunks} map's MaxConcurrency its {@code chunksAtOnce}, the chunk task's
 * retries of {@code ChunkAttemptFailed} its {@code maxAttempts - 1}. A stage deployed from an older catalog
 * would run a long job for longer, or with more chunks at once, than its code says.
 *
 * <p>A state machine of the stage's name space that the catalog has no long job for is a WARN, not a FAIL:
 * unlike a schedule nothing starts it (the function starts only its catalog's jobs), but it is left over from
 * an older catalog or made by hand.
 *
 * @param expected the catalog's long jobs
 * @param found the state machines read, by name; a missing one is absent
 * @param extras state machines named {@code punctual-<stage>-...} that no long job of the catalog names
 */
public record LongJobsCheck(
        List<ExpectedLongJob> expected, Map<String, DeployedStateMachine> found, List<String> extras) implements Check {

    /** The type every long job's state machine has: an execution may run a year, with exactly-once steps. */
    static final String STANDARD = "STANDARD";

    public LongJobsCheck {
        expected = List.copyOf(expected);
        found = new TreeMap<>(found);
        extras = List.copyOf(extras);
    }

    /**
     * Describes each long job's state machine (DescribeStateMachine, by an ARN in the stack's partition,
     * region and account) and lists the region's state machines for the extras (ListStateMachines).
     */
    public static LongJobsCheck read(StageAws aws, StageInventory deployed, List<ExpectedLongJob> expected) {
        String prefix = "arn:" + deployed.stackId().split(":")[1] + ":states:" + deployed.region() + ":"
                + deployed.account() + ":stateMachine:";
        Map<String, DeployedStateMachine> found = new TreeMap<>();
        for (ExpectedLongJob job : expected) {
            try {
                DescribeStateMachineResponse machine =
                        aws.stepFunctions().describeStateMachine(r -> r.stateMachineArn(prefix + job.stateMachine()));
                found.put(
                        job.stateMachine(),
                        DeployedStateMachine.of(machine.name(), machine.typeAsString(), machine.definition()));
            } catch (StateMachineDoesNotExistException e) {
                // Missing: judged by result().
            }
        }
        List<String> extras = new ArrayList<>();
        for (StateMachineListItem machine :
                aws.stepFunctions().listStateMachinesPaginator(r -> {}).stateMachines()) {
            if (ofStage(machine.name(), deployed.stage())
                    && expected.stream().noneMatch(e -> e.stateMachine().equals(machine.name()))) {
                extras.add(machine.name());
            }
        }
        return new LongJobsCheck(expected, found, extras);
    }

    /**
     * Whether a state machine's name is in the stage's name space and not in that of a stage whose name
     * extends it ({@code dev} and {@code dev-eu} both start {@code punctual-dev-}).
     */
    static boolean ofStage(String name, String stage) {
        String own = "punctual-" + stage + "-";
        if (!name.startsWith(own)) {
            return false;
        }
        return Stages.names().stream()
                .filter(other -> other.startsWith(stage + "-"))
                .noneMatch(other -> name.startsWith("punctual-" + other + "-"));
    }

    @Override
    public String name() {
        return "long-jobs";
    }

    @Override
    public CheckResult result() {
        String checked = "each of the catalog's " + expected.size() + " long job(s) has its STANDARD state machine"
                + " with the catalog's timeout, chunks at once and chunk retries";
        List<String> problems = new ArrayList<>();
        for (ExpectedLongJob job : expected) {
            DeployedStateMachine machine = found.get(job.stateMachine());
            if (machine == null) {
                problems.add(job.job() + ": state machine " + job.stateMachine() + " does not exist");
                continue;
            }
            differ(problems, job, "type", STANDARD, machine.type());
            differ(problems, job, "TimeoutSeconds", job.timeoutSeconds(), machine.timeoutSeconds());
            differ(problems, job, "Chunks MaxConcurrency", job.chunksAtOnce(), machine.maxConcurrency());
            differ(problems, job, "chunk retries (MaxAttempts)", job.chunkRetries(), machine.chunkRetries());
        }
        if (!problems.isEmpty()) {
            return CheckResult.fail(
                    name(),
                    checked,
                    String.join("; ", problems),
                    "deploy the stage again with this catalog (cdk deploy); never edit a state machine by hand");
        }
        String jobs =
                String.join(", ", expected.stream().map(ExpectedLongJob::job).toList());
        if (!extras.isEmpty()) {
            return CheckResult.warn(
                    name(),
                    checked,
                    jobs + " as the catalog says; not the catalog's: " + String.join(", ", extras),
                    "a state machine of the stage that no long job names is left from an older catalog or made by"
                            + " hand: deploy the stage (cdk deploy), or find who made it and delete it");
        }
        return CheckResult.pass(name(), checked, jobs + " as the catalog says");
    }

    private static void differ(List<String> out, ExpectedLongJob job, String field, Object want, Object actual) {
        if (!Objects.equals(want, actual)) {
            out.add(job.job() + ": " + field + " " + actual + " (catalog: " + want + ")");
        }
    }
}
