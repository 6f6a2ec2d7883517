package dev.punctual.longrun;

import java.time.Instant;
import java.util.Optional;

/**
 * The port a long occurrence is handed off through (decision 0039): Step Functions on AWS and on moto;
 * another engine (Lambda durable functions, once its Java SDK can be had) would be another adapter. Every
 * method names the job, whose state machine the adapter knows, and the execution's derived name.
 */
public interface LongExecutions {

    /**
     * Starts the execution {@code name} of the job's state machine with {@code input}. Step Functions starts
     * nothing when an execution of that name exists: a running one with the same input answers its ARN as
     * a start would; anything else answers {@link Start.AlreadyExists}, which the caller reads back with
     * {@link #describe} and never takes for a new start or for a failure to start.
     *
     * @throws LongExecutionException when the engine cannot be reached or refuses for another reason
     */
    Start start(String jobId, String name, String input);

    /** The ARN the execution {@code name} of the job's state machine has (or will have once started). */
    String arnOf(String jobId, String name);

    /** The execution as the engine has it; empty when no execution of that name exists. */
    Optional<Execution> describe(String jobId, String name);

    /**
     * The error a stop by {@code punctual cancel} carries (its cause is the cancel's "CANCELLED by WHO:
     * REASON"): the ABORTED execution's status event is then recorded as CANCELLED, not as a failure.
     */
    String CANCELLED_ERROR = "Punctual.Cancelled";

    /**
     * Stops a running execution (ABORTED). False when it was no longer running (or never existed).
     */
    boolean stop(String jobId, String name, String cause);

    /** A stage without long jobs' engine: every call says so, naming what is missing. */
    LongExecutions NONE = new LongExecutions() {
        private LongExecutionException missing() {
            return new LongExecutionException("this runtime has no Step Functions client: a long job's occurrence"
                    + " cannot be started here (set PUNCTUAL_STATE_MACHINE_PREFIX, or use the emulator's endpoint)");
        }

        @Override
        public Start start(String jobId, String name, String input) {
            throw missing();
        }

        @Override
        public String arnOf(String jobId, String name) {
            throw missing();
        }

        @Override
        public Optional<Execution> describe(String jobId, String name) {
            throw missing();
        }

        @Override
        public boolean stop(String jobId, String name, String cause) {
            throw missing();
        }
    };

    /** How a start was answered. */
    sealed interface Start {
        String arn();

        /** Started now, or a resend of the same start to a running execution (the same ARN). */
        record Started(String arn) implements Start {}

        /** An execution of that name exists (closed, or with another input): read it back. */
        record AlreadyExists(String arn) implements Start {}
    }

    /** An execution's state. */
    record Execution(
            String arn,
            String name,
            Status status,
            String input,
            Instant startedAt,
            Optional<Instant> stoppedAt,
            Optional<String> error,
            Optional<String> cause) {}

    /** Step Functions' execution states. */
    enum Status {
        RUNNING,
        SUCCEEDED,
        FAILED,
        TIMED_OUT,
        ABORTED,
        PENDING_REDRIVE;

        public boolean closed() {
            return this != RUNNING && this != PENDING_REDRIVE;
        }
    }
}
