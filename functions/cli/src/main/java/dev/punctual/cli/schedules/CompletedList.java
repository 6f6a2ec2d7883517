package dev.punctual.cli.schedules;

import dev.punctual.cli.input.OperatorInputException;
import dev.punctual.cli.output.Table;
import dev.punctual.entities.EntitySchedules;
import dev.punctual.entity.EntityScheduleName;
import dev.punctual.ledger.CompletedEntity;
import dev.punctual.ledger.CompletedPage;
import dev.punctual.ledger.CompletedShards;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The completed part of {@code schedules list} (decision 0047): the job's one-time {@code at()} entities
 * whose schedules the scheduler deleted after their delivery (decision 0043), answered from the ledger's
 * completed notes, one page at a time, after the live schedules. An entity that is live again (put anew
 * since) is shown live only, as {@code schedules get} answers it.
 */
final class CompletedList {

    /** Notes read per page unless {@code --completed-limit} says otherwise. */
    static final int DEFAULT_LIMIT = 100;

    static final String SCHEDULE_GONE = "deleted by the scheduler after completion";

    private CompletedList() {}

    /** {@code --completed-limit}: 0 (no ledger read) to the ledger's largest page. */
    static int limit(int given) {
        if (given < 0 || given > CompletedPage.MAX_LIMIT) {
            throw new OperatorInputException("--completed-limit: " + given + " is not accepted; accepted: 0 (list"
                    + " no completed entity) to " + CompletedPage.MAX_LIMIT + " notes read per page (default "
                    + DEFAULT_LIMIT + ")");
        }
        return given;
    }

    /** {@code --completed-after}: a token a previous list printed, else the first page. */
    static CompletedShards.Position from(String token, int limit) {
        if (token == null) {
            return CompletedShards.Position.START;
        }
        if (limit == 0) {
            throw new OperatorInputException("--completed-after: given with --completed-limit 0, which reads no"
                    + " completed entity; accepted: one of the two");
        }
        return CompletedShards.Position.parse(token)
                .orElseThrow(() -> new OperatorInputException("--completed-after: '"
                        + dev.punctual.observability.VisibleText.escaped(token) + "' is not a token schedules list"
                        + " printed; accepted: the NN/ENTITY after 'more completed:' (or completed_next in -o json)"));
    }

    /** The page read, less the entities that are live again. */
    record Rows(List<CompletedEntity> entities, Optional<String> next) {}

    /**
     * One page from the ledger; none with a limit of 0, or on an emulator whose ledger table no command has
     * made yet (so nothing was ever delivered there).
     */
    static Rows read(
            EntitySchedules schedules,
            String job,
            Set<String> live,
            CompletedShards.Position from,
            int limit,
            boolean emulator) {
        if (limit == 0) {
            return new Rows(List.of(), Optional.empty());
        }
        CompletedPage page;
        try {
            page = schedules.completedPage(job, from, limit);
        } catch (RuntimeException e) {
            if (SchedulesCommand.missingTable(e, emulator)) {
                return new Rows(List.of(), Optional.empty());
            }
            throw e;
        }
        return new Rows(
                page.entities().stream().filter(e -> !live.contains(e.entity())).toList(), page.next());
    }

    /** One completed entity as {@code -o json} lists it under {@code completed}. */
    static Map<String, Object> row(CompletedEntity e) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("entity", e.entity());
        row.put("state", "completed");
        row.put("occurrence", e.occurrence().toString());
        row.put("status", e.status().name());
        row.put("completed_at", e.finishedAt().toString());
        row.put("schedule", SCHEDULE_GONE);
        row.put("source", "ledger");
        row.put("name", EntityScheduleName.of(e.job(), e.entity()));
        return row;
    }

    /** The text after the live table: a heading saying where the rows come from, the rows, the next page. */
    static String text(String job, Rows rows) {
        List<String> lines = new ArrayList<>();
        if (!rows.entities().isEmpty()) {
            lines.add("completed (answered from the ledger: one-time at() schedules the scheduler deleted after"
                    + " their delivery):");
            List<String[]> table = new ArrayList<>();
            table.add(new String[] {"ENTITY", "STATE", "OCCURRENCE", "STATUS", "COMPLETED AT", "NAME"});
            for (CompletedEntity e : rows.entities()) {
                table.add(new String[] {
                    e.entity(),
                    "completed",
                    e.occurrence().toString(),
                    e.status().name(),
                    e.finishedAt().toString(),
                    EntityScheduleName.of(e.job(), e.entity())
                });
            }
            lines.add(Table.render(table).stripTrailing());
        }
        rows.next()
                .ifPresent(token -> lines.add("more completed: schedules list " + job + " --completed-after " + token));
        return String.join("\n", lines);
    }
}
