package dev.punctual.cli.verify;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.infra.FunctionPoolConstruct;
import dev.punctual.infra.StageStack;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.services.scheduler.model.ScheduleSummary;

/**
 * The stage's schedule group holds exactly the catalog's schedules, each as the CDK app deploys it, and
 * nothing else calls the stage's functions: a schedule the catalog does not know, in the group or in
 * any other group with one of the stage's functions as its target, is the source material's "legacy
 * entry found: stop" (it would run a job a second time, outside the catalog's timing).
 *
 * @param group the stage's schedule group
 * @param expected the catalog's schedules ({@link ExpectedSchedule})
 * @param found the group's schedules (GetSchedule of each)
 * @param elsewhere schedules of other groups whose target is one of the stage's functions, as group/name
 * @param functionsByPool each pool's function name, for the targets and the keep-warm pings
 * @param deadLetterArn the scheduler's dead-letter queue, if the stage has one
 */
public record ScheduleGroupCheck(
        String group,
        List<ExpectedSchedule> expected,
        List<DeployedSchedule> found,
        List<String> elsewhere,
        Map<String, String> functionsByPool,
        Optional<String> deadLetterArn)
        implements Check {

    private static final ObjectMapper JSON = new ObjectMapper();

    public static ScheduleGroupCheck read(
            StageAws aws,
            StageInventory deployed,
            List<ExpectedSchedule> expected,
            Map<String, String> functionsByPool,
            Optional<String> deadLetterArn) {
        List<DeployedSchedule> found = new ArrayList<>();
        List<String> elsewhere = new ArrayList<>();
        for (ScheduleSummary summary :
                aws.scheduler().listSchedulesPaginator(r -> {}).schedules()) {
            if (summary.groupName().equals(deployed.scheduleGroup())) {
                found.add(DeployedSchedule.of(aws.scheduler()
                        .getSchedule(r -> r.groupName(summary.groupName()).name(summary.name()))));
            } else if (summary.target() != null
                    && functionsByPool.values().stream()
                            .anyMatch(f -> targets(summary.target().arn(), f))) {
                elsewhere.add(summary.groupName() + "/" + summary.name());
            }
        }
        return new ScheduleGroupCheck(
                deployed.scheduleGroup(), expected, found, elsewhere, functionsByPool, deadLetterArn);
    }

    @Override
    public String name() {
        return "schedules";
    }

    @Override
    public CheckResult result() {
        String checked = "group " + group + " holds exactly the catalog's " + expected.size()
                + " schedule(s) with their expression, zone, state, retry policy, dead-letter queue and input,"
                + " and no other schedule calls the stage's functions";
        Map<String, DeployedSchedule> byName = new LinkedHashMap<>();
        found.forEach(s -> byName.put(s.name(), s));
        List<String> unmanaged = new ArrayList<>(elsewhere);
        for (DeployedSchedule s : found) {
            boolean known = expected.stream().anyMatch(e -> e.name().equals(s.name()))
                    || keepWarmPool(s).isPresent();
            if (!known) {
                unmanaged.add(group + "/" + s.name());
            }
        }
        if (!unmanaged.isEmpty()) {
            return CheckResult.fail(
                    name(),
                    checked,
                    "legacy entry found: " + String.join(", ", unmanaged),
                    "stop: schedules the catalog does not know would run jobs a second time; find who created them,"
                            + " delete them (aws scheduler delete-schedule --group-name G --name N) and verify again");
        }
        List<String> problems = new ArrayList<>();
        for (ExpectedSchedule e : expected) {
            DeployedSchedule s = byName.get(e.name());
            if (s == null) {
                problems.add(e.name() + ": missing");
            } else {
                problems.addAll(differences(e, s));
            }
        }
        for (DeployedSchedule s : found) {
            keepWarmPool(s).ifPresent(pool -> problems.addAll(keepWarmDifferences(s)));
        }
        if (!problems.isEmpty()) {
            return CheckResult.fail(
                    name(),
                    checked,
                    String.join("; ", problems),
                    "deploy the stage again (cdk deploy) so the schedules match the catalog; never edit them by hand");
        }
        return CheckResult.pass(
                name(), checked, found.size() + " schedule(s) in the group, " + expected.size() + " from the catalog");
    }

    private List<String> differences(ExpectedSchedule e, DeployedSchedule s) {
        List<String> out = new ArrayList<>();
        differ(out, e.name(), "expression", e.expression(), s.expression());
        differ(out, e.name(), "zone", e.zone(), s.zone());
        differ(out, e.name(), "state", e.state(), s.state());
        differ(out, e.name(), "retry attempts", e.retryAttempts(), s.retryAttempts());
        differ(out, e.name(), "max event age (s)", e.maxEventAgeSeconds(), toLong(s.maxEventAgeSeconds()));
        differ(out, e.name(), "dead-letter queue", deadLetterArn.orElse(null), s.deadLetterArn());
        differ(out, e.name(), "input", e.input(), parse(s.input()));
        String function = functionsByPool.get(e.pool());
        if (function == null
                || !targets(s.targetArn(), function)
                || !s.targetArn().endsWith(":" + alias())) {
            out.add(e.name() + ": target " + s.targetArn() + " (expected pool " + e.pool() + "'s function " + function
                    + ":" + alias() + ")");
        }
        return out;
    }

    private List<String> keepWarmDifferences(DeployedSchedule s) {
        List<String> out = new ArrayList<>();
        differ(out, s.name(), "expression", StageStack.KEEP_WARM_EXPRESSION, s.expression());
        differ(out, s.name(), "zone", "UTC", s.zone());
        differ(out, s.name(), "dead-letter queue", deadLetterArn.orElse(null), s.deadLetterArn());
        return out;
    }

    /** A keep-warm ping ({@code punctual.keep-warm.<pool>}) of one of the stage's pools is managed too. */
    private Optional<String> keepWarmPool(DeployedSchedule s) {
        if (!s.name().startsWith(StageStack.KEEP_WARM_PREFIX)) {
            return Optional.empty();
        }
        String pool = s.name().substring(StageStack.KEEP_WARM_PREFIX.length());
        return functionsByPool.containsKey(pool) ? Optional.of(pool) : Optional.empty();
    }

    private static void differ(List<String> out, String schedule, String what, Object want, Object actual) {
        if (!Objects.equals(want, actual)) {
            out.add(schedule + ": " + what + " " + actual + " (catalog: " + want + ")");
        }
    }

    private static Long toLong(Integer value) {
        return value == null ? null : value.longValue();
    }

    private static Object parse(String input) {
        if (input == null) {
            return null;
        }
        try {
            return JSON.readValue(input, new TypeReference<Map<String, Object>>() {});
        } catch (JsonProcessingException e) {
            return input;
        }
    }

    static boolean targets(String targetArn, String function) {
        return targetArn != null
                && (targetArn.endsWith(":function:" + function) || targetArn.contains(":function:" + function + ":"));
    }

    private static String alias() {
        return FunctionPoolConstruct.ALIAS;
    }
}
