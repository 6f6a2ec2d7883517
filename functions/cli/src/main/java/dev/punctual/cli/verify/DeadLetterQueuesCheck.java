package dev.punctual.cli.verify;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The stage's dead-letter queues are empty: the scheduler's (deliveries it gave up), each pool's
 * on-failure queue (invocations Lambda gave up) and the lifecycle rule's (notices EventBridge could not
 * deliver to the alarm topic; stack output {@code AlertDeadLettersQueueUrl}). A message in the first two
 * is an occurrence nobody ran; one in the last is a notice nobody received. The queues are the stack's own
 * ({@link StackResources}), so another stage's are never counted.
 *
 * @param depths messages (visible and in flight) per queue name
 */
public record DeadLetterQueuesCheck(Map<String, Integer> depths) implements Check {

    public static DeadLetterQueuesCheck read(StageAws aws, StackResources owned) {
        Map<String, Integer> depths = new LinkedHashMap<>();
        owned.queues().forEach((name, url) -> {
            Map<QueueAttributeName, String> attributes = aws.sqs()
                    .getQueueAttributes(r -> r.queueUrl(url)
                            .attributeNames(List.of(
                                    QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                                    QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)))
                    .attributes();
            depths.put(
                    name,
                    Integer.parseInt(attributes.getOrDefault(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES, "0"))
                            + Integer.parseInt(attributes.getOrDefault(
                                    QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE, "0")));
        });
        return new DeadLetterQueuesCheck(depths);
    }

    @Override
    public String name() {
        return "dead-letters";
    }

    @Override
    public CheckResult result() {
        String checked = "the stage's dead-letter queues are empty";
        if (depths.isEmpty()) {
            return CheckResult.fail(
                    name(),
                    checked,
                    "no dead-letter queue found",
                    "deploy the stage (cdk deploy); it creates the scheduler's, each pool's and the alert rule's"
                            + " queue");
        }
        Map<String, Integer> nonEmpty = new LinkedHashMap<>();
        depths.forEach((queue, depth) -> {
            if (depth > 0) {
                nonEmpty.put(queue, depth);
            }
        });
        if (nonEmpty.isEmpty()) {
            return CheckResult.pass(name(), checked, depths.size() + " queue(s), 0 messages");
        }
        return CheckResult.fail(
                name(),
                checked,
                "messages waiting: " + nonEmpty,
                "each message is an occurrence nobody ran: read it (aws sqs receive-message --queue-url URL), run"
                        + " that occurrence by hand (punctual run JOB --at T), then delete the message; in the alert"
                        + " rule's queue (LifecycleAlertsDeadLetters) it is a notice nobody received: act on it as on"
                        + " the notice, then delete it");
    }
}
