package dev.punctual.handler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsServiceException;

class RehearsalTest {

    /** Port 9 (discard) on loopback: a call that reached the network would fail, not be answered. */
    private static final Map<String, String> UNREACHABLE =
            Map.of("AWS_REGION", "eu-central-1", Wiring.ENDPOINT, "http://127.0.0.1:9");

    @Test
    void delivery_withAnEndpointNothingListensOn_answersEveryOperationLocallyInOrder_andMeetsNoFault() {
        LocalAnswerHttpClient http = new LocalAnswerHttpClient();
        try (Rehearsal rehearsal = Rehearsal.of(UNREACHABLE, http)) {
            rehearsal.delivery();

            // A fault after the HTTP stage (reading the answer, its CRC32) would be kept here.
            assertThat(rehearsal.faults()).isEmpty();
        }

        assertThat(http.answered()).containsExactlyElementsOf(Rehearsal.OPERATIONS);
    }

    @Test
    void delivery_withTheRegionsOwnEndpoint_answersEveryOperationLocally_andMeetsNoFault() {
        LocalAnswerHttpClient http = new LocalAnswerHttpClient();
        try (Rehearsal rehearsal = Rehearsal.of(Map.of("AWS_REGION", "eu-central-1"), http)) {
            rehearsal.delivery();

            assertThat(rehearsal.faults()).isEmpty();
        }

        assertThat(http.answered()).containsExactlyElementsOf(Rehearsal.OPERATIONS);
    }

    @Test
    void delivery_whenACallFails_keepsTheFault_andStillMakesTheCallsAfterIt() {
        LocalAnswerHttpClient refusing = new LocalAnswerHttpClient(400); // not retried by the SDK
        try (Rehearsal rehearsal = Rehearsal.of(UNREACHABLE, refusing)) {
            rehearsal.delivery();

            assertThat(rehearsal.faults())
                    .hasSize(Rehearsal.OPERATIONS.size())
                    .allSatisfy(fault -> assertThat(fault).isInstanceOf(AwsServiceException.class));
        }
        assertThat(refusing.answered()).containsExactlyElementsOf(Rehearsal.OPERATIONS);
    }
}
