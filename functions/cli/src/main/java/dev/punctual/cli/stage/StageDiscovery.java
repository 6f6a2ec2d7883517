package dev.punctual.cli.stage;

import dev.punctual.cli.input.OperatorInputException;
import dev.punctual.stage.StageOutputs;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudformation.model.CloudFormationException;
import software.amazon.awssdk.services.cloudformation.model.Output;
import software.amazon.awssdk.services.cloudformation.model.Stack;

/**
 * Finds a deployed stage by name: {@code DescribeStacks} on {@code Punctual-<stage>} (the CDK app's
 * stack name, {@link StageOutputs#stackName}), then its outputs read through the {@link StageOutputs}
 * keys the CDK app wrote them with. An unknown stage exits 2 naming the stages deployed in the region.
 */
public final class StageDiscovery {

    private StageDiscovery() {}

    /**
     * The stage's outputs.
     *
     * @param pools the pool names to look for (the CLI's catalog); a pool the stack does not output is
     *     left out, and {@link DeployedStage#aliasOf} names what is there
     * @throws OperatorInputException when no such stage is deployed (naming those that are), or its stack
     *     lacks an output this CLI needs (deployed by an older version)
     */
    public static DeployedStage find(
            CloudFormationClient cloudFormation, String region, String stage, Collection<String> pools) {
        return fromOutputs(stage, StageOutputs.stackName(stage), region, outputs(cloudFormation, region, stage), pools);
    }

    /**
     * Every output of the stage's stack, by output key (what {@code schedules} builds the entity client's
     * targets from).
     *
     * @throws OperatorInputException when no such stage is deployed, naming those that are
     */
    public static Map<String, String> outputs(CloudFormationClient cloudFormation, String region, String stage) {
        String stackName = StageOutputs.stackName(stage);
        Optional<Stack> stack = describe(cloudFormation, stackName);
        if (stack.isEmpty() || !outputs(stack.get()).containsKey(StageOutputs.STAGE_NAME)) {
            throw new OperatorInputException("--stage: '" + stage + "' is not deployed in " + region + " (no stack "
                    + stackName + " with Punctual's outputs); accepted: " + accepted(cloudFormation));
        }
        return outputs(stack.get());
    }

    /**
     * What to offer instead of an unknown stage. Listing every stack needs {@code DescribeStacks} on
     * {@code *}, which the stage's operator policy does not grant (it names {@code Punctual-*} stacks
     * only, since other stacks' outputs are none of an operator's business): then say so instead of
     * failing on the listing.
     */
    private static String accepted(CloudFormationClient cloudFormation) {
        try {
            List<String> deployed = deployedStages(cloudFormation);
            return deployed.isEmpty() ? "none is deployed there (docs/deploy.md)" : String.join(", ", deployed);
        } catch (CloudFormationException e) {
            if (e.statusCode() != 403) {
                throw e;
            }
            return "the name of a stage deployed there (these credentials may describe Punctual-* stacks but not"
                    + " list all stacks, so the deployed stages cannot be shown; check the name and the region)";
        }
    }

    /** The stages deployed where the client points: stacks carrying a {@value StageOutputs#STAGE_NAME} output. */
    public static List<String> deployedStages(CloudFormationClient cloudFormation) {
        List<String> stages = new ArrayList<>();
        cloudFormation.describeStacksPaginator(b -> {}).stacks().forEach(s -> {
            String name = outputs(s).get(StageOutputs.STAGE_NAME);
            if (name != null && s.stackName().equals(StageOutputs.stackName(name))) {
                stages.add(name);
            }
        });
        return stages.stream().sorted().toList();
    }

    /** Reads the outputs; public for tests that build a stage from a map. */
    static DeployedStage fromOutputs(
            String stage, String stackName, String region, Map<String, String> outputs, Collection<String> pools) {
        Map<String, String> aliases = new TreeMap<>();
        Map<String, String> logGroups = new TreeMap<>();
        for (String pool : pools) {
            Optional.ofNullable(outputs.get(StageOutputs.poolAlias(pool))).ifPresent(a -> aliases.put(pool, a));
            Optional.ofNullable(outputs.get(StageOutputs.logGroup(pool))).ifPresent(g -> logGroups.put(pool, g));
        }
        Map<String, String> queries = new TreeMap<>();
        Map<String, String> jobTables = new TreeMap<>();
        outputs.forEach((key, value) -> {
            if (key.startsWith(StageOutputs.SAVED_QUERY_PREFIX)) {
                queries.put(value.substring(value.lastIndexOf('/') + 1), value);
            } else if (key.startsWith(StageOutputs.JOB_TABLE_PREFIX)) {
                jobTables.put(key.substring(StageOutputs.JOB_TABLE_PREFIX.length()), value);
            }
        });
        return new DeployedStage(
                stage,
                stackName,
                region,
                required(outputs, StageOutputs.LEDGER_TABLE, stackName),
                new TreeMap<>(jobTables),
                required(outputs, StageOutputs.SCHEDULE_GROUP, stackName),
                new TreeMap<>(aliases),
                new TreeMap<>(logGroups),
                new TreeMap<>(queries),
                Optional.ofNullable(outputs.get(StageOutputs.OPERATOR_POLICY)));
    }

    private static Optional<Stack> describe(CloudFormationClient cloudFormation, String stackName) {
        try {
            return cloudFormation.describeStacks(b -> b.stackName(stackName)).stacks().stream()
                    .findFirst();
        } catch (CloudFormationException e) {
            // CloudFormation says "Stack with id X does not exist" as a ValidationError (HTTP 400).
            if (String.valueOf(e.getMessage()).contains("does not exist")) {
                return Optional.empty();
            }
            throw e;
        }
    }

    private static Map<String, String> outputs(Stack stack) {
        Map<String, String> outputs = new LinkedHashMap<>();
        for (Output output : stack.outputs()) {
            outputs.put(output.outputKey(), output.outputValue());
        }
        return outputs;
    }

    private static String required(Map<String, String> outputs, String key, String stackName) {
        String value = outputs.get(key);
        if (value == null || value.isBlank()) {
            throw new OperatorInputException("--stage: stack " + stackName + " has no output " + key
                    + "; accepted: a stage deployed by this version of Punctual (cdk deploy it again)");
        }
        return value;
    }
}
