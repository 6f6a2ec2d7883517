package dev.punctual.infra;

import dev.punctual.job.JobDefinition;
import dev.punctual.json.Json;
import dev.punctual.runtime.ScheduledPayload;
import io.github.cdklabs.cdknag.NagPackSuppression;
import io.github.cdklabs.cdknag.NagSuppressions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awscdk.Fn;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.customresources.AwsCustomResource;
import software.amazon.awscdk.customresources.AwsCustomResourcePolicy;
import software.amazon.awscdk.customresources.AwsSdkCall;
import software.amazon.awscdk.customresources.PhysicalResourceId;
import software.amazon.awscdk.customresources.SdkCallsPolicyOptions;
import software.amazon.awscdk.services.lambda.IFunction;
import software.constructs.Construct;

/**
 * The Lambda console's shareable test events for each pool's function: a schema named
 * {@code _<function name>-schema} (written by SDK calls, see {@link #schemaCall}) in the account's
 * {@value #REGISTRY} registry, whose
 * {@code components.examples} the console lists under "Test". The examples come from the catalog (a
 * manual run of each job, a dry-run replay of a fixed past day, a ping), so they stay valid on any day.
 *
 * <p>The registry exists once per account and region, whoever made it: the console makes it the first
 * time anyone saves a shareable event, and two stages may share an account. A CloudFormation registry
 * resource would fail on the second of them, so the stage makes sure it exists with one SDK call that
 * tolerates "already exists", and never deletes it (other functions' events live there too).
 */
final class ConsoleTestEvents extends Construct {

    static final String REGISTRY = "lambda-testevent-schemas";

    /** The id under which CDK places the singleton function behind every AwsCustomResource of a stack. */
    private static final String PROVIDER_ID = "AWS679f53fac002430cb0da5b7982bd2287";

    /** A past day, so the dry-run replay example is due whatever today is. */
    static final String REPLAY_FROM = "2026-01-05T00:00:00Z";

    static final String REPLAY_TO = "2026-01-06T00:00:00Z";

    /**
     * Examples for at most this many jobs per pool (the first in catalog order). Each job's two examples
     * add about 1 KB to the stage template (the content travels in two SDK calls, escaped); 2,000 jobs
     * made the stage template 1.9 MB, past CloudFormation's 1 MB. Other jobs' payloads are in
     * {@code events/} and the CLI.
     */
    static final int MAX_JOBS_WITH_EXAMPLES = 50;

    ConsoleTestEvents(
            Construct scope, String id, Map<String, IFunction> functions, Map<String, List<JobDefinition>> jobsByPool) {
        super(scope, id);
        AwsCustomResource registry = registryEnsured();
        functions.forEach((pool, function) -> {
            String name = Fn.join("", List.of("_", function.getFunctionName(), "-schema"));
            String content = content(jobsByPool.getOrDefault(pool, List.of()));
            AwsCustomResource created = schemaCall("SchemaCreated-" + pool, "createSchema", name, content, true);
            AwsCustomResource written = schemaCall("SchemaWritten-" + pool, "updateSchema", name, content, false);
            created.getNode().addDependency(registry);
            written.getNode().addDependency(created);
        });
    }

    /**
     * The console may have made the function's schema already (an operator saved a shareable event),
     * so a CloudFormation schema resource would fail the deploy. Instead: create it, taking "already
     * exists" as success, once; then write this deploy's examples into it on every change. Events an
     * operator saved in the console for these functions are replaced by the catalog's at each deploy
     * (docs/deploy.md says so); the schema is left in place when the stage is removed.
     */
    private AwsCustomResource schemaCall(String id, String action, String name, String content, boolean createOnly) {
        Map<String, Object> parameters = new TreeMap<>(Map.of(
                "RegistryName", REGISTRY,
                "SchemaName", name,
                "Type", "OpenApi3",
                "Description", "Punctual test events",
                "Content", content));
        return sdkCall(id, action, parameters, "schema/" + REGISTRY + "/" + name, createOnly);
    }

