package dev.punctual.cli.control;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.punctual.cli.input.Completions;
import dev.punctual.cli.input.DurationArgument;
import dev.punctual.cli.input.OperatorInputException;
import dev.punctual.cli.input.OperatorReason;
import dev.punctual.cli.input.OperatorWho;
import dev.punctual.cli.output.ExitCodes;
import dev.punctual.cli.output.Json;
import dev.punctual.cli.output.OutputOptions;
import dev.punctual.cli.output.RelativeTime;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.cli.stage.OperatorSession;
import dev.punctual.cli.stage.StageOptions;
import dev.punctual.hold.HoldTerms;
import dev.punctual.job.JobCatalog;
import dev.punctual.ledger.Lease;
import dev.punctual.ledger.MaintenanceHold;
import dev.punctual.ledger.MaintenanceRefused;
import dev.punctual.ledger.MaintenanceReport;
import dev.punctual.ledger.MaintenanceRequest;
import dev.punctual.runtime.EntityLeaseTerms;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code maintenance on|off}: takes (or gives back) the lease of every lock group of the catalog, so
 * maintenance serialises with jobs the way a global lock would. While it holds, every job records a
 * maintenance skip before doing anything. {@code maintenance hold -- COMMAND} holds it for exactly as
 * long as the command runs ({@link CommandHold}, decision 0036).
 */
@Command(
        name = "maintenance",
        mixinStandardHelpOptions = true,
        resourceBundle = "dev.punctual.cli.control.OperatorTextHelp",
        description = {
            "Turns maintenance on (every lock group held, jobs skip) or off, or holds it while a command runs.",
            "  maintenance hold --reason TEXT [--wait D] [--lapse D] -- COMMAND [ARGS...]",
            "takes every group as on does, runs the command, renews the hold while it runs and gives it back"
                    + " when it ends, passing its exit status through (128+N for signal N, 127 when it cannot"
                    + " start, 75 when it succeeded but the hold was lost under it). A holder killed outright"
                    + " holds the stage at most --lapse after its last renewal."
        })
public final class MaintenanceCommand implements Callable<Integer> {

    /** How hold is typed, for every refusal of a command not after {@code --}. */
    static final String HOLD_USAGE = "maintenance hold --reason TEXT [options] -- COMMAND [ARGS...]";

    /**
     * A hold's command given without {@code --} whose own option picocli met first ({@code hold --reason x
     * ls -la}): the mistake is the missing {@code --}, not an unknown {@code -la}, so that is what is said;
     * null for any other command line.
     */
    public static String commandWithoutSeparator(String unmatched, String... args) {
        List<String> given = List.of(args);
        if (given.indexOf("maintenance") != 0 || !given.contains("hold") || given.contains("--")) {
            return null;
        }
        return "COMMAND: goes after --, with its options ('" + unmatched + "' is not an option of hold), so that"
                + " none of them is taken for hold's; accepted: " + HOLD_USAGE;
    }

    private static final Duration POLL = Duration.ofMillis(500);

    /** Long enough to wait out entity runs (15m and the skew tolerance); a dead holder's hold is bounded by it. */
    private static final Duration MAX_HOLD_WAIT = Duration.ofMinutes(20);

    private final Clock clock;
    private final CliContext context;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    StageOptions stage;

    @Mixin
    OutputOptions output;

    @Parameters(
            index = "0",
            paramLabel = "on|off|hold",
            description = "on, off, or hold (with -- COMMAND)",
            completionCandidates = Completions.MaintenanceStates.class)
    String state;

    @Parameters(
            index = "1..*",
            arity = "0..*",
            paramLabel = "COMMAND",
            description = "With hold, after --: the command to run under the hold, and its arguments")
    List<String> command = List.of();

