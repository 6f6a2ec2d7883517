package dev.punctual.cli.reading;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.cli.CliRun;
import dev.punctual.cli.PunctualCli;
import dev.punctual.fixtures.FixtureCatalog;
import org.junit.jupiter.api.Test;

/** {@code plan}'s refusals name what is wrong and what would be accepted, never picocli's raw wording. */
class PlanRefusalsTest {

    @Test
    void aJobAndAnExpressionTogether_areRefused_namingBoth_withoutPicocliWording() {
        CliRun result = CliRun.of(
                "plan", "--job", FixtureCatalog.DAILY, "--schedule", "0 9 * * *", "--zone", "UTC", "--count", "2");

        assertThat(result.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err())
                .startsWith("punctual plan: --job, --schedule, --zone: not together; accepted: one of them")
                .doesNotContain("mutually exclusive")
                .doesNotContain("expected only one match");
        assertThat(result.out()).isEmpty();
    }

    @Test
    void aJobWithAZone_isRefusedAsMixingTheAlternatives_notAsAMissingSchedule() {
        CliRun result = CliRun.of("plan", "--job", FixtureCatalog.DAILY, "--zone", "Europe/Paris", "--count", "2");

        assertThat(result.code()).isEqualTo(2);
        assertThat(result.err())
                .startsWith("punctual plan: --job, --zone: not together; accepted: --job ID or --schedule EXPR --zone"
                        + " ZONE (see punctual plan --help)")
                .doesNotContain("--schedule: required");
    }

    @Test
    void aJobWithASchedule_isRefusedAsMixingTheAlternatives_notAsAMissingZone() {
        CliRun result = CliRun.of("plan", "--job", FixtureCatalog.DAILY, "--schedule", "0 9 * * *", "--count", "2");

        assertThat(result.code()).isEqualTo(2);
        assertThat(result.err())
                .startsWith("punctual plan: --job, --schedule: not together; accepted: --job ID or --schedule EXPR"
                        + " --zone ZONE")
                .doesNotContain("--zone: required");
    }

    @Test
    void toAndCountTogether_areRefusedInOneLine_namingBoth_withoutPicocliWording() {
        CliRun result = CliRun.of(
                "plan",
                "--schedule",
                "cron(0 9 * * ? *)",
                "--zone",
                "UTC",
                "--to",
                "2027-01-01T00:00:00Z",
                "--count",
                "3");

        assertThat(result.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err())
                .isEqualTo("punctual plan: --to, --count: not together; accepted: --to INSTANT or --count N (see"
                        + " punctual plan --help)"
                        + System.lineSeparator())
                .doesNotContain("expected only one match");
        assertThat(result.out()).isEmpty();
    }

    @Test
    void neitherAJobNorAnExpression_namesBothAlternatives() {
        CliRun result = CliRun.of("plan", "--count", "2");

        assertThat(result.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err())
                .startsWith("punctual plan: --job ID or --schedule EXPR --zone ZONE: one of them is required");
    }

    @Test
    void anExpressionWithoutItsZone_namesOnlyTheZone() {
        CliRun result = CliRun.of("plan", "--schedule", "0 9 * * *", "--count", "2");

        assertThat(result.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err()).startsWith("punctual plan: --zone: required;");
    }

    @Test
    void bothToAndCount_areRefused_namingBoth() {
        CliRun result =
                CliRun.of("plan", "--job", FixtureCatalog.DAILY, "--count", "2", "--to", "2027-01-01T00:00:00Z");

        assertThat(result.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err()).startsWith("punctual plan: --to, --count: not together;");
    }

    @Test
    void aMistypedJob_suggestsTheClosest() {
        String typo = FixtureCatalog.DAILY.substring(0, FixtureCatalog.DAILY.length() - 1);

        CliRun result = CliRun.of("plan", "--job", typo, "--count", "2");

        assertThat(result.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err())
                .contains("--job: '" + typo + "' is not in the catalog")
                .contains("(did you mean " + FixtureCatalog.DAILY + "?)");
    }

    @Test
    void theHelpsCompletionLine_isOneLineThatPastes() {
        CliRun help = CliRun.of("--help");

        assertThat(help.code()).isZero();
        assertThat(help.out().lines())
                .anySatisfy(line ->
                        assertThat(line).isEqualTo("Shell completion:  source <(bin/punctual generate-completion)"))
                .allSatisfy(line -> assertThat(line.length()).as(line).isLessThanOrEqualTo(80));
    }

    @Test
    void versionAlone_buildsNoSubcommand_andANamedCommand_onlyItself() {
        java.util.List<String> all = java.util.List.of("plan", "run", "generate-completion", "jobs");

        assertThat(PunctualCli.wanted(all, "--version")).isEmpty();
        assertThat(PunctualCli.wanted(all, "jobs", "--next", "2")).containsExactly("jobs");
        assertThat(PunctualCli.wanted(all, "--help")).isEqualTo(all);
        assertThat(PunctualCli.wanted(all)).isEqualTo(all);
        assertThat(PunctualCli.wanted(all, "jbos"))
                .as("a mistyped command gets the list for its suggestion")
                .isEqualTo(all);
        assertThat(PunctualCli.wanted(all, "generate-completion")).isEqualTo(all);
    }

    @Test
    void aMistypedCommand_stillGetsItsSuggestion() {
        CliRun result = CliRun.of("jbos");

        assertThat(result.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err()).contains("'jbos' is not a command").contains("did you mean jobs?");
    }
}
