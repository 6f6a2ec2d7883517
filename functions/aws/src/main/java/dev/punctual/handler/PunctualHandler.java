package dev.punctual.handler;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.punctual.job.JobCatalog;
import dev.punctual.observability.StructuredLog;
import dev.punctual.runtime.Deadline;
import dev.punctual.runtime.InvocationResult;
import dev.punctual.runtime.PunctualRuntime;
import dev.punctual.runtime.ResultJson;
import dev.punctual.runtime.longrun.ChunkAttemptFailed;
import dev.punctual.runtime.longrun.OccurrenceEnded;
import dev.punctual.stage.SkewTolerance;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;

/**
 * The Lambda entry point of every function pool. Thin: it reads the payload, hands it to the runtime
 * with the invocation's deadline, and writes the JSON result. The runtime is built once per container
 * during Lambda's init phase (and captured by SnapStart); a refused payload is a result, not an
 * exception.
 */
public final class PunctualHandler implements RequestStreamHandler {

    private final PunctualRuntime runtime;
    private final StructuredLog log;
    private final Clock clock;
    private final SkewTolerance skewTolerance;
    private final AtomicBoolean cold = new AtomicBoolean(true);

    /** Lambda's constructor: wires the runtime from the function's environment. */
    public PunctualHandler() {
        this(FromEnvironment.RUNTIME, FromEnvironment.LOG, FromEnvironment.CLOCK, FromEnvironment.SKEW_TOLERANCE);
    }

    PunctualHandler(PunctualRuntime runtime, StructuredLog log, Clock clock) {
        this(runtime, log, clock, SkewTolerance.DEFAULT);
    }

    /** @param skewTolerance the stage's (its functions' {@link SkewTolerance#ENV}), in every invocation's deadline */
    PunctualHandler(PunctualRuntime runtime, StructuredLog log, Clock clock, SkewTolerance skewTolerance) {
        this.runtime = runtime;
        this.log = log;
        this.clock = clock;
        this.skewTolerance = skewTolerance;
    }

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        String payload = new String(input.readAllBytes(), StandardCharsets.UTF_8);
        Deadline deadline = deadline(context);
        StructuredLog invocationLog = log.forInvocation(context.getAwsRequestId(), cold.getAndSet(false));
        if (PunctualRuntime.isLongStep(payload)) {
            output.write(step(payload, deadline, invocationLog).getBytes(StandardCharsets.UTF_8));
            return;
        }
        InvocationResult result;
        try {
            result = runtime.handle(payload, deadline, invocationLog);
        } catch (RuntimeException | Error fault) {
            // A fault (the ledger unreachable, a bug): one structured line with the request id, so the
            // saved queries find it, then Lambda's retry takes the event as for any failure.
            invocationLog.error("invocation fault", faultFields(fault));
            throw fault;
        }
        output.write(ResultJson.render(result).getBytes(StandardCharsets.UTF_8));
        RetryPolicy.throwIfRetryable(result, runtime.services().catalog());
    }

    /**
     * A long occurrence's step (decision 0039): its answer for Step Functions, or the exception whose class
     * name the state machine's retrier matches (a failed chunk attempt) or that ends the execution.
     */
    private String step(String payload, Deadline deadline, StructuredLog invocationLog) {
        try {
            return runtime.step(payload, deadline, invocationLog);
        } catch (ChunkAttemptFailed | OccurrenceEnded expected) {
            invocationLog.warn(
                    "long step ended",
                    Map.of(
                            "error_type",
                            expected.getClass().getName(),
                            "error",
                            String.valueOf(expected.getMessage())));
            throw expected;
        } catch (RuntimeException | Error fault) {
            invocationLog.error("invocation fault", faultFields(fault));
            throw fault;
        }
    }

    /** The invocation's budget: Lambda's remaining time, read now, with the stage's skew tolerance. */
    Deadline deadline(Context context) {
        return Deadline.fromRemaining(
                clock.instant(), Duration.ofMillis(context.getRemainingTimeInMillis()), skewTolerance.value());
    }

    /** The fault's type and message (redacted by the log) and the first frame that is Punctual's. */
    static Map<String, Object> faultFields(Throwable fault) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("error_type", fault.getClass().getName());
        fields.put("error", String.valueOf(fault.getMessage()));
        for (StackTraceElement frame : fault.getStackTrace()) {
            if (frame.getClassName().startsWith("dev.punctual.")) {
                fields.put("at", frame.toString());
                break;
            }
        }
        return fields;
    }

    /** Built on first use of the no-argument constructor, i.e. in Lambda's init phase. */
    private static final class FromEnvironment {
        static final Map<String, String> ENV = System.getenv();
        static final Clock CLOCK = Clock.systemUTC();
        static final AwsCredentialsProvider CREDENTIALS =
                DefaultCredentialsProvider.builder().build();
        // First, so that the warm-up thread rehearses a delivery's SDK calls while this one loads the
        // catalog, builds the clients and the runtime (decision 0024). The catalog comes first: a catalog
        // that builds its clients lazily (as the examples do) needs no SDK class, so the rehearsal's
        // clients are built meanwhile without competing for them. A catalog or a client that cannot be
        // built fails the init phase here.
        static final WarmUp WARM_UP = Wiring.warmUp(ENV);
        static final JobCatalog CATALOG = Wiring.catalog(ENV, CLOCK);
        static final Wiring.Clients CLIENTS = Wiring.clients(ENV, CREDENTIALS);
        static final PunctualRuntime RUNTIME = Wiring.runtime(ENV, CLIENTS, CATALOG, CLOCK, System.out::println);
        static final StructuredLog LOG = Wiring.log(System.out::println, CLOCK);
        static final SkewTolerance SKEW_TOLERANCE = SkewTolerance.fromEnvironment(ENV);

        static {
            Priming.register(CLIENTS, WARM_UP);
        }

        private FromEnvironment() {}
    }
}
