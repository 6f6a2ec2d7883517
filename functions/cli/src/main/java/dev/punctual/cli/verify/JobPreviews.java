package dev.punctual.cli.verify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobPreview;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The dry-run counts ({@code Job#preview}) of the delivering and destructive jobs at the latest
 * occurrence due, computed by the deployed function: a {@code run} payload with {@code dryRun}
 * (events/README.md) through the pool's {@code live} alias, as {@code punctual run --dry-run} sends it. The
 * function reads the jobs' tables with its own role, so the operator needs no read on them (the operator
 * policy grants none), and the counts are the deployed code's, against the stage's data. A dry run claims,
 * writes and sends nothing.
 */
public final class JobPreviews {

    private static final ObjectMapper JSON = new ObjectMapper();

    private JobPreviews() {}

    /** Each delivering or destructive job's preview, or why there is none, by job id. */
    public static Map<String, DryRunCountsCheck.Preview> read(StageInvoker invoker, JobCatalog definitions) {
        Map<String, DryRunCountsCheck.Preview> previews = new LinkedHashMap<>();
        for (JobDefinition definition : definitions.jobs()) {
            if (definition.destructive() || definition.externalDelivery()) {
                previews.put(definition.id(), invoker.preview(definition));
            }
        }
        return previews;
    }

    /**
     * The function's answer to a dry run (events/README.md, "Result"): its one occurrence, {@code SKIP
     * DRY_RUN} with a {@code preview} object, or, without one, the detail saying why (the job cannot
     * count, or its preview failed).
     */
    public static DryRunCountsCheck.Preview parse(String response, boolean functionError) {
        JsonNode tree;
        try {
            tree = JSON.readTree(response);
        } catch (IOException e) {
            return DryRunCountsCheck.Preview.error("the function's answer is not JSON");
        }
        if (functionError) {
            return DryRunCountsCheck.Preview.error(
                    "the function failed: " + tree.path("errorType").asText("error") + ": "
                            + tree.path("errorMessage").asText());
        }
        if (!"OK".equals(tree.path("status").asText())) {
            JsonNode error = tree.path("error");
            return DryRunCountsCheck.Preview.error("the function refused the dry run: "
                    + error.path("code").asText() + ": " + error.path("message").asText());
        }
        JsonNode first = tree.path("occurrences").path(0);
        if (first.isMissingNode()) {
            return DryRunCountsCheck.Preview.error("the function's answer has no occurrence");
        }
        if (!"DRY_RUN".equals(first.path("reason").asText())) {
            return DryRunCountsCheck.Preview.error(
                    "not a dry run: " + first.path("outcome").asText() + " "
                            + first.path("reason").asText() + " ("
                            + first.path("detail").asText() + ")");
        }
        JsonNode counts = first.path("preview");
        if (!counts.isObject()) {
            return DryRunCountsCheck.Preview.error(first.path("detail").asText("the job cannot tell (no preview)"));
        }
        Instant occurrence;
        try {
            occurrence = Instant.parse(first.path("occurrence").asText());
        } catch (DateTimeParseException e) {
            return DryRunCountsCheck.Preview.error("the function's answer has no occurrence time");
        }
        return DryRunCountsCheck.Preview.of(
                occurrence,
                new JobPreview(
                        counts.path("changes").asLong(),
                        counts.path("deliveries").asLong(),
                        counts.path("deletions").asLong()));
    }
}