    /** CreateRegistry, with "already exists" (ConflictException) taken as success; nothing on delete. */
    private AwsCustomResource registryEnsured() {
        Map<String, Object> parameters = new TreeMap<>(
                Map.of("RegistryName", REGISTRY, "Description", "Shareable test events of the Lambda console"));
        AwsCustomResource registry = sdkCall("Registry", "createRegistry", parameters, "registry/" + REGISTRY, true);
        // Only the provider function CDK shares across the stack's custom resources is flagged; the
        // suppression stays on it, not on the stack (whose every resource would carry it).
        NagSuppressions.addResourceSuppressions(
                Stack.of(this).getNode().findChild(PROVIDER_ID),
                List.of(
                        NagPackSuppression.builder()
                                .id("AwsSolutions-IAM4")
                                .reason("CDK's custom-resource provider logs with AWSLambdaBasicExecutionRole; it"
                                        + " runs once per deploy to create the test-event registry")
                                .appliesTo(List.of("Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/"
                                        + "AWSLambdaBasicExecutionRole"))
                                .build(),
                        NagPackSuppression.builder()
                                .id("AwsSolutions-L1")
                                .reason("CDK's custom-resource provider picks its own Node.js runtime")
                                .build()),
                true);
        return registry;
    }

    /**
     * One EventBridge Schemas call made by the deploy, allowed on exactly the one resource it names.
     * {@code createOnly}: run when the resource is created, with "already exists" taken as success;
     * otherwise run on every change too.
     */
    private AwsCustomResource sdkCall(
            String id, String action, Map<String, Object> parameters, String resource, boolean createOnly) {
        Stack stack = Stack.of(this);
        String arn = "arn:" + stack.getPartition() + ":schemas:" + stack.getRegion() + ":" + stack.getAccount() + ":"
                + resource;
        AwsSdkCall.Builder call = AwsSdkCall.builder()
                .service("Schemas")
                .action(action)
                .parameters(parameters)
                .physicalResourceId(PhysicalResourceId.of(id));
        if (createOnly) {
            call.ignoreErrorCodesMatching("ConflictException");
        }
        AwsCustomResource.Builder custom = AwsCustomResource.Builder.create(this, id)
                .onCreate(call.build())
                .installLatestAwsSdk(false)
                .policy(AwsCustomResourcePolicy.fromSdkCalls(
                        SdkCallsPolicyOptions.builder().resources(List.of(arn)).build()));
        if (!createOnly) {
            custom.onUpdate(call.build());
        }
        return custom.build();
    }

    /** An OpenAPI 3 document with the payload's shape and one example per test event. */
    static String content(List<JobDefinition> jobs) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put(ScheduledPayload.KIND, Map.of("type", "string"));
        properties.put(ScheduledPayload.JOB, Map.of("type", "string"));
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("type", "object");
        event.put("required", List.of(ScheduledPayload.KIND));
        event.put("properties", properties);
        Map<String, Object> components = new LinkedHashMap<>();
        components.put("schemas", Map.of("Event", event));
        components.put("examples", examples(jobs));
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("openapi", "3.0.0");
        document.put("info", new TreeMap<>(Map.of("title", "Event", "version", "1.0.0")));
        document.put("paths", Map.of());
        document.put("components", components);
        return Json.write(document);
    }

    private static Map<String, Object> examples(List<JobDefinition> jobs) {
        Map<String, Object> examples = new LinkedHashMap<>();
        for (JobDefinition job : jobs.subList(0, Math.min(jobs.size(), MAX_JOBS_WITH_EXAMPLES))) {
            Map<String, Object> run = new LinkedHashMap<>();
            run.put(ScheduledPayload.KIND, "run");
            run.put(ScheduledPayload.JOB, job.id());
            examples.put("run-" + job.id(), Map.of("value", run));
            Map<String, Object> replay = new LinkedHashMap<>();
            replay.put(ScheduledPayload.KIND, "replay");
            replay.put(ScheduledPayload.JOB, job.id());
            replay.put("from", REPLAY_FROM);
            replay.put("to", REPLAY_TO);
            replay.put("dryRun", true);
            examples.put("replay-dry-run-" + job.id(), Map.of("value", replay));
        }
        examples.put("ping", Map.of("value", Map.of(ScheduledPayload.KIND, "ping")));
        return examples;
    }
}
