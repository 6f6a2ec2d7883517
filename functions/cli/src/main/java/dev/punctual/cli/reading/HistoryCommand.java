package dev.punctual.cli.reading;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.punctual.cli.input.Completions;
import dev.punctual.cli.input.InstantArgument;
import dev.punctual.cli.input.OperatorInputException;
import dev.punctual.cli.output.ColumnOptions;
import dev.punctual.cli.output.Json;
import dev.punctual.cli.output.OutputOptions;
import dev.punctual.cli.output.RelativeTime;
import dev.punctual.cli.output.Table;
import dev.punctual.cli.schedules.EntityDelivery;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.cli.stage.OperatorSession;
import dev.punctual.cli.stage.Remote;
import dev.punctual.cli.stage.StageOptions;
import dev.punctual.entity.EntityIds;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.ledger.History;
import dev.punctual.ledger.HistoryQuery;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.Trigger;
import dev.punctual.observability.VisibleText;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code history JOB [--entity E] [--last N | --since T]}: what happened to one job (or one entity of a
 * per-entity job) lately, newest first, from the ledger: each occurrence's outcome, reason, attempts,
 * duration, fence and trigger. One bounded Query and one read of the lock item (docs/cost.md).
 */
@Command(
        name = "history",
        mixinStandardHelpOptions = true,
        description = {
            "Lists a job's last occurrences from the ledger, newest first: outcome, reason, attempts, duration,"
                    + " fence and trigger (schedule, catch-up, replay, operator); a missed range is one row with its"
                    + " count. With --entity, one entity's of a per-entity job, its times in UTC.",
            "Cost: one eventually consistent Query of about ceil(N x item size / 4 KB) x 0.5 read units (run"
                    + " items are about 0.5 KB, so the default 20 rows are about 1.5 read units) and one GetItem"
                    + " (1 unit); at most 500 rows."
        })
public final class HistoryCommand implements Callable<Integer>, ColumnOptions.Tabled {

    /** Every column of the table ({@code -o wide}). */
    static final String[] HEADER = {
        "OCCURRENCE (LOCAL)",
        "OCCURRENCE (UTC)",
        "STATUS",
        "ATTEMPTS",
        "DURATION",
        "FENCE",
        "TRIGGER",
        "FINISHED (UTC)",
        "REASON"
    };

    /** What fits a 120-column terminal: the local time, the outcome and why; -o wide adds UTC, fence and finish. */
    static final List<String> NARROW =
            List.of("occurrence-local", "status", "attempts", "duration", "trigger", "reason");

    /**
     * The most characters of a reason or error the table shows, so the default columns fit a 120-column
     * terminal (25 + 9 + 8 + 8 + 8 + 50 and their gaps); the JSON has them whole.
     */
    private static final int REASON_WIDTH = 50;

    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ISO_OFFSET_DATE_TIME;

    private final CliContext context;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    StageOptions stage;

    @Parameters(
            index = "0",
            paramLabel = "JOB",
            description = "The job",
            completionCandidates = Completions.JobIds.class)
    String job;

    @Mixin
    OutputOptions output;

    @Mixin
    ColumnOptions columns;

    @Option(
            names = "--last",
            paramLabel = "N",
            description =
                    "The last N occurrences, 1 to " + HistoryQuery.MAX + " (default: " + HistoryQuery.DEFAULT + ")")
    Integer last;

    @Option(
            names = "--since",
            paramLabel = "T",
            description = "The occurrences at or after T (ISO-8601 with Z or an offset), at most " + HistoryQuery.MAX
                    + "; not with --last")
    String since;

    @Option(
            names = "--entity",
            paramLabel = "ENTITY",
            description = "With a per-entity JOB (required for one): that entity's history, under its ledger id"
                    + " JOB:ENTITY; refused for a job of one schedule")
    String entity;

    public HistoryCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws JsonProcessingException {
        HistoryQuery query = query();
        PrintWriter out = spec.commandLine().getOut();
        try (OperatorSession session = new OperatorSession(stage, context, line -> {}).withTables()) {
            JobCatalog catalog = session.catalog;
            JobDefinition definition = Remote.known(catalog, job);
            Optional<String> asked = EntityDelivery.asked(catalog, job, Optional.ofNullable(entity), true)
                    .map(Map.Entry::getValue);
            String ledgerId = asked.map(e -> EntityIds.ledgerId(job, e)).orElse(job);
            // An entity's zone is its schedule's, in the stage's entity group, which the operator policy does
            // not let an operator read: its times are shown in UTC.
            ZoneId zone =
                    asked.isPresent() ? ZoneOffset.UTC : definition.schedule().zone();
            History history = session.runtime.services().ledger().history(ledgerId, query);
            Map<String, Object> report = new LinkedHashMap<>();
            report.put("stage", stage.stageName());
            report.put("job", job);
            asked.ifPresent(e -> {
                report.put("entity", e);
                report.put("ledger_id", ledgerId);
            });
            report.put("zone", zone.getId());
            report.put("rows", history.rows().stream().map(r -> row(r, zone)).toList());
            report.put("more", history.more());
            if (output.isJson()) {
                out.println(Json.mapper().writeValueAsString(report));
            } else {
                out.println(Table.render(Table.only(table(report), columns.shown())) + note(history, query));
            }
            out.flush();
            return 0;
        }
    }

