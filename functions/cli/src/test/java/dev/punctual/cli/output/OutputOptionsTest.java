package dev.punctual.cli.output;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.cli.CliRun;
import dev.punctual.cli.PunctualCli;
import org.junit.jupiter.api.Test;

/** {@code --json} and {@code --output}: one format, or a refusal when the command line asks for two. */
class OutputOptionsTest {

    @Test
    void jsonAndOutputTable_areRefused_namingBoth() {
        CliRun result = CliRun.of("jobs", "--json", "-o", "table");

        assertThat(result.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err()).startsWith("punctual jobs: --json, --output table: not together;");
        assertThat(result.out()).isEmpty();
    }

    @Test
    void jsonAndOutputJson_agree() {
        assertThat(CliRun.of("jobs", "--json", "--output", "json").code()).isZero();
    }

    @Test
    void neither_printsTheTable() {
        CliRun result = CliRun.of("jobs");

        assertThat(result.code()).isZero();
        assertThat(result.out()).startsWith("JOB ");
    }
}
