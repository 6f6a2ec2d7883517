package dev.punctual.cli.verify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.infra.FunctionPoolConstruct;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.services.lambda.model.EventSourceMappingConfiguration;
import software.amazon.awssdk.services.lambda.model.FunctionUrlConfig;
import software.amazon.awssdk.services.lambda.model.ResourceNotFoundException;
import software.amazon.awssdk.services.scheduler.model.ScheduleSummary;

/**
 * Nothing can start the stage's functions but its schedules, through the role they deliver with, and
 * its operators, through the stage's operator policy: the source material's negative access check ("a
 * request without the token is refused before the handler"). Both are identity-side grants the stage
 * makes (the schedules' role policy, the operators' managed policy), so a function of a healthy stage has
 * no resource policy statement, no function URL and no event source mapping; each one found (on the
 * function or its {@code live} alias) is another way in, outside the catalog's timing and the operators'
 * policy, and is named. The exceptions: a statement that names one of the schedules' roles, and, for a pool
 * hosting a long job, EventBridge's from the stage's own status-change rule ({@code LongRunNames.statusRule}: a
 * rule cannot invoke through a role, so its target is this one statement; decision 0039).
 *
 * @param functions how many functions were read, each with its alias
 * @param extras each extra principal, URL or trigger, in words
 */
public record FunctionAccessCheck(int functions, List<String> extras) implements Check {

    private static final ObjectMapper JSON = new ObjectMapper();

    public FunctionAccessCheck {
        extras = List.copyOf(extras);
    }

    public static FunctionAccessCheck read(StageAws aws, StageInventory deployed) {
        Set<String> roles = scheduleRoles(aws, deployed.scheduleGroup());
        Set<String> extras = new LinkedHashSet<>();
        Set<String> mappings = new HashSet<>();
        Map<String, String> functions = deployed.functionsByPool();
        deployed.aliases().forEach((pool, alias) -> {
            String function = functions.get(pool);
            for (Optional<String> qualifier :
                    List.of(Optional.<String>empty(), Optional.of(FunctionPoolConstruct.ALIAS))) {
                String target = qualifier.map(q -> function + ":" + q).orElse(function);
                policy(aws, function, qualifier)
                        .ifPresent(policy -> extras.addAll(extraStatements(policy, target, roles, deployed.stage())));
                // Mappings are listed by the exact name they were made for: the function, or its alias.
                for (EventSourceMappingConfiguration mapping : aws.lambda()
                        .listEventSourceMappingsPaginator(r -> r.functionName(qualifier.isPresent() ? alias : function))
                        .eventSourceMappings()) {
                    if (mappings.add(mapping.uuid())) {
                        extras.add(mapping.functionArn() + ": event source mapping from " + mapping.eventSourceArn()
                                + " (uuid " + mapping.uuid() + ", " + mapping.state() + ")");
                    }
                }
            }
            // One call lists the URLs of the function and of each of its aliases.
            for (FunctionUrlConfig url : aws.lambda()
                    .listFunctionUrlConfigsPaginator(r -> r.functionName(function))
                    .functionUrlConfigs()) {
                extras.add(url.functionArn() + ": function URL " + url.functionUrl() + " (auth "
                        + url.authTypeAsString() + ")");
            }
        });
        return new FunctionAccessCheck(deployed.aliases().size(), List.copyOf(extras));
    }

    /** The roles the stage's schedules deliver with: the one principal a resource policy may name. */
    private static Set<String> scheduleRoles(StageAws aws, String group) {
        Set<String> roles = new HashSet<>();
        for (ScheduleSummary summary :
                aws.scheduler().listSchedulesPaginator(r -> r.groupName(group)).schedules()) {
            var target = aws.scheduler()
                    .getSchedule(r -> r.groupName(group).name(summary.name()))
                    .target();
            if (target != null && target.roleArn() != null) {
                roles.add(target.roleArn());
            }
        }
        return roles;
    }

