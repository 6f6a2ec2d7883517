package dev.punctual.infra;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.CfnElement;
import software.amazon.awscdk.assertions.Template;
import software.constructs.IConstruct;

/** Reading synthesised templates, including the nested jobs stacks and the parameters that feed them. */
final class Templates {

    private Templates() {}

    /** Resources of one type from a template, by logical id. */
    @SuppressWarnings("unchecked")
    static Map<String, Map<String, Object>> properties(Template template, String type) {
        Map<String, Map<String, Object>> found = new LinkedHashMap<>();
        template.findResources(type)
                .forEach((id, resource) -> found.put(id, (Map<String, Object>) resource.get("Properties")));
        return found;
    }

    /** Every job schedule of the stage (across its jobs stacks), by schedule name, with its stack. */
    static Map<String, Located> jobSchedules(StageStack stage) {
        Map<String, Located> schedules = new LinkedHashMap<>();
        for (JobsStack jobs : stage.jobStacks()) {
            properties(Template.fromStack(jobs), "AWS::Scheduler::Schedule")
                    .values()
                    .forEach(p -> schedules.put((String) p.get("Name"), new Located(jobs, p)));
        }
        return schedules;
    }

    /** A resource's properties and the jobs stack it is in. */
    record Located(JobsStack stack, Map<String, Object> properties) {}

    /** The logical id of a construct's CloudFormation resource in its stack. */
    static String logicalId(IConstruct construct) {
        CfnElement element = (CfnElement) construct.getNode().getDefaultChild();
        return software.amazon.awscdk.Stack.of(element).getLogicalId(element);
    }

    /**
     * What a {@code {"Ref": parameter}} inside a jobs stack is bound to in the stage stack (the
     * parameters of the nested stack's AWS::CloudFormation::Stack resource).
     */
    @SuppressWarnings("unchecked")
    static Object boundInParent(StageStack stage, Template parent, JobsStack jobs, Object ref) {
        String parameter = (String) ((Map<String, Object>) ref).get("Ref");
        String resourceId = stage.getLogicalId(jobs.getNestedStackResource());
        Map<String, Object> resource = (Map<String, Object>) parent.toJSON().get("Resources");
        Map<String, Object> nested = (Map<String, Object>) resource.get(resourceId);
        Map<String, Object> parameters =
                (Map<String, Object>) ((Map<String, Object>) nested.get("Properties")).get("Parameters");
        return parameters.get(parameter);
    }

    /** The environment variables of a pool's function, as the template sets them. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> variables(Template template, FunctionPoolConstruct pool) {
        Map<String, Object> function =
                properties(template, "AWS::Lambda::Function").get(logicalId(pool.function()));
        return (Map<String, Object>) ((Map<String, Object>) function.get("Environment")).get("Variables");
    }

    /** The one inline policy of a pool's role (its logs, tables and bus), as text. */
    static String policyOf(Template template, FunctionPoolConstruct pool) {
        String role = logicalId(pool.function().getRole());
        List<String> policies = properties(template, "AWS::IAM::Policy").values().stream()
                .filter(p -> p.get("Roles").toString().contains(role))
                .map(p -> p.get("PolicyDocument").toString())
                .toList();
        if (policies.size() != 1) {
            throw new AssertionError("expected one inline policy of " + role + ", found " + policies.size());
        }
        return policies.getFirst();
    }

    static Map<String, Object> ref(String logicalId) {
        return Map.of("Ref", logicalId);
    }

    static Map<String, Object> getAtt(String logicalId, String attribute) {
        return Map.of("Fn::GetAtt", List.of(logicalId, attribute));
    }
}
