package dev.punctual.handler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class RehearsalTest {

    /** Port 9 (discard) on loopback: a call that reached the network would fail, not be answered. */
    private static final Map<String, String> UNREACHABLE =
            Map.of("AWS_REGION", "eu-central-1", Wiring.ENDPOINT, "http://127.0.0.1:9");

    @Test
    void delivery_withAnEndpointNothingListensOn_answersEveryCallLocally() {
        LocalAnswerHttpClient http = new LocalAnswerHttpClient();
        try (Rehearsal rehearsal = Rehearsal.of(UNREACHABLE, http)) {
            rehearsal.delivery();
        }

        // The claim, the job's item calls, the commit and the event: each reached the HTTP stage, so
        // none was cut short by a fault the rehearsal swallows.
        assertThat(http.answered()).isEqualTo(1 + Rehearsal.JOB_CALLS.size() + 1 + 1);
    }

    @Test
    void delivery_withTheRegionsOwnEndpoint_answersEveryCallLocally() {
        LocalAnswerHttpClient http = new LocalAnswerHttpClient();
        try (Rehearsal rehearsal = Rehearsal.of(Map.of("AWS_REGION", "eu-central-1"), http)) {
            rehearsal.delivery();
        }

        assertThat(http.answered()).isEqualTo(1 + Rehearsal.JOB_CALLS.size() + 1 + 1);
    }

    @Test
    void jobCalls_coverEveryItemCallADeclaredTableAllowsOnTheHotPath() {
        LocalAnswerHttpClient http = new LocalAnswerHttpClient();
        try (Rehearsal rehearsal = Rehearsal.of(UNREACHABLE, http)) {
            rehearsal.jobCalls(Rehearsal.JOB_CALLS);
        }

        assertThat(http.answered()).isEqualTo(Rehearsal.JOB_CALLS.size());
    }
}
