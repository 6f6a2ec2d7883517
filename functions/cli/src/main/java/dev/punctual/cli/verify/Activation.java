package dev.punctual.cli.verify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.cli.insights.SavedQueryRunner;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.ledger.MaintenanceHold;
import dev.punctual.ledger.MaintenanceReport;
import dev.punctual.ledger.MaintenanceRequest;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.Sleeper;
import dev.punctual.ledger.dynamodb.DynamoDbRunLedger;
import dev.punctual.stage.StageFlags;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The activation checks ({@code --activate}). They write the ledger: a manual run of each job marked
 * safe to verify (forced, so it runs even when its latest occurrence is done), its repeat, a refused run
 * of each destructive job where the stage refuses them, and a maintenance hold of verify's own, always
 * released. A run's outcome line is looked for with the stage's saved query ({@link OutcomeSearch}), as
 * an operator would; the delivery and secret checks read the log lines themselves (FilterLogEvents).
 */
public final class Activation {

    /** Who verify's maintenance hold is set by; verify lifts only holds of this name. */
    public static final String HOLDER = "punctual-verify";

    /** How far back the secret scan reads. */
    public static final Duration SECRET_WINDOW = Duration.ofHours(1);

    private static final Duration HOLD_FOR = Duration.ofMinutes(10);
    private static final Duration HOLD_WAIT = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(500);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final StageFlags flags;
    private final JobCatalog catalog;
    private final Clock clock;
    private final Duration logWait;
    private final StageInvoker invoker;
    private final StageLogs logs;
    private final OutcomeSearch outcomes;
    private final RunLedger ledger;
    private final Sleeper sleeper;

    Activation(
            StageFlags flags,
            JobCatalog catalog,
            Clock clock,
            Duration logWait,
            StageInvoker invoker,
            StageLogs logs,
            OutcomeSearch outcomes,
            RunLedger ledger,
            Sleeper sleeper) {
        this.flags = flags;
        this.catalog = catalog;
        this.clock = clock;
        this.logWait = logWait;
        this.invoker = invoker;
        this.logs = logs;
        this.outcomes = outcomes;
        this.ledger = ledger;
        this.sleeper = sleeper;
    }

    /**
     * @param clock what the checks' times and waits are measured on
     * @param sleeper how they wait (for an outcome line, for a lock group to free): the CLI's, so a test
     *     moves its clock instead of sleeping
     */
    public static List<CheckResult> run(
            StageAws aws,
            StageInventory inventory,
            StageFlags flags,
            JobCatalog catalog,
            Clock clock,
            Duration logWait,
            Sleeper sleeper) {
        Supplier<String> tokens = () -> UUID.randomUUID().toString();
        RunLedger ledger = DynamoDbRunLedger.create(
                aws.dynamo(), inventory.ledgerTable(), clock, tokens, Retention.DEFAULT, sleeper);
        return new Activation(
                        flags,
                        catalog,
                        clock,
                        logWait,
                        new StageInvoker(aws.lambda(), inventory.aliases()),
                        new StageLogs(aws.logs(), inventory.logGroups()),
                        new OutcomeSearch(
                                new SavedQueryRunner(
                                        aws.logs(),
                                        flags.stage(),
                                        inventory.savedQueries(),
                                        inventory.logGroups(),
                                        clock,
                                        sleeper),
                                clock,
                                sleeper,
                                logWait),
                        ledger,
                        sleeper)
                .run();
    }

    List<CheckResult> run() {
        Instant started = clock.instant();
        List<CheckResult> results = new ArrayList<>();
        List<JobDefinition> safe = catalog.jobs().stream()
                .filter(JobDefinition::safeToVerify)
                .filter(j -> !j.destructive())
                .filter(j -> !j.externalDelivery() || !flags.externalDeliveryEnabled())
                .toList();
        List<RunOutcome> passed = new ArrayList<>();
        if (safe.isEmpty()) {
            results.add(
                    CheckResult.warn(
                            "manual-run",
                            "a manual run of each job marked safe to verify passes",
                            "no job is marked safe to verify",
                            "mark a job without visible effects safeToVerify() in the catalog (e.g. a job that only writes records of its own)"));
        }
        for (JobDefinition job : safe) {
            results.add(Guard.run("manual-run", () -> {
                RunOutcome run = invoker.run(job, Optional.empty(), true);
                if (run.is("PASS", null)) {
                    passed.add(run);
                }
                return new ManualRunCheck(run);
            }));
        }
        for (RunOutcome run : passed) {
            results.add(Guard.run(
                    "outcome-logged",
                    () -> new OutcomeLoggedCheck(
                            flags.stage(), run, outcomes.query(), outcomes.find(run, started), logWait)));
            results.add(Guard.run(
                    "repeat",
                    () -> new RepeatRunCheck(
                            invoker.run(catalog.require(run.job()), Optional.of(run.occurrence()), false))));
        }
        results.add(Guard.run("destructive-refused", this::destructive));
        results.add(Guard.run("delivery-suppressed", () -> delivery(safe, passed, started)));
        results.add(maintenance(passed.stream().findFirst()));
        results.add(Guard.run(
                "log-secrets",
                () -> new LogSecretsCheck(logs.since(clock.instant().minus(SECRET_WINDOW), null), SECRET_WINDOW)));
        return results;
    }

