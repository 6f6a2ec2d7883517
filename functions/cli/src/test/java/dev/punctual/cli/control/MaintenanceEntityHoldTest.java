package dev.punctual.cli.control;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.cli.PunctualCli;
import dev.punctual.cli.schedules.EntityStage;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.Lease;
import dev.punctual.ledger.MaintenanceReport;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.dynamodb.DynamoDbRunLedger;
import dev.punctual.ledger.dynamodb.LedgerTable;
import dev.punctual.testing.DynamoDbHarness;
import dev.punctual.testing.TestTables;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code maintenance hold} and {@code maintenance on} on the emulator for a stage with a per-entity job
 * whose entities hold their own leases (docs/jobs.md's {@code tenant-report}; issue 40, item 1): with no
 * entity run that can still hold its lease, both take the stage at once, the hold's exit being its
 * command's; an entity run started before them is waited out, and after a short {@code --wait} they exit
 * as for a job still running, saying until when and what {@code --wait} would do.
 */
class MaintenanceEntityHoldTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private record Result(int exitCode, String out, String err) {
        JsonNode json() throws Exception {
            return JSON.readTree(out);
        }
    }

    private String ledgerTable;

    @BeforeEach
    void freshStage() {
        ledgerTable = TestTables.uniqueName(getClass(), "ledger");
    }

    /** The CLI on the system clock with {@link EntityStage#CATALOG}: its first {@code words}, the stage, the rest. */
    private Result cli(int words, String... args) {
        CliContext context = CliContext.withClock(Clock.systemUTC());
        List<String> all = new ArrayList<>(List.of(args).subList(0, words));
        all.addAll(List.of(
                "--endpoint",
                DynamoDbHarness.backend().endpoint().toString(),
                "--ledger-table",
                ledgerTable,
                "--stage",
                "dev",
                "--output",
                "json"));
        all.addAll(List.of(args).subList(words, args.length));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = PunctualCli.execute(
                new PrintWriter(out),
                new PrintWriter(err),
                context,
                commands -> {
                    commands.put("maintenance", () -> new MaintenanceCommand(context, EntityStage.CATALOG));
                    return commands;
                },
                all.toArray(String[]::new));
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void noEntityEverRan_holdTakesTheStageAtOnce_exitingWithItsCommand_andMaintenanceOnIsFullyOn() throws Exception {
        Result held = cli(
                2, "maintenance", "hold", "--reason", "loading members", "--by", "loader", "--", "sh", "-c", "exit 7");

        assertThat(held.exitCode()).as(held.err()).isEqualTo(7);
        assertThat(held.err()).containsPattern("held \\([^)]*" + EntityStage.REPORT);

        Result on = cli(2, "maintenance", "on", "--reason", "restore", "--for", "1h", "--by", "ops");

        assertThat(on.exitCode()).as(on.err()).isZero();
        assertThat(on.json().get("maintenance").asText()).isEqualTo("on");
        assertThat(on.json().get("still_running")).isEmpty();
        assertThat(cli(2, "maintenance", "off", "--by", "ops").exitCode()).isZero();
    }

    @Test
    void anEntityRunStartedBefore_isWaitedOut_soAShortWaitLeavesTheHoldUntaken_andOnPartlyOn() throws Exception {
        LedgerTable.createIfMissing(DynamoDbHarness.client(), ledgerTable);
        Instant claimedAt = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        RunLedger runtime = DynamoDbRunLedger.create(
                DynamoDbHarness.client(),
                ledgerTable,
                Clock.fixed(claimedAt, ZoneOffset.UTC),
                () -> UUID.randomUUID().toString(),
                Retention.DEFAULT,
                d -> {
                    throw new IllegalStateException("the entity's claim does not wait");
                });
        RunKey acme = new RunKey(EntityStage.REPORT + ":acme", Instant.parse("2026-12-01T09:00:00Z"));
        ClaimResult running = runtime.claim(ClaimRequest.scheduled(acme, 1, 3, claimedAt.plus(Duration.ofMinutes(15)))
                .onEntityLease(EntityStage.REPORT, Optional.empty()));
        assertThat(running).isInstanceOf(ClaimResult.Claimed.class);
        Duration tolerance =
                dev.punctual.infra.Stages.configuredSkewTolerance("dev").orElse(Lease.DEADLINE_MARGIN);
        Instant until = claimedAt.plus(Duration.ofMinutes(15)).plus(tolerance);

        Result held = cli(
                2,
                "maintenance",
                "hold",
                "--reason",
                "loading members",
                "--by",
                "loader",
                "--wait",
                "1s",
                "--",
                "sh",
                "-c",
                "exit 0");

        assertThat(held.exitCode()).as(held.err()).isEqualTo(PunctualCli.FAILURE);
        assertThat(held.err())
                .contains(EntityStage.REPORT + " (" + MaintenanceReport.ENTITY_RUNS + ")")
                .contains("the command did not run")
                .contains("here " + until + ": --wait ")
                .containsPattern("--wait 1[56]m or more");

        Result on = cli(2, "maintenance", "on", "--reason", "restore", "--for", "1h", "--by", "ops", "--wait", "1s");

        assertThat(on.exitCode()).as(on.err()).isEqualTo(PunctualCli.FAILURE);
        assertThat(on.json().get("maintenance").asText()).isEqualTo("partly on");
        assertThat(on.json().at("/still_running/0/group").asText()).isEqualTo(EntityStage.REPORT);
        assertThat(on.json().at("/still_running/0/until").asText()).isEqualTo(until.toString());
        assertThat(cli(2, "maintenance", "off", "--by", "ops").exitCode()).isZero();
    }
}