    @Option(
            names = "--conflict-exit",
            paramLabel = "CODE",
            description = "With hold: exit with CODE (1-255) when the hold is not taken and the command did not run"
                    + " (another hold in force, or jobs still running after --wait), as flock -E does; without it"
                    + " 2 or 1")
    Integer conflictExit;

    @Option(
            names = "--lapse",
            paramLabel = "DURATION",
            description = "With hold: how long the hold outlives its last renewal if this CLI is killed outright"
                    + " (default 2m; accepted: 30s to 15m)")
    String lapse;

    @Mixin
    OperatorReason.Optional reason;

    @Option(
            names = "--for",
            paramLabel = "DURATION",
            description = "How long it holds unless turned off (required with on), e.g. 2h")
    String duration;

    @Mixin
    OperatorWho by;

    @Option(
            names = "--force",
            description = "With on: replace a hold someone else set that is in force (your own --by is replaced"
                    + " without it). With off: lift holds set by someone else too")
    boolean force;

    @Option(
            names = "--wait",
            paramLabel = "DURATION",
            defaultValue = "30s",
            description = "How long to wait for running jobs (default ${DEFAULT-VALUE})")
    String wait;

    /** A test's catalog, run in this JVM instead of the one this CLI was built with; null for that one. */
    private final JobCatalog ownCatalog;

    public MaintenanceCommand(CliContext context) {
        this(context, null);
    }

    /** @param ownCatalog a test's catalog (a stage with a per-entity job, say); null for this build's */
    public MaintenanceCommand(CliContext context, JobCatalog ownCatalog) {
        this.context = context;
        this.clock = context.clock();
        this.ownCatalog = ownCatalog;
    }

