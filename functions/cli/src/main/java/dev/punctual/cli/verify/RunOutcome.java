package dev.punctual.cli.verify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * What the deployed function answered to one manual run: the first occurrence of its JSON result
 * (events/README.md), or why there was none.
 *
 * @param outcome PASS, SKIP or FAIL; {@code INVALID} for a refused payload, {@code ERROR} for a function error
 * @param reason the reason code, e.g. {@code ALREADY_DONE}
 * @param occurrence the occurrence's instant (UTC), or empty
 * @param detail the detail, the error message, or empty
 */
public record RunOutcome(String job, String outcome, String reason, String occurrence, String detail) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public static RunOutcome parse(String job, String response, boolean functionError) {
        JsonNode tree;
        try {
            tree = JSON.readTree(response);
        } catch (IOException e) {
            return new RunOutcome(job, "ERROR", "UNREADABLE", "", "not JSON: " + abbreviate(response));
        }
        if (functionError) {
            return new RunOutcome(
                    job,
                    "ERROR",
                    tree.path("errorType").asText("FUNCTION_ERROR"),
                    "",
                    tree.path("errorMessage").asText());
        }
        if (!"OK".equals(tree.path("status").asText())) {
            JsonNode error = tree.path("error");
            return new RunOutcome(
                    job,
                    "INVALID",
                    error.path("code").asText(),
                    "",
                    error.path("message").asText());
        }
        JsonNode first = tree.path("occurrences").path(0);
        if (first.isMissingNode()) {
            return new RunOutcome(job, "NONE", "", "", "no occurrence in the result");
        }
        return new RunOutcome(
                job,
                first.path("outcome").asText(),
                first.path("reason").asText(),
                first.path("occurrence").asText(),
                first.path("detail").asText(""));
    }

    /** e.g. {@code PASS}, {@code SKIP ALREADY_DONE}, {@code INVALID NOT_DUE: ...}. */
    public String describe() {
        String text = outcome
                + (reason.isEmpty() || outcome.equals("PASS") ? "" : " " + reason)
                + (occurrence.isEmpty() ? "" : " at " + occurrence);
        return detail.isEmpty() || outcome.equals("PASS") ? text : text + " (" + abbreviate(detail) + ")";
    }

    public boolean is(String expectedOutcome, String expectedReason) {
        return outcome.equals(expectedOutcome) && (expectedReason == null || reason.equals(expectedReason));
    }

    private static String abbreviate(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "...";
    }
}
