package dev.punctual.demo;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Seeds the demo domain, in the shape the example jobs read (ExampleDomain): a few members (two long
 * inactive), reservations expiring in the window, and one reservation an agent is still editing (the
 * month-end close's failing chunk, {@link MonthEndAct}).
 */
final class DemoData {

    private DemoData() {}

    static void seed(DynamoDbClient dynamo, String table, Instant start) {
        member(dynamo, table, "m-ada", start.minus(Duration.ofDays(3)));
        member(dynamo, table, "m-bo", start.minus(Duration.ofDays(40)));
        member(dynamo, table, "m-chen", start.minus(Duration.ofDays(400)));
        member(dynamo, table, "m-dara", start.minus(Duration.ofDays(800)));
        member(dynamo, table, "m-eun", start.minus(Duration.ofHours(5)));
        reservation(dynamo, table, "r-101", "m-ada", start.plus(Duration.ofHours(3)), start.plus(Duration.ofHours(20)));
        reservation(dynamo, table, "r-102", "m-bo", start.plus(Duration.ofHours(36)), start.plus(Duration.ofHours(30)));
        reservation(
                dynamo, table, "r-103", "m-eun", start.plus(Duration.ofHours(19)), start.plus(Duration.ofHours(26)));
        reservation(
                dynamo, table, "r-104", "m-ada", start.plus(Duration.ofHours(40)), start.plus(Duration.ofHours(44)));
        reservation(dynamo, table, "r-105", "m-eun", start.plus(Duration.ofDays(5)), start.plus(Duration.ofDays(6)));
        // Being edited, so not HELD: expire-reservations and send-reminders read HELD ones only, and its hold
        // and start lie weeks past the window anyway, so the timeline's outcomes are those without it.
        reservation(
                dynamo,
                table,
                EDITED,
                EDITED_MEMBER,
                EDITING,
                start.plus(Duration.ofDays(40)),
                start.plus(Duration.ofDays(41)));
    }

    /** The reservation an agent is editing when the month-end close runs, and its member. */
    static final String EDITED = "r-106";

    static final String EDITED_MEMBER = "m-chen";

    /** The status of a reservation whose edit is not saved yet: month-end-close will not close its member. */
    static final String EDITING = "EDITING";

    /**
     * The saved edit: only the status changes, so the reservation's hold and start stay as seeded; no
     * condition, as the demo is the only writer of this item while its act runs.
     */
    static final String SAVE_EDIT = "SET #status = :held";

    /** The agent saves the edit: the reservation is HELD again, a fact the month can be closed on. */
    static void saveEdit(DynamoDbClient dynamo, String table, String reservation) {
        dynamo.updateItem(b -> b.tableName(table)
                .key(Map.of("pk", s(ExampleDomain.RESERVATIONS), "sk", s(reservation)))
                .updateExpression(SAVE_EDIT)
                .expressionAttributeNames(Map.of("#status", "status"))
                .expressionAttributeValues(Map.of(":held", s("HELD"))));
    }

    /** A reservation's status as stored now. */
    static String status(DynamoDbClient dynamo, String table, String reservation) {
        return dynamo.getItem(b -> b.tableName(table)
                        .key(Map.of("pk", s(ExampleDomain.RESERVATIONS), "sk", s(reservation)))
                        .consistentRead(true))
                .item()
                .get("status")
                .s();
    }

    private static void member(DynamoDbClient dynamo, String table, String id, Instant lastActive) {
        put(
                dynamo,
                table,
                Map.of("pk", s(ExampleDomain.MEMBERS), "sk", s(id), "lastActiveAt", n(lastActive.toEpochMilli())));
    }

    private static void reservation(
            DynamoDbClient dynamo, String table, String id, String member, Instant holdUntil, Instant startsAt) {
        reservation(dynamo, table, id, member, "HELD", holdUntil, startsAt);
    }

    private static void reservation(
            DynamoDbClient dynamo,
            String table,
            String id,
            String member,
            String status,
            Instant holdUntil,
            Instant startsAt) {
        put(
                dynamo,
                table,
                Map.of(
                        "pk", s(ExampleDomain.RESERVATIONS),
                        "sk", s(id),
                        "member", s(member),
                        "status", s(status),
                        "holdUntil", n(holdUntil.toEpochMilli()),
                        "startsAt", n(startsAt.toEpochMilli())));
    }

    private static void put(DynamoDbClient dynamo, String table, Map<String, AttributeValue> item) {
        dynamo.putItem(b -> b.tableName(table).item(item));
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static AttributeValue n(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }
}
