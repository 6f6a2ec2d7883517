package dev.punctual.cli.stage;

import dev.punctual.cli.input.OperatorInputException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Compares this machine's clock with DynamoDB's before the operator's clock decides anything. A run in
 * this JVM and {@code maintenance on|off} take their "now" from this machine: a lease's end, a hold's
 * end, whether an occurrence is due. The functions' clocks are kept within milliseconds by the Amazon
 * Time Sync Service; a laptop two minutes fast would run an occurrence two minutes early, and one two
 * minutes slow would set a hold that ends two minutes sooner than asked (measured by a red team). The
 * skew tolerance covers small differences; anything beyond it is refused before a write.
 *
 * <p>The server's time comes from the {@code Date} header of one read of a key that never exists (an
 * error answer carries it too). It has whole seconds, and the request takes time, so only what the
 * measurement proves is refused: the clock is ahead by more than the tolerance even if the server's
 * second had just begun, or behind by more even if the answer took the whole round trip.
 */
final class ServerClock {
    private ServerClock() {}

    private static final String NO_SUCH_PK = "punctual#clock-check";

    /** Refuses (exit 2, naming the clock) when this machine's clock is provably off by more than {@code tolerance}. */
    static void requireWithin(DynamoDbClient dynamo, String table, Clock clock, Duration tolerance) {
        Instant sent = clock.instant();
        Optional<SdkHttpResponse> answer = answer(dynamo, table);
        Instant received = clock.instant();
        Optional<Instant> server =
                answer.flatMap(a -> a.firstMatchingHeader("Date")).flatMap(ServerClock::parse);
        if (server.isEmpty()) {
            return; // an endpoint without a Date header (some emulators): nothing to compare with
        }
        Duration surelyAhead = Duration.between(server.get().plusSeconds(1), sent);
        Duration surelyBehind = Duration.between(received, server.get());
        if (surelyAhead.compareTo(tolerance) > 0) {
            throw refusal("ahead of", surelyAhead, server.get(), sent, tolerance);
        }
        if (surelyBehind.compareTo(tolerance) > 0) {
            throw refusal("behind", surelyBehind, server.get(), received, tolerance);
        }
    }

    private static Optional<SdkHttpResponse> answer(DynamoDbClient dynamo, String table) {
        try {
            return Optional.of(dynamo.getItem(b -> b.tableName(table)
                            .key(Map.of(
                                    "pk", AttributeValue.fromS(NO_SUCH_PK),
                                    "sk", AttributeValue.fromS(NO_SUCH_PK))))
                    .sdkHttpResponse());
        } catch (AwsServiceException refused) {
            // A missing table (an emulator before its first run) or a denied read still answered, with its time.
            return Optional.ofNullable(refused.awsErrorDetails()).map(details -> details.sdkHttpResponse());
        }
    }

    private static Optional<Instant> parse(String date) {
        try {
            return Optional.of(ZonedDateTime.parse(date, DateTimeFormatter.RFC_1123_DATE_TIME)
                    .toInstant());
        } catch (DateTimeParseException unreadable) {
            return Optional.empty();
        }
    }

    private static OperatorInputException refusal(
            String direction, Duration by, Instant server, Instant local, Duration tolerance) {
        return new OperatorInputException("clock: this machine's clock is at least " + by.toSeconds() + " s "
                + direction + " DynamoDB's (here " + local + ", DynamoDB " + server + "), more than the skew"
                + " tolerance of " + tolerance.toSeconds() + " s; accepted: a clock within the tolerance (sync it:"
                + " timedatectl set-ntp true, or chronyc makestep), or a run in the stage's function (without"
                + " --local or --endpoint)");
    }
}
