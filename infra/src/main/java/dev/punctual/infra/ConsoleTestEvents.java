package dev.punctual.infra;

import dev.punctual.job.JobDefinition;
import dev.punctual.json.Json;
import dev.punctual.runtime.ScheduledPayload;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awscdk.CustomResource;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Fn;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.lambda.Architecture;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.lambda.Runtime;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.logs.RetentionDays;
import software.constructs.Construct;

/**
 * The Lambda console's shareable test events for each pool's function: a schema named
 * {@code _<function name>-schema} in the account's {@value #REGISTRY} registry, whose
 * {@code components.examples} the console lists under "Test". The examples come from the catalog (a
 * manual run of each job, a dry-run replay of a fixed past day, a ping), so they stay valid on any day.
 *
 * <p>One custom resource per pool ({@value #RESOURCE_TYPE}), served by one small function of the
 * stage built from the same jar as the pools ({@code dev.punctual.handler.ConsoleTestEventsHandler}),
 * makes one create-or-update: it makes sure the registry exists (the registry exists once per account
 * and region, whoever made it: the console makes it the first time anyone saves a shareable event, and
 * two stages may share an account, so "already exists" is success and it is never deleted), creates the
 * schema when there is none, and writes this deploy's examples only when they differ from the schema's
 * latest version. It never sends an UpdateSchema that changes nothing: the Schemas API reference says
 * nothing of what the service answers to one (UpdateSchema's listed errors are BadRequestException,
 * Forbidden, NotFound, InternalServerError, ServiceUnavailable), and the earlier design, an
 * AwsCustomResource that created the schema and a second one that wrote the same content into it right
 * after, would roll back a first deploy if that answer is a refusal. CDK's AwsCustomResource cannot do
 * this in one resource: it makes exactly one SDK call per event, and could only ignore the refusal by
 * its error code, which (BadRequestException) also names real faults. Events an operator saved in the
 * console for these functions are replaced by the catalog's when the examples change (docs/deploy.md);
 * the schema is left in place when the stage is removed.
 */
final class ConsoleTestEvents extends Construct {

    static final String REGISTRY = "lambda-testevent-schemas";

    /** The custom resource's type in the template. */
    static final String RESOURCE_TYPE = "Custom::PunctualTestEvents";

    /** The Lambda handler behind it, in punctual-lambda.jar. */
    static final String HANDLER = "dev.punctual.handler.ConsoleTestEventsHandler::handleRequest";

    /** A past day, so the dry-run replay example is due whatever today is. */
    static final String REPLAY_FROM = "2026-01-05T00:00:00Z";

    static final String REPLAY_TO = "2026-01-06T00:00:00Z";

    /**
     * Examples for at most this many jobs per pool (the first in catalog order). Each job's two examples
     * add about half a kilobyte to the stage template; 2,000 jobs made the stage template 1.9 MB, past
     * CloudFormation's 1 MB, when the content travelled in two SDK calls. Other jobs' payloads are in
     * {@code events/} and the CLI.
     */
    static final int MAX_JOBS_WITH_EXAMPLES = 50;

    private final Function function;
    private final Map<String, CustomResource> schemas = new LinkedHashMap<>();

