package dev.punctual.cli.stage;

import dev.punctual.cli.input.OperatorInputException;
import dev.punctual.cli.input.OperatorNames;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobTable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * {@link StageTarget} plus the tables a command reads and writes: by default the ones the stage's stack
 * names. Against an emulator the CLI creates missing tables; against AWS it never does (the CDK owns
 * them).
 */
public final class StageOptions extends StageTarget {

    @Option(
            names = "--ledger-table",
            paramLabel = "NAME",
            description = "The ledger table; default: the one the stage's stack names (on an emulator:"
                    + " punctual-<stage>-ledger)")
    String ledgerTable;

    @Option(
            names = "--job-table",
            paramLabel = "DECLARED=NAME",
            description = "A table the catalog's jobs declare, by its declared name (repeatable); default: the"
                    + " one the stage's stack names (on an emulator: punctual-<stage>-<declared name in lower case>)")
    public Map<String, String> jobTables = new LinkedHashMap<>();

    /**
     * The options given that mean something only on a stage, as typed: for a command whose stage is
     * optional ({@code jobs}), which refuses them without {@code --stage} or {@code --endpoint}.
     */
    public List<String> givenWithoutTarget() {
        if (stage != null || endpoint != null) {
            return List.of();
        }
        List<String> given = new java.util.ArrayList<>();
        if (region != null) {
            given.add("--region");
        }
        if (profile != null) {
            given.add("--profile");
        }
        if (ledgerTable != null) {
            given.add("--ledger-table");
        }
        if (!jobTables.isEmpty()) {
            given.add("--job-table");
        }
        return given;
    }

    /** Whether a stage was named: {@code --stage} or {@code --endpoint}. */
    public boolean named() {
        return stage != null || endpoint != null;
    }

    /** The ledger table named on the command line, if one was. */
    public Optional<String> ledgerTableOption() {
        return Optional.ofNullable(ledgerTable).map(t -> OperatorNames.table("--ledger-table", t));
    }

    /**
     * The declared tables' names: those given with {@code --job-table} over the stage's ({@code found}); a
     * declared name the catalog does not have exits 2 naming those it has.
     */
    public Map<String, String> jobTables(JobCatalog definitions, Map<String, String> found) {
        List<String> declared =
                definitions.tables().stream().map(JobTable::name).toList();
        Map<String, String> names = new LinkedHashMap<>(found);
        jobTables.forEach((table, name) -> {
            if (!declared.contains(table)) {
                throw new OperatorInputException("--job-table: '" + table + "=" + name
                        + "' names no table the catalog declares; accepted: "
                        + (declared.isEmpty() ? "none (the catalog declares no table)" : String.join(", ", declared)));
            }
            names.put(table, OperatorNames.table("--job-table " + table, name));
        });
        return names;
    }

    /** On an emulator: {@code punctual-<stage>-<declared name in lower case>} for every declared table. */
    Map<String, String> emulatorJobTables(JobCatalog definitions) {
        Map<String, String> names = new LinkedHashMap<>();
        definitions
                .tables()
                .forEach(t -> names.put(
                        t.name(), "punctual-" + stageName() + "-" + t.name().toLowerCase(Locale.ROOT)));
        return names;
    }

    /**
     * The options that reached this stage, as they were typed, for a hint that repeats the command's
     * target (an undo line): {@code --endpoint URL --ledger-table T} on an emulator, {@code --stage NAME
     * --region R} on AWS, never a {@code --stage dev} the command was not given. The endpoint is shown
     * redacted, as every echoed value is.
     */
    public String reachedWith() {
        StringBuilder options = new StringBuilder();
        if (emulator()) {
            options.append(" --endpoint ")
                    .append(dev.punctual.observability.Redactor.standard().line(endpoint.strip()));
        }
        if (stage != null || !emulator()) {
            options.append(" --stage ").append(stageName());
        }
        if (region != null) {
            options.append(" --region ").append(region);
        }
        if (profile != null) {
            options.append(" --profile ").append(profile);
        }
        ledgerTableOption()
                .ifPresent(table -> options.append(" --ledger-table ").append(table));
        jobTables.forEach((table, name) ->
                options.append(" --job-table ").append(table).append('=').append(name));
        return options.toString();
    }

    /** On an emulator: the named ledger table, else {@code punctual-<stage>-ledger}. */
    String emulatorLedgerTable() {
        return ledgerTableOption().orElse("punctual-" + stageName() + "-ledger");
    }
}
