package dev.punctual.handler;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import dev.punctual.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One dead-lettered delivery as the stage's queues hold it (decision 0044): the payload the delivery
 * carried and why it was given up. Two shapes reach the consumer:
 *
 * <ul>
 *   <li>EventBridge Scheduler's dead-letter queue: the body is the target's input (the schedule's
 *       payload), and the message attributes say why: {@code ERROR_CODE}, {@code ERROR_MESSAGE},
 *       {@code EXHAUSTED_RETRY_CONDITION}, {@code RETRY_ATTEMPTS} (also {@code SCHEDULE_ARN}, {@code
 *       TARGET_ARN}, which the payload's own fields already name).
 *   <li>A pool's on-failure destination (Lambda's async retries gave up): the body is Lambda's invocation
 *       record, {@code requestContext} ({@code condition}, {@code approximateInvokeCount}), {@code
 *       requestPayload} (the payload) and {@code responsePayload} ({@code errorType}, {@code errorMessage}).
 * </ul>
 *
 * Anything else is taken as a payload as it stands, which the runtime then refuses as unreadable.
 */
record DeadLetter(String payload, String detail) {

    /** The Scheduler's attributes, in the order the detail names them. */
    static final List<String> SCHEDULER_ATTRIBUTES =
            List.of("ERROR_CODE", "ERROR_MESSAGE", "EXHAUSTED_RETRY_CONDITION", "RETRY_ATTEMPTS");

    static DeadLetter of(SQSEvent.SQSMessage message) {
        String body = message.getBody() == null ? "" : message.getBody();
        if (body.contains("\"requestPayload\"")
                && read(body) instanceof Map<?, ?> record
                && record.get("requestContext") instanceof Map<?, ?> context
                && record.containsKey("requestPayload")) {
            return new DeadLetter(Json.write(record.get("requestPayload")), lambda(context, record));
        }
        return new DeadLetter(body, scheduler(message.getMessageAttributes()));
    }

    private static String scheduler(Map<String, SQSEvent.MessageAttribute> attributes) {
        List<String> parts = new ArrayList<>();
        parts.add("the scheduler gave the delivery up");
        if (attributes != null) {
            for (String name : SCHEDULER_ATTRIBUTES) {
                SQSEvent.MessageAttribute value = attributes.get(name);
                if (value != null && value.getStringValue() != null) {
                    parts.add(name + "=" + value.getStringValue());
                }
            }
        }
        return String.join("; ", parts);
    }

    private static String lambda(Map<?, ?> context, Map<?, ?> record) {
        List<String> parts = new ArrayList<>();
        parts.add("Lambda's async retries gave the invocation up");
        add(parts, "condition", context.get("condition"));
        add(parts, "invocations", context.get("approximateInvokeCount"));
        if (record.get("responsePayload") instanceof Map<?, ?> response) {
            add(parts, "errorType", response.get("errorType"));
            add(parts, "errorMessage", response.get("errorMessage"));
        }
        return String.join("; ", parts);
    }

    private static void add(List<String> parts, String name, Object value) {
        if (value != null) {
            parts.add(name + "=" + value);
        }
    }

    private static Object read(String body) {
        try {
            return Json.read(body);
        } catch (Json.NotJsonException e) {
            return null;
        }
    }
}
