package dev.punctual.cli.running;

import static dev.punctual.fixtures.FixtureCatalog.DAILY;
import static dev.punctual.fixtures.FixtureCatalog.QUARTER_HOURLY;
import static dev.punctual.fixtures.FixtureCatalog.RECORDS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.cli.PunctualCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** Table options name tables for a run in this JVM; the deployed function uses its stage's. */
class RemoteRunTableOptionsTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-30T14:00:02Z"), ZoneOffset.UTC);

    @Test
    void jobTable_forARunInTheDeployedFunction_exitsTwo_insteadOfBeingIgnored() {
        StringWriter err = new StringWriter();

        int code = execute(err, "run", DAILY, "--stage", "prod", "--job-table", RECORDS.name() + "=other");

        assertThat(code).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(err.toString())
                .contains("--job-table: the deployed function uses its stage's tables")
                .contains("accepted: with --local or --endpoint");
    }

    @Test
    void ledgerTable_forAReplayInTheDeployedFunction_exitsTwo_insteadOfBeingIgnored() {
        StringWriter err = new StringWriter();

        int code = execute(
                err,
                "replay",
                QUARTER_HOURLY,
                "--from",
                "2026-11-30T00:00:00Z",
                "--to",
                "2026-11-30T01:00:00Z",
                "--stage",
                "prod",
                "--ledger-table",
                "someone-elses-ledger");

        assertThat(code).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(err.toString()).contains("--ledger-table: the deployed function uses its stage's tables");
    }

    private static int execute(StringWriter err, String... args) {
        return PunctualCli.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), CLOCK, args);
    }
}