    /** The options read and checked before anything connects: one of --last and --since, each in range. */
    private HistoryQuery query() {
        if (last != null && since != null) {
            throw new OperatorInputException(
                    "--last, --since: not together; accepted: --last N (1-" + HistoryQuery.MAX + ") or --since T");
        }
        if (since != null) {
            return HistoryQuery.since(InstantArgument.parse(spec.commandLine(), "--since", since));
        }
        int n = last == null ? HistoryQuery.DEFAULT : last;
        if (n < 1 || n > HistoryQuery.MAX) {
            throw new OperatorInputException("--last: '" + n + "' is out of range; accepted: 1-" + HistoryQuery.MAX);
        }
        return HistoryQuery.last(n);
    }

    /** One occurrence: its times, outcome and why; stored text escaped, in JSON too, as status shows it. */
    static Map<String, Object> row(RunRecord r, ZoneId zone) {
        Map<String, Object> m = new LinkedHashMap<>();
        Instant at = r.key().scheduledTime();
        m.put("occurrence", at.toString());
        m.put("local", LOCAL.format(at.atZone(zone)));
        m.put("status", r.status().name());
        m.put("reason", r.reason() == null ? null : VisibleText.escaped(r.reason()));
        m.put("error", r.errorSummary() == null ? null : VisibleText.escaped(r.errorSummary()));
        m.put("attempts", r.attempts());
        m.put("duration_ms", r.duration().map(Duration::toMillis).orElse(null));
        m.put("fence", r.fence() == 0 ? null : r.fence());
        m.put("trigger", r.trigger() == null ? null : trigger(r.trigger()));
        m.put("started_at", r.startedAt() == null ? null : r.startedAt().toString());
        m.put("finished_at", r.finishedAt() == null ? null : r.finishedAt().toString());
        if (r.missedUntil() != null) {
            m.put("missed_until", r.missedUntil().toString());
            m.put("missed_count", r.missedCount());
        }
        return m;
    }

    /** What started it, in the words an operator uses: the schedule, its catch-up, a replay, an operator. */
    static String trigger(Trigger trigger) {
        return switch (trigger) {
            case SCHEDULED -> "schedule";
            case CATCH_UP -> "catch-up";
            case REPLAY -> "replay";
            case MANUAL -> "operator";
        };
    }

    @SuppressWarnings("unchecked")
    private static List<String[]> table(Map<String, Object> report) {
        List<String[]> lines = new ArrayList<>();
        lines.add(HEADER.clone());
        for (Map<String, Object> r : (List<Map<String, Object>>) report.get("rows")) {
            lines.add(new String[] {
                (String) r.get("local"),
                (String) r.get("occurrence"),
                (String) r.get("status"),
                String.valueOf(r.get("attempts")),
                r.get("duration_ms") == null
                        ? "-"
                        : RelativeTime.readable(Duration.ofMillis((Long) r.get("duration_ms"))),
                r.get("fence") == null ? "-" : String.valueOf(r.get("fence")),
                r.get("trigger") == null ? "-" : (String) r.get("trigger"),
                r.get("finished_at") == null ? "-" : (String) r.get("finished_at"),
                reasonColumn(r)
            });
        }
        return lines;
    }

    /** A missed range's extent; else the reason, else the error, cut to the column's width. */
    private static String reasonColumn(Map<String, Object> r) {
        if (r.containsKey("missed_count")) {
            return r.get("missed_count") + " missed, through " + r.get("missed_until");
        }
        Object text = r.get("reason") != null ? r.get("reason") : r.get("error");
        if (text == null) {
            return "-";
        }
        String s = (String) text;
        return s.length() <= REASON_WIDTH ? s : s.substring(0, REASON_WIDTH - 1) + "…";
    }

    /** Under the table: that the bound cut the list, and how to see more. */
    private static String note(History history, HistoryQuery query) {
        if (history.rows().isEmpty()) {
            return System.lineSeparator() + "no occurrence recorded"
                    + query.from().map(t -> " at or after " + t).orElse("");
        }
        if (!history.more()) {
            return "";
        }
        return System.lineSeparator()
                + (query.from().isPresent()
                        ? "more than " + HistoryQuery.MAX + " occurrences are recorded since then: the oldest of"
                                + " them are not shown"
                        : "older occurrences are recorded: --last N (up to " + HistoryQuery.MAX
                                + ") or --since T shows them");
    }

    @Override
    public String[] header() {
        return HEADER.clone();
    }

    @Override
    public List<String> narrow() {
        return NARROW;
    }

    @Override
    public OutputOptions output() {
        return output;
    }
}
