package dev.punctual.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** {@code --json} and {@code --output}: one format, or a refusal when the command line asks for two. */
class OutputOptionsTest {

    private static final Clock NOW = Clock.fixed(Instant.parse("2026-11-30T14:00:02Z"), ZoneOffset.UTC);

    private record Result(int code, String out, String err) {}

    private static Result cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = PunctualCli.execute(new PrintWriter(out), new PrintWriter(err), NOW, args);
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void jsonAndOutputTable_areRefused_namingBoth() {
        Result result = cli("jobs", "--json", "-o", "table");

        assertThat(result.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err()).startsWith("punctual jobs: --json, --output table: not together;");
        assertThat(result.out()).isEmpty();
    }

    @Test
    void jsonAndOutputJson_agree() {
        assertThat(cli("jobs", "--json", "--output", "json").code()).isZero();
    }

    @Test
    void neither_printsTheTable() {
        Result result = cli("jobs");

        assertThat(result.code()).isZero();
        assertThat(result.out()).startsWith("JOB ");
    }
}
