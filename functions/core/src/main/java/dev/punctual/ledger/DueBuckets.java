package dev.punctual.ledger;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

/**
 * The due index's partition keys (decision 0031): the UTC hour of the expected occurrence and a shard,
 * {@code 2026-12-02T09#07}. The hour matches the watchdog's hourly check, so one check reads the two
 * hours its window touches, cut exactly by the index's sort key (the occurrence). The shard is the
 * CRC-32 of the ledger id modulo {@link #SHARDS}, so a million entities due in one hour spread over that
 * many index partitions instead of meeting the 1,000 writes a second one partition key takes.
 */
public final class DueBuckets {

    /** Shards per hour: 32 partitions take 32,000 index writes a second, 16,000 completions moving. */
    public static final int SHARDS = 32;

    private static final DateTimeFormatter HOUR =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH").withZone(ZoneOffset.UTC);

    private DueBuckets() {}

    /** The bucket an entity's expected occurrence is indexed under. */
    public static String of(String ledgerId, Instant occurrence) {
        return name(occurrence.truncatedTo(ChronoUnit.HOURS), shard(ledgerId));
    }

    /** Every bucket that may hold an occurrence in {@code (after, upTo]}: each hour it touches, each shard. */
    public static List<String> covering(Instant after, Instant upTo) {
        List<String> buckets = new ArrayList<>();
        if (!upTo.isAfter(after)) {
            return buckets;
        }
        Instant last = upTo.truncatedTo(ChronoUnit.HOURS);
        for (Instant hour = after.plusMillis(1).truncatedTo(ChronoUnit.HOURS);
                !hour.isAfter(last);
                hour = hour.plus(Duration.ofHours(1))) {
            for (int shard = 0; shard < SHARDS; shard++) {
                buckets.add(name(hour, shard));
            }
        }
        return buckets;
    }

    static int shard(String ledgerId) {
        CRC32 crc = new CRC32();
        crc.update(ledgerId.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % SHARDS);
    }

    private static String name(Instant hour, int shard) {
        return HOUR.format(hour) + "#" + (shard < 10 ? "0" : "") + shard;
    }
}
