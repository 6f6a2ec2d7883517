package dev.punctual.cli;

import static dev.punctual.fixtures.FixtureCatalog.DAILY;
import static dev.punctual.fixtures.FixtureCatalog.DESTRUCTIVE;
import static dev.punctual.fixtures.FixtureCatalog.RECORDS;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.cli.input.Completions;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.infra.SynthesisedOperatorPolicy;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.dynamodb.DynamoDbRunLedger;
import dev.punctual.testing.DynamoDbHarness;
import dev.punctual.testing.TestTables;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every write the CLI sends to a stage, checked against the stage's operator policy as synthesised
 * (issue 40, item 3; decision 0037). Each writing command runs for real, as an operator types it, against
 * the emulator through a loopback proxy that records each request ({@link RecordingProxy}); each item it
 * touches is evaluated against the policy's actions, {@code dynamodb:LeadingKeys} and
 * {@code dynamodb:Attributes} by infra's own evaluator ({@link SynthesisedOperatorPolicy}).
 *
 * <p>A command cannot ship without its right: the CLI's commands are enumerated from picocli's model
 * (each subcommand, and each mode of {@code maintenance}), and any that is neither run here nor declared
 * in {@link #NOT_CHECKED_HERE} with the reason it needs no ledger write of the operator's fails the test.
 * The commands that only read the ledger ({@code status}, {@code blackout list}) run here too, and are
 * shown to send reads only, each allowed.
 *
 * <p>Why a proxy and not an SDK interceptor: the CLI builds its clients itself (the handler's wiring),
 * with no way in for an interceptor; on the wire every client it builds is seen, and a request to
 * another service (a REST one included) cannot slip past unrecorded.
 */
class CliWritesPolicyTest {

    /** Just after Monday's 09:00 in New York: DAILY's next occurrences are Tuesday's and Wednesday's. */
    private static final Instant NOW = Instant.parse("2026-11-30T14:00:02Z");

    private static final Instant TUESDAY = Instant.parse("2026-12-01T14:00:00Z");
    private static final Instant WEDNESDAY = Instant.parse("2026-12-02T14:00:00Z");

    /** DESTRUCTIVE's next occurrence: Sunday 03:00 in Berlin. */
    private static final Instant SUNDAY = Instant.parse("2026-12-06T02:00:00Z");

    /**
     * The commands this test does not run, each with why the operator policy needs no ledger write for
     * it. A new command must be added here or to the scenarios in {@link #runEveryWritingCommand()}.
     */
    static final Map<String, String> NOT_CHECKED_HERE = Map.ofEntries(
            Map.entry("plan", "offline: reads the catalog"),
            Map.entry(
                    "invoke",
                    "runs in the stage's function (lambda:InvokeFunction on the live aliases); with --endpoint in"
                            + " this JVM with the operator's own data permissions, not covered on purpose"),
            Map.entry(
                    "run",
                    "runs in the stage's function (lambda:InvokeFunction); --local and --endpoint run the job in"
                            + " this JVM with the operator's own data permissions, not covered on purpose"),
            Map.entry("replay", "as run"),
            Map.entry("logs", "reads Logs Insights"),
            Map.entry(
                    "cancel",
                    "on a stage writes nothing to the ledger: it reads the run, the execution record and the"
                            + " execution (GetItem, DescribeExecution), stops it (states:StopExecution, granted by"
                            + " OperatorPolicy.allowLongRuns) and waits for the stage's function to record the ABORTED"
                            + " status event; a completion by the operator would name the slot's owner and the cursor and"
                            + " put a whole run item, which decision 0037 keeps the functions'. On the emulator (no"
                            + " status rule) it completes the claim itself, as run --endpoint runs jobs: LongJobCommandsTest"),
            Map.entry(
                    "verify",
                    "reads; --activate writes through maintenance on and off (Activation calls the same"
                            + " RunLedger.maintenanceOn and maintenanceOff as the maintenance command, checked here)"
                            + " and runs jobs through the functions"),
            Map.entry(
                    "schedules put",
                    "writes entity schedules and their ledger notes with the entity services' policy"
                            + " (EntityServicePolicyArn), not the operator's"),
            Map.entry("schedules delete", "as schedules put"),
            Map.entry("schedules import", "as schedules put"),
            Map.entry("schedules get", "reads an entity schedule"),
            Map.entry("schedules list", "reads entity schedules"),
            Map.entry("demo", "local: its own emulator"),
            Map.entry("emulator", "local: starts an emulator"),
            Map.entry("init", "local: writes a repository"),
            Map.entry("generate-completion", "offline: prints a script"));

    /**
     * Requests that only an emulator sees: {@code OperatorSession.withTables} creates the ledger, the
     * jobs' tables and the stage's bus there on first use; on a deployed stage they are the stack's.
     */
    private static final Set<String> EMULATOR_SETUP = Set.of(
            "dynamodb:DescribeTable", "dynamodb:CreateTable", "dynamodb:UpdateTimeToLive", "events:CreateEventBus");

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Each writing command's requests, by the command as typed. */
    private static final Map<String, List<RecordingProxy.Access>> SENT = new LinkedHashMap<>();

    /** The commands that read the ledger, run here too: shown to write nothing, and allowed. */
    private static final Map<String, List<RecordingProxy.Access>> READ = new LinkedHashMap<>();

    private static RecordingProxy proxy;
    private static SynthesisedOperatorPolicy policy;
    private static String ledgerTable;
    private static String recordsTable;

    @BeforeAll
    static void runEveryWritingCommand() throws Exception {
        policy = SynthesisedOperatorPolicy.synthesise();
        proxy = new RecordingProxy(DynamoDbHarness.backend().endpoint());
        ledgerTable = TestTables.uniqueName(CliWritesPolicyTest.class, "ledger");
        recordsTable = TestTables.uniqueName(CliWritesPolicyTest.class, "records");

        checked("maintenance on", NOW, "maintenance", "on", "--reason", "upgrade", "--for", "1h", "--by", "alice");
        checked("maintenance off", NOW, "maintenance", "off", "--by", "alice");
        checked("skip", NOW, "skip", DAILY, "--at", TUESDAY.toString(), "--reason", "outage", "--by", "alice");
        checked("unskip", NOW, "unskip", DAILY, "--at", TUESDAY.toString());
        // approve (decision 0041): its preview is the job's dry run, which on a deployed stage runs in the
        // stage's function (lambda:InvokeFunction) and here in this JVM; only its ledger requests are the
        // operator's.
        checked(
                "approve",
                NOW,
                "approve",
                DESTRUCTIVE,
                "--at",
                SUNDAY.toString(),
                "--reason",
                "checked",
                "--by",
                "alice");
        SENT.put(
                "approve",
                SENT.get("approve").stream()
                        .filter(a -> EMULATOR_SETUP.contains(a.action()) || ledgerTable.equals(a.table()) || a.writes())
                        .toList());
        String added = checked(
                "blackout add",
                NOW,
                "blackout",
                "add",
                "--job",
                DAILY,
                "--from",
                "2026-12-02T00:00:00Z",
                "--to",
                "2026-12-03T00:00:00Z",
                "--reason",
                "migration",
                "--by",
                "alice");
        READ.put("blackout list", run(NOW, "blackout", "list"));
        checked(
                "blackout remove",
                NOW,
                "blackout",
                "remove",
                JSON.readTree(added).get("blackout").asText());
        // pause and resume (decision 0040): the mark alone on the job's lock item, each choice of resume.
        checked("pause", NOW, "pause", DAILY, "--reason", "supplier outage", "--by", "alice");
        // jobs with a stage: which jobs are paused, one BatchGetItem of the lock items (issue 38, item 1).
        READ.put("jobs", run(NOW, "jobs"));
        checked("resume", NOW, "resume", DAILY, "--skip-paused");
        checked(
                "pause (until)",
                NOW,
                "pause",
                DAILY,
                "--reason",
                "supplier outage",
                "--by",
                "alice",
                "--until",
                NOW.plusSeconds(3600).toString(),
                "--then",
                "skip");
        checked("resume (catch-up)", NOW, "resume", DAILY, "--catch-up");
        READ.put("status", run(NOW, "status", DAILY));
        // Issue 38: one Query of the job's run partition and one GetItem of its lock item.
        READ.put("history", run(NOW, "history", DAILY));
        // A skip that first drops a mark its job's cursor has passed (SKIPS_PRUNE): skip Tuesday again, then
        // move the cursor to Tuesday as deliveries would (a missed range, by the ledger itself, unrecorded).
        checked("skip", NOW, "skip", DAILY, "--at", TUESDAY.toString(), "--reason", "outage", "--by", "alice");
        DynamoDbRunLedger.create(
                        DynamoDbHarness.client(),
                        ledgerTable,
                        Clock.fixed(TUESDAY.plusSeconds(10), ZoneOffset.UTC),
                        () -> UUID.randomUUID().toString(),
                        Retention.DEFAULT,
                        d -> {})
                .recordMissed(new RunKey(DAILY, TUESDAY), TUESDAY, 1);
        checked(
                "skip (dropping a passed mark)",
                NOW,
                "skip",
                DAILY,
                "--at",
                WEDNESDAY.toString(),
                "--reason",
                "outage",
                "--by",
                "alice");
        // On the system clock: the hold renews while its command runs.
        checked(
                "maintenance hold",
                null,
                "maintenance",
                "hold",
                "--reason",
                "loading",
                "--by",
                "alice",
                "--wait",
                "2s",
                "--",
                "sh",
                "-c",
                "exit 0");
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    /** Runs the command (see {@link #checked}) and returns what it sent. */
    private static List<RecordingProxy.Access> run(Instant at, String... args) {
        checked("(read)", at, args);
        return SENT.remove("(read)");
    }

    /** Runs the command with the stage's options through the proxy, records what it sent, returns its output. */
    private static String checked(String name, Instant at, String... args) {
        List<String> all = new ArrayList<>();
        int separator = List.of(args).indexOf("--");
        List<String> own = separator < 0 ? List.of(args) : List.of(args).subList(0, separator);
        all.addAll(own);
        all.addAll(List.of(
                "--endpoint",
                proxy.endpoint().toString(),
                "--ledger-table",
                ledgerTable,
                "--job-table",
                RECORDS.name() + "=" + recordsTable,
                "--stage",
                "dev"));
        if (!own.contains("hold")) {
            all.addAll(List.of("--output", "json"));
        }
        if (separator >= 0) {
            all.addAll(List.of(args).subList(separator, args.length));
        }
        CliContext context = CliContext.withClock(at == null ? Clock.systemUTC() : Clock.fixed(at, ZoneOffset.UTC));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        proxy.take();
        int code = PunctualCli.execute(new PrintWriter(out), new PrintWriter(err), context, all.toArray(String[]::new));
        assertThat(code).as("%s: %s%s", String.join(" ", all), out, err).isZero();
        SENT.merge(
                name,
                proxy.take(),
                (a, b) -> Stream.concat(a.stream(), b.stream()).toList());
        return out.toString();
    }

    @Test
    void everyCommandOfTheCli_isRunHere_orDeclaredToNeedNoLedgerWriteOfTheOperators() {
        Set<String> commands = commands();
        Set<String> run = SENT.keySet().stream()
                .filter(name -> !name.contains("("))
                .collect(Collectors.toCollection(TreeSet::new));

        run.addAll(READ.keySet());
        assertThat(run).as("commands run here").doesNotContainAnyElementsOf(NOT_CHECKED_HERE.keySet());
        Set<String> known = new TreeSet<>(run);
        known.addAll(NOT_CHECKED_HERE.keySet());
        assertThat(commands)
                .as("the CLI's commands: each must be run here (its writes checked against the operator policy)"
                        + " or declared in NOT_CHECKED_HERE with why it needs no ledger write of the operator's")
                .containsExactlyInAnyOrderElementsOf(known);
    }

    @Test
    void everyRequestOfEveryWritingCommand_isAllowedByTheSynthesisedOperatorPolicy() {
        assertThat(SENT).isNotEmpty();
        SENT.forEach((command, sent) -> {
            List<RecordingProxy.Access> checked = sent.stream()
                    .filter(a -> !EMULATOR_SETUP.contains(a.action()))
                    .toList();
            assertThat(checked)
                    .as("%s: requests other than DynamoDB's (none is evaluated here, so none may be sent)", command)
                    .allMatch(a -> a.action().startsWith("dynamodb:"));
            assertThat(checked)
                    .as("%s: every item is the ledger's (the operator policy grants no job table)", command)
                    .allMatch(a -> ledgerTable.equals(a.table()));
            assertThat(checked).as("%s writes", command).anyMatch(RecordingProxy.Access::writes);
            assertThat(checked.stream().filter(a -> !allowed(a)).toList())
                    .as("%s: requests the operator policy denies", command)
                    .isEmpty();
        });
    }

    @Test
    void theCommandsThatRead_writeNothing_andEveryReadIsAllowed() {
        assertThat(READ).isNotEmpty();
        READ.forEach((command, sent) -> {
            List<RecordingProxy.Access> checked = sent.stream()
                    .filter(a -> !EMULATOR_SETUP.contains(a.action()))
                    .toList();
            assertThat(checked)
                    .as(command)
                    .isNotEmpty()
                    .allMatch(a -> a.action().equals("dynamodb:GetItem")
                            || a.action().equals("dynamodb:Query")
                            || a.action().equals("dynamodb:BatchGetItem"));
            assertThat(checked.stream().filter(a -> !allowed(a)).toList())
                    .as("%s: requests the operator policy denies", command)
                    .isEmpty();
        });
    }

    @Test
    void history_sendsOneQueryOfTheJobsRunItemsAndOneGetItemOfItsLockItem_bothAllowed() {
        List<RecordingProxy.Access> sent = READ.get("history").stream()
                .filter(a -> !EMULATOR_SETUP.contains(a.action()))
                .toList();

        assertThat(sent.stream().map(RecordingProxy.Access::action).sorted().toList())
                .containsExactly("dynamodb:GetItem", "dynamodb:Query");
        assertThat(sent).allMatch(CliWritesPolicyTest::allowed);
        assertThat(policy.allows("dynamodb:Query", "", null, Set.of("pk", "sk"), "NONE"))
                .as("the Query on the ledger, as the synthesised operator policy has it")
                .isTrue();
    }

    @Test
    void jobs_readsEveryJobsLockItemAndItsGroups_inBatchGetItems_only_eachAllowed() {
        List<RecordingProxy.Access> sent = READ.get("jobs").stream()
                .filter(a -> !EMULATOR_SETUP.contains(a.action()))
                .toList();

        assertThat(sent).allMatch(a -> a.action().equals("dynamodb:BatchGetItem"));
        assertThat(sent.stream().map(RecordingProxy.Access::partitionKey))
                .contains("lock#" + DAILY, "lock#" + dev.punctual.fixtures.FixtureCatalog.SHARED_GROUP)
                .allMatch(pk -> pk.startsWith("lock#"))
                .doesNotHaveDuplicates();
        assertThat(sent).allMatch(CliWritesPolicyTest::allowed);
        assertThat(policy.allows(
                        "dynamodb:BatchGetItem", "lock#" + DAILY, "lock", Set.of("pk", "sk", "cursor"), "NONE"))
                .as("a batch naming more than the pause mark")
                .isFalse();
    }

    @Test
    void theWritesRecorded_coverEveryKindOfWriteTheCommandsSend() {
        List<RecordingProxy.Access> all =
                SENT.values().stream().flatMap(List::stream).toList();

        assertThat(all)
                // maintenance: the lease of the lock groups, taken, renewed and given back
                .anyMatch(a -> a.action().equals("dynamodb:UpdateItem")
                        && a.attributes().contains("maintBy")
                        && a.partitionKey().startsWith("lock#"))
                .anyMatch(a -> a.action().equals("dynamodb:UpdateItem")
                        && a.attributes().contains("maintCommand"))
                // skip: the mark and the planned run item, in one transaction; unskip: the run item's delete
                .anyMatch(a -> a.action().equals("dynamodb:UpdateItem")
                        && a.request().equals("TransactWriteItems")
                        && a.attributes().contains("skips"))
                .anyMatch(a -> a.action().equals("dynamodb:PutItem")
                        && a.partitionKey().equals("run#" + DAILY)
                        && a.attributes().contains("skipBy"))
                .anyMatch(a -> a.action().equals("dynamodb:DeleteItem")
                        && a.partitionKey().equals("run#" + DAILY));
        assertThat(SENT.get("skip (dropping a passed mark)"))
                .as("the prune of a mark behind the cursor, on its own")
                .anyMatch(a -> a.action().equals("dynamodb:UpdateItem")
                        && a.request().equals("UpdateItem")
                        && a.attributes().contains("skips"));
        assertThat(SENT.get("pause"))
                .as("the pause's mark on the job's lock item, nothing else")
                .anyMatch(a -> a.action().equals("dynamodb:UpdateItem")
                        && a.partitionKey().equals("lock#" + DAILY)
                        && a.attributes().contains("pausedBy")
                        && !a.attributes().contains("cursor")
                        && !a.attributes().contains("leaseOwner"));
        assertThat(SENT.get("resume (catch-up)"))
                .anyMatch(a -> a.action().equals("dynamodb:UpdateItem")
                        && a.attributes().contains("pausedFrom"));
        assertThat(SENT.get("maintenance hold"))
                .as("the hold's renewal (HOLD_OURS: owner and end, no fence) before it is given back")
                .anyMatch(a -> a.action().equals("dynamodb:UpdateItem")
                        && a.attributes().equals(Set.of("pk", "sk", "leaseOwner", "leaseUntil")));
    }

    @Test
    void noOperatorRequest_namesTheFence_andNamingItTurnsAnyOfThemIntoADeniedOne() {
        List<RecordingProxy.Access> writes = SENT.values().stream()
                .flatMap(List::stream)
                .filter(RecordingProxy.Access::writes)
                .toList();

        assertThat(writes).isNotEmpty().noneMatch(a -> a.attributes().contains("leaseFence"));
        for (RecordingProxy.Access write : writes) {
            Set<String> withFence = new TreeSet<>(write.attributes());
            withFence.add("leaseFence");
            assertThat(policy.allows(
                            write.action(), write.partitionKey(), write.sortKey(), withFence, write.returnValues()))
                    .as("%s, also naming leaseFence", write)
                    .isFalse();
        }
    }

    @Test
    void aHandMadeWriteOfTheFenceOrTheCursor_isDenied_whateverTheItemOrAction() {
        for (String action : List.of("dynamodb:UpdateItem", "dynamodb:PutItem", "dynamodb:DeleteItem")) {
            for (String item : List.of("lock#" + DAILY, "lock#reservations", "run#" + DAILY)) {
                for (String attribute : List.of("leaseFence", "cursor")) {
                    assertThat(policy.allows(action, item, item, Set.of("pk", "sk", attribute), "NONE"))
                            .as("%s of %s naming %s", action, item, attribute)
                            .isFalse();
                }
            }
        }
        // The writes the operator's commands do send stay allowed on their own: the denial is the fence's.
        assertThat(policy.allows(
                        "dynamodb:UpdateItem",
                        "lock#" + DAILY,
                        "lock#" + DAILY,
                        Set.of("pk", "sk", "leaseOwner", "leaseUntil"),
                        "ALL_NEW"))
                .isTrue();
    }

    private static boolean allowed(RecordingProxy.Access access) {
        return policy.allows(
                access.action(),
                access.partitionKey() == null ? "" : access.partitionKey(),
                access.sortKey(),
                access.attributes(),
                access.returnValues());
    }

    /**
     * The CLI's commands from picocli's model: every leaf subcommand by its qualified name ({@code
     * blackout add}), and {@code maintenance} by each of its modes, whose first parameter chooses what
     * it does ({@code maintenance on}).
     */
    static Set<String> commands() {
        Set<String> names = new TreeSet<>();
        PunctualCli.subcommands(CliContext.withClock(Clock.systemUTC())).forEach((name, command) -> {
            Object built = command.get();
            walk(name, built instanceof CommandLine line ? line : new CommandLine(built), names);
        });
        return names;
    }

    private static void walk(String name, CommandLine line, Set<String> names) {
        Map<String, CommandLine> subcommands = line.getSubcommands();
        if (!subcommands.isEmpty()) {
            subcommands.forEach((sub, subLine) -> walk(name + " " + sub, subLine, names));
            return;
        }
        List<CommandLine.Model.PositionalParamSpec> positional =
                line.getCommandSpec().positionalParameters();
        if (!positional.isEmpty()
                && positional.getFirst().completionCandidates() instanceof Completions.MaintenanceStates) {
            positional.getFirst().completionCandidates().forEach(mode -> names.add(name + " " + mode));
            return;
        }
        names.add(name);
    }
}
