package dev.punctual.longrun.stepfunctions;

import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.longrun.LongRunNames;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.StateMachineAlreadyExistsException;
import software.amazon.awssdk.services.sfn.model.StateMachineType;

/**
 * The long jobs' state machines on the emulator (decision 0039, 6): moto keeps them for their names and
 * executions only (it cannot invoke the function; the {@code LocalExecutionDriver} carries the steps out),
 * so each is created with a placeholder definition under the name the stage would deploy.
 */
public final class EmulatorStateMachines {

    /** moto's account: every ARN it answers is in it. */
    public static final String ACCOUNT = "123456789012";

    private EmulatorStateMachines() {}

    /** The prefix a function on the emulator is given, as the stage sets it on AWS. */
    public static String prefix(Region region, String stage) {
        return "arn:aws:states:" + region.id() + ":" + ACCOUNT + ":stateMachine:punctual-" + stage + "-";
    }

    /** Creates the state machines the catalog's long jobs need and are missing; returns those created. */
    public static List<String> createIfMissing(URI endpoint, Region region, String stage, JobCatalog catalog) {
        List<String> created = new ArrayList<>();
        List<JobDefinition> longJobs =
                catalog.jobs().stream().filter(JobDefinition::isLong).toList();
        if (longJobs.isEmpty()) {
            return created;
        }
        try (SfnClient sfn = SfnClient.builder()
                .endpointOverride(endpoint)
                .region(region)
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create("punctual-local", "punctual-local")))
                .httpClient(UrlConnectionHttpClient.create())
                .build()) {
            for (JobDefinition job : longJobs) {
                String name = LongRunNames.stateMachine(stage, job.id());
                try {
                    sfn.createStateMachine(
                            b -> b.name(name)
                                    .type(StateMachineType.STANDARD)
                                    .roleArn("arn:aws:iam::" + ACCOUNT + ":role/punctual-local")
                                    .definition(
                                            "{\"Comment\":\"on the emulator the steps run in the CLI\","
                                                    + "\"StartAt\":\"Local\",\"States\":{\"Local\":{\"Type\":\"Pass\",\"End\":true}}}"));
                    created.add(name);
                } catch (StateMachineAlreadyExistsException exists) {
                    // created by an earlier command on this emulator
                }
            }
        }
        return created;
    }
}
