package dev.punctual.demo;

import static dev.punctual.examples.DemoTable.key;
import static dev.punctual.examples.DemoTable.n;
import static dev.punctual.examples.DemoTable.s;

import dev.punctual.examples.DemoTable;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Seeds the demo domain: a few members (two long inactive) and reservations expiring in the window. */
final class DemoData {

    private DemoData() {}

    static void seed(DemoTable table, Instant start) {
        member(table, "m-ada", start.minus(Duration.ofDays(3)));
        member(table, "m-bo", start.minus(Duration.ofDays(40)));
        member(table, "m-chen", start.minus(Duration.ofDays(400)));
        member(table, "m-dara", start.minus(Duration.ofDays(800)));
        member(table, "m-eun", start.minus(Duration.ofHours(5)));
        reservation(table, "r-101", "m-ada", start.plus(Duration.ofHours(3)), start.plus(Duration.ofHours(20)));
        reservation(table, "r-102", "m-bo", start.plus(Duration.ofHours(36)), start.plus(Duration.ofHours(30)));
        reservation(table, "r-103", "m-eun", start.plus(Duration.ofHours(19)), start.plus(Duration.ofHours(26)));
        reservation(table, "r-104", "m-ada", start.plus(Duration.ofHours(40)), start.plus(Duration.ofHours(44)));
        reservation(table, "r-105", "m-eun", start.plus(Duration.ofDays(5)), start.plus(Duration.ofDays(6)));
    }

    private static void member(DemoTable table, String id, Instant lastActive) {
        Map<String, AttributeValue> item = new HashMap<>(key(DemoTable.MEMBERS, id));
        item.put("lastActiveAt", n(lastActive.toEpochMilli()));
        table.dynamo().putItem(b -> b.tableName(table.table()).item(item));
    }

    private static void reservation(DemoTable table, String id, String member, Instant holdUntil, Instant startsAt) {
        Map<String, AttributeValue> item = new HashMap<>(key(DemoTable.RESERVATIONS, id));
        item.put("member", s(member));
        item.put("status", s("HELD"));
        item.put("holdUntil", n(holdUntil.toEpochMilli()));
        item.put("startsAt", n(startsAt.toEpochMilli()));
        table.dynamo().putItem(b -> b.tableName(table.table()).item(item));
    }
}
