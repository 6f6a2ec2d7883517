package dev.punctual.cli.running;

import static dev.punctual.fixtures.FixtureCatalog.DAILY;
import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.cli.PunctualCli;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.infra.Stages;
import dev.punctual.job.FunctionPool;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.ledger.Lease;
import dev.punctual.runtime.Deadline;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code --skew-tolerance} and the lease a run in this JVM takes. */
class SkewToleranceOptionTest {

    private static final Instant NOW = Instant.parse("2026-11-30T14:00:02Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    private static final FunctionPool SLOW = new FunctionPool("slow", 1024, Duration.ofMinutes(10));
    private static final JobCatalog CATALOG = JobCatalog.of(JobDefinition.builder(DAILY)
            .schedule("0 9 * * *", "America/New_York")
            .pool(SLOW)
            .job(services -> context -> JobResult.empty())
            .build());

    private static InvocationCommands.Run run(String... args) {
        InvocationCommands.Run run = new InvocationCommands.Run(CliContext.withClock(CLOCK));
        new CommandLine(run).parseArgs(args);
        return run;
    }

    @Test
    void localRun_withSkewTolerance5s_leaseOutlivesTheBudgetBy5s_andClaimsLastThePoolsTimeoutPlus5s() {
        InvocationCommands.Run run = run(DAILY, "--local", "--stage", "dev", "--skew-tolerance", "5s");

        Deadline deadline = run.deadline(CATALOG, run.tolerance(SkewToleranceOptionTest::qaConfiguredWith7s));

        assertThat(deadline.skewTolerance()).isEqualTo(Duration.ofSeconds(5));
        assertThat(deadline.leaseUntil())
                .isEqualTo(NOW.plus(InvocationCommands.CLI_BUDGET).plusSeconds(5));
        assertThat(deadline.leaseTerm()).isEqualTo(SLOW.timeout().plusSeconds(5));
        // A laptop that dies right after the claim frees the group after the pool's timeout, not 15 min.
        assertThat(deadline.leaseFor(NOW))
                .isEqualTo(NOW.plus(Duration.ofMinutes(10)).plusSeconds(5));
    }

    /** As Stages.java would give a stage "qa" configured with withSkewTolerance(7s). */
    private static Optional<Duration> qaConfiguredWith7s(String stage) {
        return stage.equals("qa") ? Optional.of(Duration.ofSeconds(7)) : Optional.empty();
    }

    @Test
    void localRun_withoutTheOption_ofAStageConfiguredWith7s_takesThe7s() {
        InvocationCommands.Run run = run(DAILY, "--local", "--stage", "qa");

        Duration tolerance = run.tolerance(SkewToleranceOptionTest::qaConfiguredWith7s);

        assertThat(tolerance).isEqualTo(Duration.ofSeconds(7));
        assertThat(run.deadline(CATALOG, tolerance).leaseTerm())
                .isEqualTo(SLOW.timeout().plusSeconds(7));
    }

    @Test
    void localRun_withTheOption_ofAStageConfiguredWith7s_takesTheOption() {
        InvocationCommands.Run run = run(DAILY, "--local", "--stage", "qa", "--skew-tolerance", "1s");

        assertThat(run.tolerance(SkewToleranceOptionTest::qaConfiguredWith7s)).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void localRun_withoutTheOption_ofAStageThisBuildDoesNotDefine_usesTheDefaultTolerance() {
        InvocationCommands.Run run = run(DAILY, "--local", "--stage", "sandbox-of-someone");

        Duration tolerance = run.tolerance(SkewToleranceOptionTest::qaConfiguredWith7s);

        assertThat(tolerance).isEqualTo(Lease.DEADLINE_MARGIN);
        assertThat(run.deadline(CATALOG, tolerance).skewTolerance()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void stagesConfiguredSkewTolerance_ofEachRepositoryStage_isItsConfigsValue_andEmptyForAnUnknownStage() {
        for (String stage : Stages.names()) {
            assertThat(Stages.configuredSkewTolerance(stage))
                    .as(stage)
                    .contains(Stages.named(stage).skewTolerance());
        }
        assertThat(Stages.configuredSkewTolerance("sandbox-of-someone")).isEmpty();
    }

    @Test
    void localRun_ofAPayloadNamingNoKnownJob_keepsTheWholeBudgetAsItsLease() {
        InvocationCommands.Run run = run("not-in-this-catalog", "--local", "--stage", "dev");

        Deadline deadline = run.deadline(CATALOG, run.tolerance(SkewToleranceOptionTest::qaConfiguredWith7s));

        assertThat(deadline.leaseFor(NOW)).isEqualTo(deadline.leaseUntil());
    }

    @Test
    void skewToleranceOutOfRange_exitsTwo_namingTheOptionAndTheRange_beforeConnecting() {
        for (String bad : new String[] {"61s", "2m", "PT-1S"}) {
            StringWriter err = new StringWriter();

            int code = execute(err, "run", DAILY, "--skew-tolerance", bad, "--endpoint", "http://127.0.0.1:1");

            assertThat(code).as(bad).isEqualTo(PunctualCli.INVALID_INPUT);
            assertThat(err.toString())
                    .as(bad)
                    .contains("--skew-tolerance: '" + bad + "' is out of range; accepted: 0s to 60s");
        }
    }

    @Test
    void skewToleranceThatIsNotADuration_exitsTwo_namingTheFormatsAccepted() {
        StringWriter err = new StringWriter();

        int code = execute(err, "run", DAILY, "--skew-tolerance", "soon", "--endpoint", "http://127.0.0.1:1");

        assertThat(code).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(err.toString()).contains("--skew-tolerance: 'soon' is not a duration; accepted: 90s, 30m");
    }

    @Test
    void skewTolerance_forARunInTheDeployedFunction_exitsTwo_sayingTheStageConfigDecides() {
        StringWriter err = new StringWriter();

        int code = execute(err, "run", DAILY, "--stage", "prod", "--skew-tolerance", "5s");

        assertThat(code).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(err.toString())
                .contains("--skew-tolerance", "skewTolerance", "accepted: with --local or --endpoint");
    }

    private static int execute(StringWriter err, String... args) {
        return PunctualCli.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), CLOCK, args);
    }
}
