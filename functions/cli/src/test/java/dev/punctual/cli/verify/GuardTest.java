package dev.punctual.cli.verify;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkClientException;

class GuardTest {

    @Test
    void aCallTheCredentialsMayNotMake_isThatChecksFailLine_notTheEndOfTheReport() {
        CheckResult r = Guard.run("alarms", () -> {
            throw SdkClientException.create("User is not authorized to perform: cloudwatch:DescribeAlarms");
        });

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.check()).isEqualTo("alarms");
        assertThat(r.seen()).contains("cloudwatch:DescribeAlarms");
        assertThat(r.action()).contains("section 2");
    }

    @Test
    void aCheckThatReads_givesItsOwnResult() {
        assertThat(Guard.run("stack", () -> new StackStatusCheck("Punctual-dev", "UPDATE_COMPLETE")))
                .isEqualTo(new StackStatusCheck("Punctual-dev", "UPDATE_COMPLETE").result());
    }
}