    private DestructiveRefusedCheck destructive() {
        List<RunOutcome> runs = new ArrayList<>();
        if (!flags.destructiveEnabled()) {
            for (JobDefinition job : catalog.jobs()) {
                if (job.destructive()) {
                    runs.add(invoker.run(job, Optional.empty(), false));
                }
            }
        }
        return new DestructiveRefusedCheck(flags.stage(), flags.destructiveEnabled(), runs);
    }

    private DeliverySuppressedCheck delivery(List<JobDefinition> safe, List<RunOutcome> passed, Instant from) {
        List<RunOutcome> runs = passed.stream()
                .filter(r -> catalog.require(r.job()).externalDelivery())
                .toList();
        Map<String, Integer> suppressed = new LinkedHashMap<>();
        Map<String, Integer> sent = new LinkedHashMap<>();
        if (!runs.isEmpty()) {
            for (StageLogs.Line line : logs.since(from, "\"external delivery suppressed\"")) {
                field(line.message(), "job").ifPresent(job -> suppressed.merge(job, 1, Integer::sum));
            }
            // The saved query shows no result object; the outcome line itself carries the job's "sent".
            for (RunOutcome run : runs) {
                outcomeLine(run, from)
                        .map(tree -> tree.path("result").path("sent"))
                        .filter(JsonNode::isNumber)
                        .ifPresent(n -> sent.put(run.job(), n.asInt()));
            }
        }
        boolean anyDelivering = safe.stream().anyMatch(JobDefinition::externalDelivery);
        return new DeliverySuppressedCheck(
                flags.stage(), flags.externalDeliveryEnabled(), anyDelivering ? runs : List.of(), suppressed, sent);
    }

    /**
     * Verify's own hold on every lock group, one run under it, the hold released in a finally (even when
     * the run throws), then one run after it.
     */
    private CheckResult maintenance(Optional<RunOutcome> reference) {
        if (reference.isEmpty()) {
            return CheckResult.warn(
                    "maintenance",
                    "maintenance on makes a run SKIP MAINTENANCE and off restores it",
                    "not checked: no job marked safe to verify passed its manual run",
                    "fix the manual run first");
        }
        RunOutcome ref = reference.get();
        JobDefinition job = catalog.require(ref.job());
        Optional<String> at = Optional.of(ref.occurrence());
        return Guard.run("maintenance", () -> {
            List<String> others = new ArrayList<>();
            for (String group : catalog.lockItems()) {
                ledger.maintenance(group).ifPresent(hold -> others.add(held(group, hold)));
            }
            if (!others.isEmpty()) {
                return new MaintenanceCheck(others, List.of(), Optional.empty(), Optional.empty(), true);
            }
            Optional<RunOutcome> during = Optional.empty();
            List<String> notTaken = new ArrayList<>();
            boolean released;
            try {
                MaintenanceReport report = ledger.maintenanceOn(new MaintenanceRequest(
                        catalog.lockItems(),
                        new MaintenanceHold(
                                "punctual verify: maintenance check",
                                HOLDER,
                                clock.instant().plus(HOLD_FOR)),
                        HOLD_WAIT,
                        POLL));
                // Set by someone else since the look above: the write refused it, and verify holds nothing.
                report.refused().ifPresent(r -> others.add(held(r.group(), r.hold())));
                report.stillRunning().forEach(b -> notTaken.add(b.group()));
                if (report.complete()) {
                    during = Optional.of(invoker.run(job, at, true));
                }
            } finally {
                ledger.maintenanceOff(catalog.lockItems(), Optional.of(HOLDER));
                released = catalog.lockItems().stream()
                        .noneMatch(g -> ledger.maintenance(g)
                                .filter(h -> h.setBy().equals(HOLDER))
                                .isPresent());
            }
            if (!others.isEmpty()) {
                return new MaintenanceCheck(others, List.of(), Optional.empty(), Optional.empty(), released);
            }
            Optional<RunOutcome> after = released ? Optional.of(invoker.run(job, at, false)) : Optional.empty();
            return new MaintenanceCheck(List.of(), notTaken, during, after, released);
        });
    }

    private static String held(String group, MaintenanceHold hold) {
        return group + " (" + hold.shown() + ")";
    }

    /** The run's outcome line as the stage's logs hold it (FilterLogEvents), if it is there. */
    private Optional<JsonNode> outcomeLine(RunOutcome run, Instant from) {
        for (StageLogs.Line line : logs.since(from.minusSeconds(60), "\"occurrence outcome\"")) {
            Optional<JsonNode> tree = parse(line.message());
            if (tree.isPresent()
                    && "occurrence outcome".equals(tree.get().path("message").asText())
                    && run.job().equals(tree.get().path("job").asText())
                    && run.occurrence().equals(tree.get().path("occurrence").asText())
                    && "MANUAL".equals(tree.get().path("trigger").asText())) {
                return tree;
            }
        }
        return Optional.empty();
    }

    private static Optional<JsonNode> parse(String line) {
        try {
            JsonNode tree = JSON.readTree(line);
            return tree != null && tree.isObject() ? Optional.of(tree) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> field(String line, String name) {
        return parse(line).map(t -> t.path(name).asText(null));
    }
}
