package dev.punctual.cli.insights;

import java.util.List;
import java.util.Map;

/** What running a saved query gave: its rows, or the fact that the stage has no such saved query. */
public sealed interface SavedQueryResult {

    /** The query's full name, {@code punctual/<stage>/<name>}. */
    String query();

    /**
     * The query ran to completion.
     *
     * @param text the text that ran: the saved text, narrowed
     * @param rows each row as field → value in the query's field order, Logs Insights' {@code @ptr} left out
     */
    record Rows(String query, String text, List<Map<String, String>> rows) implements SavedQueryResult {
        public Rows {
            rows = List.copyOf(rows);
        }
    }

    /**
     * The stage has no saved query of that name: its stack names none, or names one that
     * {@code DescribeQueryDefinitions} does not find (deployed by another version, or deleted by hand).
     *
     * @param why which of the two, in words
     */
    record Missing(String query, String why) implements SavedQueryResult {}
}