    ConsoleTestEvents(
            Construct scope,
            String id,
            Runtime runtime,
            Code code,
            Map<String, IFunction> functions,
            Map<String, List<JobDefinition>> jobsByPool) {
        super(scope, id);
        Stack stack = Stack.of(this);
        LogGroup logs = LogGroup.Builder.create(this, "Logs")
                .retention(RetentionDays.ONE_MONTH)
                .removalPolicy(RemovalPolicy.DESTROY)
                .build();
        Role role = Role.Builder.create(this, "Role")
                .assumedBy(new ServicePrincipal("lambda.amazonaws.com"))
                .description("Punctual: writes the pools' console test events; its log group, the registry, the"
                        + " pools' schemas; nothing else")
                .build();
        role.addToPolicy(allow(List.of("logs:CreateLogStream", "logs:PutLogEvents"), List.of(logs.getLogGroupArn())));
        role.addToPolicy(allow(List.of("schemas:CreateRegistry"), List.of(arn(stack, "registry/" + REGISTRY))));
        Map<String, String> names = new LinkedHashMap<>();
        functions.forEach((pool, f) -> names.put(pool, Fn.join("", List.of("_", f.getFunctionName(), "-schema"))));
        role.addToPolicy(allow(
                List.of("schemas:DescribeSchema", "schemas:CreateSchema", "schemas:UpdateSchema"),
                names.values().stream()
                        .map(name -> arn(stack, "schema/" + REGISTRY + "/" + name))
                        .toList()));
        this.function = Function.Builder.create(this, "Function")
                .description("Punctual: creates or updates the console's shareable test events of each pool")
                .runtime(runtime)
                .architecture(Architecture.ARM_64)
                .handler(HANDLER)
                .code(code)
                .memorySize(512)
                .timeout(Duration.minutes(2))
                .role(role)
                .logGroup(logs)
                .build();
        functions.forEach((pool, f) -> {
            Map<String, Object> properties = new TreeMap<>(Map.of(
                    "RegistryName",
                    REGISTRY,
                    "RegistryDescription",
                    "Shareable test events of the Lambda console",
                    "SchemaName",
                    names.get(pool),
                    "Type",
                    "OpenApi3",
                    "Description",
                    "Punctual test events",
                    "Content",
                    content(jobsByPool.getOrDefault(pool, List.of()))));
            CustomResource schema = CustomResource.Builder.create(this, "Schema-" + pool)
                    .serviceToken(function.getFunctionArn())
                    .resourceType(RESOURCE_TYPE)
                    .properties(properties)
                    .build();
            // The role's policy first: the function must be allowed its calls when it runs.
            schema.getNode().addDependency(role);
            schemas.put(pool, schema);
        });
    }

    /** The function that serves the custom resources. */
    Function function() {
        return function;
    }

    /** Each pool's create-or-update of its schema, by pool name. */
    Map<String, CustomResource> schemas() {
        return schemas;
    }

    private static String arn(Stack stack, String resource) {
        return "arn:" + stack.getPartition() + ":schemas:" + stack.getRegion() + ":" + stack.getAccount() + ":"
                + resource;
    }

    private static PolicyStatement allow(List<String> actions, List<String> resources) {
        return PolicyStatement.Builder.create()
                .actions(actions)
                .resources(resources)
                .build();
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

    /**
     * The entity the examples of a per-entity job name: its run and replay are refused without one, and
     * the console cannot know the team's entities. An operator replaces it (and the zone) with one of
     * theirs ({@code punctual schedules list JOB}); its own expression is the job's default.
     */
    static final String EXAMPLE_ENTITY = "example-entity";

    private static Map<String, Object> examples(List<JobDefinition> jobs) {
        Map<String, Object> examples = new LinkedHashMap<>();
        for (JobDefinition job : jobs.subList(0, Math.min(jobs.size(), MAX_JOBS_WITH_EXAMPLES))) {
            Map<String, Object> run = new LinkedHashMap<>();
            run.put(ScheduledPayload.KIND, "run");
            run.put(ScheduledPayload.JOB, job.id());
            putExampleEntity(run, job);
            examples.put("run-" + job.id(), Map.of("value", run));
            Map<String, Object> replay = new LinkedHashMap<>();
            replay.put(ScheduledPayload.KIND, "replay");
            replay.put(ScheduledPayload.JOB, job.id());
            putExampleEntity(replay, job);
            replay.put("from", REPLAY_FROM);
            replay.put("to", REPLAY_TO);
            replay.put("dry_run", true);
            examples.put("replay-dry-run-" + job.id(), Map.of("value", replay));
        }
        examples.put("ping", Map.of("value", Map.of(ScheduledPayload.KIND, "ping")));
        return examples;
    }

    /** A per-entity job's example names an entity in UTC, as its delivery would; any other job's none. */
    private static void putExampleEntity(Map<String, Object> payload, JobDefinition job) {
        if (job.isPerEntity()) {
            payload.put(ScheduledPayload.ENTITY, EXAMPLE_ENTITY);
            payload.put(ScheduledPayload.ZONE, "UTC");
        }
    }
}
