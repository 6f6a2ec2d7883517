package dev.punctual.ledger.dynamodb;

import dev.punctual.ledger.RunKey;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Item keys. Run sort keys are fixed-width UTC timestamps so they sort by time and read well in the console. */
final class Keys {

    static final String LOCK_SK = "lock";

    private static final DateTimeFormatter OCCURRENCE =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private Keys() {}

    static Map<String, AttributeValue> lock(String id) {
        return Map.of(Attr.PK, s("lock#" + id), Attr.SK, s(LOCK_SK));
    }

    static Map<String, AttributeValue> run(RunKey key) {
        return Map.of(Attr.PK, s(runPk(key.jobId())), Attr.SK, s(OCCURRENCE.format(key.scheduledTime())));
    }

    static Map<String, AttributeValue> missed(RunKey first) {
        return Map.of(
                Attr.PK, s(runPk(first.jobId())), Attr.SK, s(OCCURRENCE.format(first.scheduledTime()) + "#missed"));
    }

    private static String runPk(String jobId) {
        return "run#" + jobId;
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }
}
