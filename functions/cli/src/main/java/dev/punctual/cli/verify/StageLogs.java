package dev.punctual.cli.verify;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;
import software.amazon.awssdk.services.cloudwatchlogs.model.FilterLogEventsResponse;
import software.amazon.awssdk.services.cloudwatchlogs.model.FilteredLogEvent;

/** Reads the stage's log groups (FilterLogEvents), bounded so a busy stage cannot make verify read forever. */
public final class StageLogs {

    /** One log event: its group, time and text. */
    public record Line(String group, Instant timestamp, String message) {}

    /** At most this many events are read per call, over all groups. */
    public static final int MAX_EVENTS = 10_000;

    private static final int MAX_PAGES = 100;

    private final CloudWatchLogsClient logs;
    private final List<String> groups;

    public StageLogs(CloudWatchLogsClient logs, List<String> groups) {
        this.logs = logs;
        this.groups = List.copyOf(groups);
    }

    public List<String> groups() {
        return groups;
    }

    /** The events since {@code from}, optionally only those matching a CloudWatch filter pattern. */
    public List<Line> since(Instant from, String filterPattern) {
        List<Line> lines = new ArrayList<>();
        for (String group : groups) {
            String token = null;
            int pages = 0;
            boolean more;
            do {
                String next = token;
                FilterLogEventsResponse page = logs.filterLogEvents(r -> {
                    r.logGroupName(group).startTime(from.toEpochMilli()).nextToken(next);
                    if (filterPattern != null) {
                        r.filterPattern(filterPattern);
                    }
                });
                for (FilteredLogEvent event : page.events()) {
                    lines.add(new Line(group, Instant.ofEpochMilli(event.timestamp()), event.message()));
                    if (lines.size() >= MAX_EVENTS) {
                        return lines;
                    }
                }
                token = page.nextToken();
                pages++;
                // Stop on an empty page too: a token with nothing behind it would otherwise loop.
                more = token != null && !token.isEmpty() && !page.events().isEmpty() && pages < MAX_PAGES;
            } while (more);
        }
        return lines;
    }
}
