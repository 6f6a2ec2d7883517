package dev.punctual.longrun.stepfunctions;

import dev.punctual.longrun.LongExecutionException;
import dev.punctual.longrun.LongExecutions;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionAlreadyExistsException;
import software.amazon.awssdk.services.sfn.model.ExecutionDoesNotExistException;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Long occurrences' executions on Step Functions (decision 0039): a job's state machine is
 * {@code prefix + jobId}, the prefix being {@code arn:<partition>:states:<region>:<account>:stateMachine:punctual-<stage>-}
 * as the stage sets it in the function's environment. {@code StartExecution} with a name is what makes a
 * start once: a running execution of the same name and input answers its ARN; any other existing one
 * answers {@code ExecutionAlreadyExists}, reported as such for the caller to read back.
 */
public final class StepFunctionsExecutions implements LongExecutions {

    /** The variable the stage sets on a pool that hosts a long job. */
    public static final String PREFIX_ENV = "PUNCTUAL_STATE_MACHINE_PREFIX";

    private final SfnClient client;
    private final String prefix;

    public StepFunctionsExecutions(SfnClient client, String prefix) {
        this.client = client;
        if (prefix == null || !prefix.contains(":stateMachine:")) {
            throw new IllegalArgumentException(PREFIX_ENV + " must be a state machine ARN's prefix"
                    + " (arn:aws:states:<region>:<account>:stateMachine:punctual-<stage>-), was '" + prefix + "'");
        }
        this.prefix = prefix;
    }

    /** The state machine of a job. */
    public String stateMachineArn(String jobId) {
        return prefix + jobId;
    }

    @Override
    public String arnOf(String jobId, String name) {
        return dev.punctual.longrun.LongRunNames.executionArn(stateMachineArn(jobId), name);
    }

    @Override
    public Start start(String jobId, String name, String input) {
        try {
            String arn = client.startExecution(b ->
                            b.stateMachineArn(stateMachineArn(jobId)).name(name).input(input))
                    .executionArn();
            return new Start.Started(arn);
        } catch (ExecutionAlreadyExistsException e) {
            return new Start.AlreadyExists(arnOf(jobId, name));
        } catch (SdkException e) {
            throw new LongExecutionException(
                    "StartExecution of " + name + " on " + stateMachineArn(jobId) + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public Optional<Execution> describe(String jobId, String name) {
        String arn = arnOf(jobId, name);
        try {
            DescribeExecutionResponse r = client.describeExecution(b -> b.executionArn(arn));
            return Optional.of(new Execution(
                    r.executionArn(),
                    r.name(),
                    status(r.status()),
                    r.input(),
                    r.startDate(),
                    Optional.ofNullable(r.stopDate()),
                    Optional.ofNullable(r.error()),
                    Optional.ofNullable(r.cause())));
        } catch (ExecutionDoesNotExistException e) {
            return Optional.empty();
        } catch (SdkException e) {
            throw new LongExecutionException("DescribeExecution of " + arn + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public boolean stop(String jobId, String name, String cause) {
        Optional<Execution> found = describe(jobId, name);
        if (found.isEmpty() || found.get().status().closed()) {
            return false;
        }
        try {
            client.stopExecution(b ->
                    b.executionArn(found.get().arn()).error(CANCELLED_ERROR).cause(cause));
            return true;
        } catch (ExecutionDoesNotExistException e) {
            return false;
        } catch (SdkException e) {
            throw new LongExecutionException("StopExecution of " + found.get().arn() + " failed: " + e.getMessage(), e);
        }
    }

    private static Status status(ExecutionStatus status) {
        return switch (status) {
            case RUNNING -> Status.RUNNING;
            case SUCCEEDED -> Status.SUCCEEDED;
            case FAILED -> Status.FAILED;
            case TIMED_OUT -> Status.TIMED_OUT;
            case ABORTED -> Status.ABORTED;
            case PENDING_REDRIVE -> Status.PENDING_REDRIVE;
            default -> Status.FAILED;
        };
    }
}