    @Override
    public Integer call() throws JsonProcessingException {
        if (!state.equals("hold") && (!command.isEmpty() || lapse != null || conflictExit != null)) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    (lapse != null
                                    ? "--lapse"
                                    : conflictExit != null
                                            ? "--conflict-exit"
                                            : "COMMAND '" + String.join(" ", command) + "'")
                            + ": goes with hold only; accepted: maintenance hold --reason TEXT [--lapse D] -- COMMAND");
        }
        return switch (state) {
            case "on" -> on();
            case "off" -> off();
            case "hold" -> hold();
            default ->
                throw new CommandLine.ParameterException(
                        spec.commandLine(), "on|off|hold: '" + state + "' is not accepted; accepted: on, off or hold");
        };
    }

    private int on() throws JsonProcessingException {
        boolean noReason = reason.typed() == null || reason.typed().isBlank();
        if (noReason || duration == null) {
            // Name only what is missing: "--reason missing" after a --reason was given sends people in circles.
            String missing = noReason && duration == null ? "--reason, --for" : noReason ? "--reason" : "--for";
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    missing + ": required with on; accepted: --reason TEXT --for DURATION, e.g."
                            + " --reason 'loading data' --for 2h");
        }
        Duration holdFor = DurationArgument.parse(spec.commandLine(), "--for", duration);
        Duration maxWait = DurationArgument.parse(spec.commandLine(), "--wait", wait);
        if (holdFor.isNegative() || holdFor.isZero() || holdFor.compareTo(Duration.ofDays(7)) > 0) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--for: '" + duration + "' is out of range; accepted: more than 0, at most 7d");
        }
        String why = reason.checked();
        String who = by.who();
        try (OperatorSession session = new OperatorSession(stage, context, line -> {}, false, ownCatalog)) {
            session.withClockWithin(tolerance()).withTables();
            // The hold redacts its reason, so what is stored, printed and recorded in each skip is the same.
            MaintenanceRequest request = new MaintenanceRequest(
                            session.catalog.lockItems(),
                            new MaintenanceHold(why, who, clock.instant().plus(holdFor)),
                            maxWait,
                            POLL)
                    // Entities with their own leases: waited out by their term (decision 0029, 5).
                    .withEntityLeases(EntityLeaseTerms.of(session.catalog, tolerance()));
            // The ledger refuses another operator's hold in force in the write that takes each group, so
            // of operators turning it on at once exactly one is told it holds; the same --by replaces its own.
            MaintenanceReport report =
                    session.runtime.services().ledger().maintenanceOn(force ? request.forced() : request);
            if (report.refused().isPresent()) {
                MaintenanceRefused refused = report.refused().get();
                throw new OperatorInputException("on: maintenance is already on: "
                        + described(refused.group(), refused.hold()) + "; accepted: wait until it ends,"
                        + " maintenance off --by " + refused.hold().shownSetBy() + ", or --force to replace the hold");
            }
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("maintenance", report.complete() ? "on" : "partly on");
            out.put("stage", stage.stageName());
            out.put("reason", report.hold().reason());
            out.put("set_by", who);
            out.put("until", report.hold().until().toString());
            out.put("groups_taken", report.taken().stream().map(Lease::group).toList());
            out.put(
                    "still_running",
                    report.stillRunning().stream()
                            .map(b -> Map.of(
                                    "group",
                                    b.group(),
                                    "holder",
                                    b.holder(),
                                    "until",
                                    b.until().toString()))
                            .toList());
            spec.commandLine()
                    .getOut()
                    .println(output.isJson() ? Json.mapper().writeValueAsString(out) : readableOn(out));
            if (!report.complete()) {
                spec.commandLine()
                        .getErr()
                        .println("maintenance: still running after " + wait + ": "
                                + report.stillRunning().stream()
                                        .map(b -> b.group() + " (" + b.holder() + ")")
                                        .toList()
                                + "; groups whose jobs are still running are not held, groups waiting out entity"
                                + " runs are held already and refuse new ones: wait and run maintenance on again"
                                + " (its wait for entity runs keeps counting from the first), or off");
                return ExitCodes.FAILURE;
            }
            return 0;
        }
    }

    private int hold() {
        if (reason.typed() == null || reason.typed().isBlank() || command.isEmpty()) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    (command.isEmpty() ? "COMMAND" : "--reason") + ": required with hold; accepted: maintenance"
                            + " hold --reason TEXT [--wait D] [--lapse D] -- COMMAND [ARGS...], e.g. --reason"
                            + " 'loading members' -- ./load.sh");
        }
        if (duration != null || force) {
            // A hold lasts as long as its command; replacing another operator's hold under a running tool is
            // what maintenance on --force is for, not something a script should do on its own.
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    (duration != null ? "--for" : "--force") + ": not an option of hold (it holds for as long as"
                            + " its command runs); accepted: --reason, --by, --wait, --lapse");
        }
        List<String> original = spec.commandLine().getParseResult().originalArgs();
        int separator = original.indexOf("--");
        if (separator < 0 || !original.subList(separator + 1, original.size()).equals(command)) {
            // Without it, an option of the command (--region, --output, --wait) would be taken for hold's.
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "COMMAND '" + String.join(" ", command) + "': goes after --, so that none of its options is"
                            + " taken for hold's; accepted: " + HOLD_USAGE);
        }
        if (conflictExit != null && (conflictExit < 1 || conflictExit > 255)) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--conflict-exit: '" + conflictExit + "' is out of range; accepted: 1-255");
        }
        Duration maxWait = DurationArgument.parse(spec.commandLine(), "--wait", wait);
        if (maxWait.compareTo(MAX_HOLD_WAIT) > 0) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "--wait: '" + wait + "' is out of range for hold; accepted: at most 20m (a holder that dies while"
                            + " it waits holds the stage for its wait and one lapse)");
        }
        Duration holdLapse =
                lapse == null ? HoldTerms.DEFAULT_LAPSE : DurationArgument.parse(spec.commandLine(), "--lapse", lapse);
        if (holdLapse.compareTo(HoldTerms.MIN_LAPSE) < 0 || holdLapse.compareTo(HoldTerms.MAX_LAPSE) > 0) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--lapse: '" + lapse + "' is out of range; accepted: 30s to 15m");
        }
        String why = reason.checked();
        String who = by.who();
        try (OperatorSession session = new OperatorSession(stage, context, line -> {}, false, ownCatalog)) {
            session.withClockWithin(tolerance()).withTables();
            HoldTerms terms = HoldTerms.of(session.catalog.lockItems(), why, who)
                    .forCommand(CommandHold.commandLine(command))
                    .lapsingAfter(holdLapse)
                    .waitingAtMost(maxWait, POLL)
                    .withEntityLeases(EntityLeaseTerms.of(session.catalog, tolerance()));
            return new CommandHold(
                            session.runtime.services().ledger(),
                            clock,
                            spec.commandLine().getErr(),
                            java.util.Optional.ofNullable(conflictExit))
                    .run(terms, command, stage.stageName());
        }
    }

    /** The stage's configured skew tolerance (this build's Stages.java), as a run in this JVM takes it. */
    private Duration tolerance() {
        return dev.punctual.infra.Stages.configuredSkewTolerance(stage.stageName())
                .orElse(dev.punctual.ledger.Lease.DEADLINE_MARGIN);
    }

    private int off() throws JsonProcessingException {
        // off lifts a hold; it has no reason or length to record, and ignoring them would hide a mix-up
        // (an "off" typed where "on" was meant).
        if (reason.typed() != null || duration != null) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    (reason.typed() != null ? "--reason" : "--for") + ": not an option of off; accepted: off [--by WHO]"
                            + " [--force] (--reason and --for go with on)");
        }
        String who = by.who();
        try (OperatorSession session = new OperatorSession(stage, context, line -> {}, false, ownCatalog)) {
            session.withClockWithin(tolerance()).withTables();
            List<String> others = holds(session, hold -> !hold.setBy().equals(who));
            if (!others.isEmpty() && !force) {
                throw new OperatorInputException("off: the hold was set by someone else: " + others
                        + "; accepted: --by <who set it>, or --force to lift it anyway");
            }
            // Without --force the lift itself is conditional on the setter, not only the check above.
            List<String> lifted = session.runtime
                    .services()
                    .ledger()
                    .maintenanceOff(session.catalog.lockItems(), force ? Optional.empty() : Optional.of(who));
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("maintenance", "off");
            out.put("stage", stage.stageName());
            out.put("groups_lifted", lifted);
            spec.commandLine()
                    .getOut()
                    .println(
                            output.isJson()
                                    ? Json.mapper().writeValueAsString(out)
                                    : "maintenance off in stage " + stage.stageName() + "; groups lifted: "
                                            + (lifted.isEmpty() ? "none" : String.join(", ", lifted)));
            return 0;
        }
    }

    /** {@code maintenance on} for people: the hold, until when (and how long from now), the groups. */
    @SuppressWarnings("unchecked")
    private String readableOn(Map<String, Object> out) {
        java.time.Instant until = java.time.Instant.parse((String) out.get("until"));
        return "maintenance " + out.get("maintenance") + " in stage " + out.get("stage") + " until " + until + " ("
                + RelativeTime.from(clock.instant(), until) + "), set by " + out.get("set_by") + ": "
                + out.get("reason") + "\ngroups held: " + String.join(", ", (List<String>) out.get("groups_taken"));
    }

    /** The groups under maintenance whose hold matches, each with who set it, why and until when. */
    private static List<String> holds(OperatorSession session, Predicate<MaintenanceHold> which) {
        return session.catalog.lockItems().stream()
                .flatMap(group -> session.runtime.services().ledger().maintenance(group).stream()
                        .filter(which)
                        .map(hold -> described(group, hold)))
                .toList();
    }

    /** A hold on a group: who set it, why and until when, on one line whatever the item holds. */
    private static String described(String group, MaintenanceHold hold) {
        return group + " (" + hold.shown() + ")";
    }
}
