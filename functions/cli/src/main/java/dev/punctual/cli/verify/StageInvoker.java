package dev.punctual.cli.verify;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.infra.FunctionPoolConstruct;
import dev.punctual.job.JobDefinition;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.InvocationType;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;

/**
 * Runs one job by hand, or a dry run of it, in the deployed function: a {@code RequestResponse} Invoke of
 * the pool's {@value FunctionPoolConstruct#ALIAS} alias with the {@code run} payload of events/ (the same
 * the scheduler's target and {@code punctual run} use), so the run takes the function's role, environment
 * and guards.
 */
public final class StageInvoker {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final LambdaClient lambda;
    private final Map<String, String> aliases;

    /** @param aliases each pool's alias ARN, by pool name */
    public StageInvoker(LambdaClient lambda, Map<String, String> aliases) {
        this.lambda = lambda;
        this.aliases = Map.copyOf(aliases);
    }

    /** Runs the occurrence {@code at} (the latest due when empty), re-running a done one when {@code force}. */
    public RunOutcome run(JobDefinition job, Optional<String> at, boolean force) {
        String alias = aliases.get(job.pool().name());
        if (alias == null) {
            return new RunOutcome(
                    job.id(),
                    "ERROR",
                    "NO_FUNCTION",
                    "",
                    "pool " + job.pool().name() + " has no function in the stage");
        }
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("kind", "run");
        payload.put("job", job.id());
        at.ifPresent(t -> payload.put("at", t));
        payload.put("force", force);
        InvokeResponse response = invoke(alias, payload);
        return RunOutcome.parse(job.id(), body(response), response.functionError() != null);
    }

    /**
     * A dry run of the latest occurrence due, in the deployed function: its preview counts, computed with
     * the function's role. {@code force}, so an occurrence already done is counted too: a dry run claims
     * and writes nothing, so forcing it only means "count it anyway".
     */
    public DryRunCountsCheck.Preview preview(JobDefinition job) {
        String alias = aliases.get(job.pool().name());
        if (alias == null) {
            return DryRunCountsCheck.Preview.error("pool " + job.pool().name() + " has no function in the stage");
        }
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("kind", "run");
        payload.put("job", job.id());
        payload.put("force", true);
        payload.put(dev.punctual.runtime.ScheduledPayload.DRY_RUN, true);
        InvokeResponse response = invoke(alias, payload);
        return JobPreviews.parse(body(response), response.functionError() != null);
    }

    /** A ping of the pool's function: each maintenance condition as it evaluates it, with its own role. */
    public MaintenanceConditionsCheck.Answer conditions(String pool) {
        String alias = aliases.get(pool);
        if (alias == null) {
            return MaintenanceConditionsCheck.Answer.failed("pool " + pool + " has no function in the stage");
        }
        InvokeResponse response = invoke(alias, Map.of("kind", "ping"));
        return MaintenanceConditionsCheck.parse(body(response), response.functionError() != null);
    }

    private InvokeResponse invoke(String alias, Map<String, Object> payload) {
        return lambda.invoke(r -> r.functionName(alias)
                .invocationType(InvocationType.REQUEST_RESPONSE)
                .payload(SdkBytes.fromUtf8String(json(payload))));
    }

    private static String body(InvokeResponse response) {
        return response.payload() == null ? "" : response.payload().asUtf8String();
    }

    private static String json(Map<String, Object> payload) {
        try {
            return JSON.writeValueAsString(payload);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
