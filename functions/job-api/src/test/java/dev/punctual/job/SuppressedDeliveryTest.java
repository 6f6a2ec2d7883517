package dev.punctual.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.observability.Redactor;
import dev.punctual.observability.StructuredLog;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SuppressedDeliveryTest {

    private final List<String> lines = new ArrayList<>();
    private final SuppressedDelivery delivery = new SuppressedDelivery(
            "dev",
            new StructuredLog(
                    lines::add,
                    Clock.fixed(Instant.parse("2026-11-29T00:00:00Z"), ZoneOffset.UTC),
                    "punctual",
                    Redactor.standard()));

    @Test
    void send_inSuppressedStage_recordsAndLogsOnlyChannelAndSizes_andReportsSuppressed() {
        DeliveryMessage message =
                new DeliveryMessage("push", "member-42", "Your reservation expires soon", "Hi Kim, room 7 ...");

        DeliveryReceipt receipt = delivery.send(message);

        assertThat(receipt).isEqualTo(new DeliveryReceipt.Suppressed("push", "member-42", "dev"));
        assertThat(delivery.recorded()).containsExactly(message);
        assertThat(lines)
                .singleElement()
                .satisfies(line -> assertThat(line)
                        .contains("external delivery suppressed", "\"channel\":\"push\"", "\"body_chars\":18")
                        .doesNotContain("Hi Kim", "member-42", "Your reservation"));
    }
}
