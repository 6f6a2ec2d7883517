package dev.punctual.cli.verify;

import dev.punctual.cli.insights.SavedQueryException;
import dev.punctual.cli.insights.SavedQueryResult;
import dev.punctual.cli.insights.SavedQueryRunner;
import dev.punctual.ledger.Sleeper;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedMap;

/**
 * Looks for a manual run's outcome line the way an operator would: with the stage's saved query
 * {@value #QUERY} (docs/queries.md; the one the runbook and the alert messages send operators to),
 * narrowed to the run's job, occurrence and trigger, run every {@link #EVERY} until it shows the run's
 * row or the wait has passed, on the CLI's clock and sleeper.
 */
final class OutcomeSearch {

    /** The saved query that shows what happened to a job at an occurrence. */
    static final String QUERY = "job-timeline";

    /** How long to wait between two runs of the query while the line has not arrived. */
    static final Duration EVERY = Duration.ofSeconds(5);

    /** The least a started query is given to complete, even when the wait is nearly over. */
    static final Duration AT_LEAST = Duration.ofSeconds(10);

    private final SavedQueryRunner queries;
    private final Clock clock;
    private final Sleeper sleeper;
    private final Duration wait;

    OutcomeSearch(SavedQueryRunner queries, Clock clock, Sleeper sleeper, Duration wait) {
        this.queries = queries;
        this.clock = clock;
        this.sleeper = sleeper;
        this.wait = wait;
    }

    /** The query's full name, {@code punctual/<stage>/job-timeline}. */
    String query() {
        return queries.fullName(QUERY);
    }

    /**
     * The run's row, or why there is none. A started query may run for what is left of the wait, and at
     * least {@link #AT_LEAST}.
     *
     * @param from when verify began: the query reads from a minute before
     */
    OutcomeLoggedCheck.Search find(RunOutcome run, Instant from) {
        SequencedMap<String, String> filters = new LinkedHashMap<>();
        filters.put("job", run.job());
        filters.put("occurrence", run.occurrence());
        filters.put("trigger", "MANUAL");
        Instant deadline = clock.instant().plus(wait);
        int runs = 0;
        try {
            while (true) {
                SavedQueryResult result = queries.run(
                        QUERY, filters, from.minusSeconds(60), clock.instant(), max(remaining(deadline), AT_LEAST));
                runs++;
                if (result instanceof SavedQueryResult.Missing missing) {
                    return new OutcomeLoggedCheck.Search.QueryMissing(missing.why());
                }
                Optional<Map<String, String>> row = row((SavedQueryResult.Rows) result, run);
                if (row.isPresent()) {
                    return new OutcomeLoggedCheck.Search.Found(row.get());
                }
                if (remaining(deadline).isZero()) {
                    return new OutcomeLoggedCheck.Search.NotFound(runs);
                }
                sleeper.sleep(min(EVERY, remaining(deadline)));
            }
        } catch (SavedQueryException e) {
            return new OutcomeLoggedCheck.Search.QueryFailed(e.getMessage());
        } catch (InterruptedException e) {
            // Stopped (Ctrl-C), not searched to the end: saying "no row" would blame the stage.
            Thread.currentThread().interrupt();
            return new OutcomeLoggedCheck.Search.QueryFailed(
                    "the search was interrupted after " + runs + " run(s) of the query; nothing was concluded");
        }
    }

    /** The query is narrowed to the run already; its row is checked again against what it shows. */
    private static Optional<Map<String, String>> row(SavedQueryResult.Rows rows, RunOutcome run) {
        return rows.rows().stream()
                .filter(r -> run.occurrence().equals(r.get("occurrence")) && "MANUAL".equals(r.get("trigger")))
                .findFirst();
    }

    private Duration remaining(Instant deadline) {
        Duration left = Duration.between(clock.instant(), deadline);
        return left.isNegative() ? Duration.ZERO : left;
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
