package dev.punctual.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.ledger.SkipReason;
import dev.punctual.outcome.Reason;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReasonRecordingTest {

    /** The runtime records a skip under the ledger's category its reason names; each must exist. */
    @Test
    void everyRecordedReason_namesOneOfTheLedgersSkipCategories_andEveryCategoryIsUsed() {
        List<SkipReason> used = Arrays.stream(Reason.values())
                .flatMap(r -> r.recordedAs().stream())
                .distinct()
                .toList();

        assertThat(used).containsExactlyInAnyOrder(SkipReason.values());
    }
}
