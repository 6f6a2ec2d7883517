package dev.punctual.cli.verify;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.cloudwatch.model.MetricAlarm;

/**
 * No alarm of the stage is in ALARM. The alarms are the stack's own and its nested stacks'
 * ({@link StackResources}), read by name: another stage's alarms are never counted, even where
 * CloudFormation's names for them begin the same ({@code Punctual-dev-eu-...} beside {@code Punctual-dev-...}).
 *
 * @param stack the stage's stack
 * @param states each alarm's state by name; {@link #NOT_FOUND} for one the stack lists but CloudWatch does not have
 */
public record AlarmsCheck(String stack, Map<String, String> states) implements Check {

    /** The state of an alarm the stack lists and DescribeAlarms does not return (deleted by hand). */
    public static final String NOT_FOUND = "NOT_FOUND";

    /** DescribeAlarms takes at most 100 names a call. */
    private static final int NAMES_PER_CALL = 100;

    public static AlarmsCheck read(StageAws aws, StackResources owned) {
        Map<String, String> states = new TreeMap<>();
        List<String> names = owned.alarms();
        names.forEach(name -> states.put(name, NOT_FOUND));
        for (int from = 0; from < names.size(); from += NAMES_PER_CALL) {
            List<String> batch = names.subList(from, Math.min(names.size(), from + NAMES_PER_CALL));
            for (MetricAlarm alarm : aws.cloudWatch()
                    .describeAlarmsPaginator(r -> r.alarmNames(batch))
                    .metricAlarms()) {
                states.put(alarm.alarmName(), alarm.stateValueAsString());
            }
        }
        return new AlarmsCheck(owned.stack(), states);
    }

    @Override
    public String name() {
        return "alarms";
    }

    @Override
    public CheckResult result() {
        String checked = "no alarm of stack " + stack + " (nested stacks included) is in ALARM";
        if (states.isEmpty()) {
            return CheckResult.warn(
                    name(),
                    checked,
                    "no alarm found",
                    "the stack deploys its alarms; check that this is the stage's account and region");
        }
        Map<String, String> firing = new LinkedHashMap<>();
        List<String> missing = new ArrayList<>();
        states.forEach((alarm, state) -> {
            if ("ALARM".equals(state)) {
                firing.put(alarm, state);
            } else if (NOT_FOUND.equals(state)) {
                missing.add(alarm);
            }
        });
        if (!firing.isEmpty()) {
            return CheckResult.fail(
                    name(),
                    checked,
                    "in ALARM: " + String.join(", ", firing.keySet()),
                    "read each alarm's description (it names the saved query to run), fix the cause, and verify"
                            + " again once it is back to OK");
        }
        if (!missing.isEmpty()) {
            return CheckResult.fail(
                    name(),
                    checked,
                    "the stack lists alarms CloudWatch does not have: " + String.join(", ", missing),
                    "nothing watches what they watched, and a deploy does not recreate a resource deleted outside"
                            + " CloudFormation: find who deleted them (aws cloudformation detect-stack-drift --stack-name "
                            + stack + " shows them DELETED), recreate them as the template declares them, and verify"
                            + " again");
        }
        return CheckResult.pass(name(), checked, states.size() + " alarm(s), none in ALARM");
    }
}
