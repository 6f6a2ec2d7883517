package dev.punctual.cli.stage;

import dev.punctual.cli.input.OperatorInputException;
import dev.punctual.cli.input.Suggestions;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.stage.StageFlags;
import java.util.Optional;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.lambda.LambdaClient;

/**
 * A deployed stage opened for one command: its outputs, a Lambda client, and the pool whose function
 * runs the job (from the catalog this CLI was built with; the function refuses a job it does not have).
 *
 * @param definition the job's definition, when the payload names a job
 */
public record Remote(RemoteInvocation invocation, LambdaClient lambda, String pool, Optional<JobDefinition> definition)
        implements AutoCloseable {

    public static Remote open(CliContext context, StageOptions options, Optional<String> job) {
        return open(context, options, job, OperatorSession.definitions(StageFlags.defaultsFor(options.stageName())));
    }

    /** @param catalog the catalog the job is looked up in: this CLI's (the stage's flags), or a test's */
    public static Remote open(CliContext context, StageOptions options, Optional<String> job, JobCatalog catalog) {
        String stageName = options.stageName();
        StageFlags flags = StageFlags.defaultsFor(stageName);
        Optional<JobDefinition> definition = job.map(id -> known(catalog, id));
        Region region = context.aws().region(options.region);
        DeployedStage deployed = OperatorSession.discover(context, region, stageName, flags);
        // A payload without a job (a ping) goes to the first pool: every pool answers it the same way.
        String pool = definition
                .map(d -> d.pool().name())
                .orElseGet(() -> deployed.poolAliases().firstKey());
        LambdaClient lambda = context.aws().lambda(region);
        return new Remote(new RemoteInvocation(lambda, deployed), lambda, pool, definition);
    }

    /** The job's definition; an id the catalog does not have exits 2 with the closest ids. */
    public static JobDefinition known(JobCatalog catalog, String id) {
        return catalog.find(id)
                .orElseThrow(
                        () -> new OperatorInputException("JOB: '" + id + "' is not a job of this catalog; accepted: "
                                + String.join(", ", catalog.ids()) + Suggestions.didYouMean(id, catalog.ids())));
    }

    @Override
    public void close() {
        lambda.close();
    }
}
