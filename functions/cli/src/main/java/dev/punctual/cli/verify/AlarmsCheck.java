package dev.punctual.cli.verify;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.cloudwatch.model.MetricAlarm;

/**
 * No alarm of the stage is in ALARM. CloudFormation names the stage's alarms after its stack
 * ({@code Punctual-<stage>-...}, nested stacks included), so they are listed by that prefix.
 *
 * @param states each alarm's state by name
 */
public record AlarmsCheck(String prefix, Map<String, String> states) implements Check {

    public static AlarmsCheck read(StageAws aws, StageInventory deployed) {
        Map<String, String> states = new TreeMap<>();
        for (MetricAlarm alarm : aws.cloudWatch()
                .describeAlarmsPaginator(r -> r.alarmNamePrefix(deployed.namePrefix()))
                .metricAlarms()) {
            states.put(alarm.alarmName(), alarm.stateValueAsString());
        }
        return new AlarmsCheck(deployed.namePrefix(), states);
    }

    @Override
    public String name() {
        return "alarms";
    }

    @Override
    public CheckResult result() {
        String checked = "no alarm named " + prefix + "* is in ALARM";
        if (states.isEmpty()) {
            return CheckResult.warn(
                    name(),
                    checked,
                    "no alarm found",
                    "the stack deploys its alarms; check that this is the stage's account and region");
        }
        Map<String, String> firing = new LinkedHashMap<>();
        states.forEach((alarm, state) -> {
            if ("ALARM".equals(state)) {
                firing.put(alarm, state);
            }
        });
        if (firing.isEmpty()) {
            return CheckResult.pass(name(), checked, states.size() + " alarm(s), none in ALARM");
        }
        return CheckResult.fail(
                name(),
                checked,
                "in ALARM: " + String.join(", ", firing.keySet()),
                "read each alarm's description (it names the saved query to run), fix the cause, and verify again"
                        + " once it is back to OK");
    }
}