    /** The function's (or alias's) resource policy, if it has one (GetPolicy answers 404 when it has none). */
    private static Optional<String> policy(StageAws aws, String function, Optional<String> qualifier) {
        try {
            return Optional.of(aws.lambda()
                    .getPolicy(r -> r.functionName(function).qualifier(qualifier.orElse(null)))
                    .policy());
        } catch (ResourceNotFoundException e) {
            return Optional.empty();
        }
    }

    /**
     * Each statement of a resource policy that allows a principal other than the schedules' roles, as
     * {@code <resource>: statement <sid> lets <principal> <action> [(from <source>)]}.
     *
     * @param target what the policy was read for, named when a statement has no resource of its own
     */
    static List<String> extraStatements(String policy, String target, Set<String> allowedRoles) {
        return extraStatements(policy, target, allowedRoles, null);
    }

    /** @param stage the stage whose long-run rule may invoke (null: none may) */
    static List<String> extraStatements(String policy, String target, Set<String> allowedRoles, String stage) {
        JsonNode statements;
        try {
            statements = JSON.readTree(policy).path("Statement");
        } catch (IOException e) {
            return List.of(target + ": a resource policy that is not JSON: " + policy);
        }
        List<String> extras = new ArrayList<>();
        for (JsonNode statement : statements.isArray() ? statements : List.of(statements)) {
            if (!"Allow".equals(statement.path("Effect").asText("Allow"))) {
                continue;
            }
            String sourceArn = statement.findValuesAsText("AWS:SourceArn").stream()
                    .findFirst()
                    .orElse("");
            List<String> others = principals(statement.path("Principal")).stream()
                    .filter(p -> !allowedRoles.contains(p))
                    .filter(p -> !("events.amazonaws.com".equals(p)
                            && stage != null
                            && dev.punctual.longrun.LongRunNames.isStatusRule(sourceArn, stage)))
                    .toList();
            if (others.isEmpty()) {
                continue;
            }
            String resource = statement.path("Resource").isTextual()
                    ? statement.path("Resource").asText()
                    : target;
            String source = statement.findValuesAsText("AWS:SourceArn").stream()
                    .findFirst()
                    .map(arn -> " (from " + arn + ")")
                    .orElse("");
            extras.add(resource + ": statement " + statement.path("Sid").asText("(no sid)") + " lets "
                    + String.join(", ", others) + " " + texts(statement.path("Action")) + source);
        }
        return extras;
    }

    /** A principal as IAM writes it: {@code "*"}, an ARN or account, or {@code {"AWS"|"Service"|...: one or many}}. */
    private static List<String> principals(JsonNode principal) {
        List<String> out = new ArrayList<>();
        if (principal.isTextual()) {
            out.add(principal.asText());
        } else {
            principal.properties().forEach(kind -> {
                for (JsonNode value : kind.getValue().isArray() ? kind.getValue() : List.of(kind.getValue())) {
                    out.add(value.asText());
                }
            });
        }
        return out;
    }

    private static String texts(JsonNode node) {
        List<String> out = new ArrayList<>();
        for (JsonNode value : node.isArray() ? node : List.of(node)) {
            out.add(value.asText());
        }
        return String.join(", ", out);
    }

    @Override
    public String name() {
        return "access";
    }

    @Override
    public CheckResult result() {
        String checked = "nothing but the schedules' roles and the operators' policy can call the stage's functions"
                + " (resource policies, function URLs and event source mappings of each function and its "
                + FunctionPoolConstruct.ALIAS + " alias)";
        if (functions == 0) {
            return CheckResult.fail(
                    name(),
                    checked,
                    "no function found",
                    "deploy the stage (cdk deploy); it creates each pool's function");
        }
        if (extras.isEmpty()) {
            return CheckResult.pass(
                    name(),
                    checked,
                    functions + " function(s): no other principal, no function URL, no event source mapping");
        }
        return CheckResult.fail(
                name(),
                checked,
                "other ways in: " + String.join("; ", extras),
                "each runs the stage's jobs outside its schedules and its operators' policy: find who added it, remove"
                        + " it (aws lambda remove-permission --function-name F [--qualifier live] --statement-id SID,"
                        + " delete-function-url-config --function-name F, delete-event-source-mapping --uuid U) and"
                        + " verify again; give access through the operator policy, never on the function");
    }
}
