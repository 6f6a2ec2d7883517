package dev.punctual.longrun.testkit;

import dev.punctual.longrun.LongExecutions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Step Functions' name semantics in memory, for fast tests (moto's are tested against the real adapter):
 * a start of a new name creates a RUNNING execution; a start of a running one with the same input answers
 * its ARN; any other start of an existing name answers {@link Start.AlreadyExists}. Nothing runs by itself:
 * a test closes an execution with {@link #close}, or wraps this in the runtime's local driver.
 */
public final class InMemoryExecutions implements LongExecutions {

    public static final String PREFIX = "arn:aws:states:us-east-1:123456789012:stateMachine:punctual-test-";

    private final Clock clock;
    private final Map<String, Execution> byArn = new LinkedHashMap<>();
    private final List<String> starts = new ArrayList<>();

    public InMemoryExecutions(Clock clock) {
        this.clock = clock;
    }

    @Override
    public synchronized Start start(String jobId, String name, String input) {
        String arn = arnOf(jobId, name);
        starts.add(name);
        Execution existing = byArn.get(arn);
        if (existing == null) {
            byArn.put(
                    arn,
                    new Execution(
                            arn,
                            name,
                            Status.RUNNING,
                            input,
                            clock.instant(),
                            Optional.empty(),
                            Optional.empty(),
                            Optional.empty()));
            return new Start.Started(arn);
        }
        if (existing.status() == Status.RUNNING && existing.input().equals(input)) {
            return new Start.Started(arn);
        }
        return new Start.AlreadyExists(arn);
    }

    @Override
    public String arnOf(String jobId, String name) {
        return dev.punctual.longrun.LongRunNames.executionArn(PREFIX + jobId, name);
    }

    @Override
    public synchronized Optional<Execution> describe(String jobId, String name) {
        return Optional.ofNullable(byArn.get(arnOf(jobId, name)));
    }

    @Override
    public synchronized boolean stop(String jobId, String name, String cause) {
        Execution found = byArn.get(arnOf(jobId, name));
        if (found == null || found.status().closed()) {
            return false;
        }
        close(jobId, name, Status.ABORTED, CANCELLED_ERROR, cause);
        return true;
    }

    /** Ends an execution as Step Functions would (a timeout, a failure outside a chunk, a stop). */
    public synchronized Execution close(String jobId, String name, Status status, String error, String cause) {
        String arn = arnOf(jobId, name);
        Execution found = byArn.get(arn);
        if (found == null) {
            throw new IllegalArgumentException("no execution " + name);
        }
        Execution closed = new Execution(
                arn,
                name,
                status,
                found.input(),
                found.startedAt(),
                Optional.of(clock.instant()),
                Optional.ofNullable(error),
                Optional.ofNullable(cause));
        byArn.put(arn, closed);
        return closed;
    }

    /** Every execution ever created, in the order created. */
    public synchronized List<Execution> executions() {
        return List.copyOf(byArn.values());
    }

    /** Every start asked for (by name), including resends and refused ones. */
    public synchronized List<String> starts() {
        return List.copyOf(starts);
    }
}
