package dev.punctual.cli.verify;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Verify's lines and summary, as a readable table or one JSON object. */
public record VerifyReport(String stage, boolean activation, List<CheckResult> results) {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public VerifyReport {
        results = List.copyOf(results);
    }

    public long count(CheckStatus status) {
        return results.stream().filter(r -> r.status() == status).count();
    }

    public boolean failed() {
        return count(CheckStatus.FAIL) > 0;
    }

    public String summary() {
        return "verify " + stage + (activation ? " (preflight and activation)" : " (preflight)") + ": "
                + count(CheckStatus.PASS) + " passed, " + count(CheckStatus.WARN) + " warned, "
                + count(CheckStatus.FAIL) + " failed: "
                + (failed()
                        ? "NOT ready; fix each FAIL as its line says and verify again"
                        : activation ? "the stage is active and behaves as its config says" : "ready to activate");
    }

    public String table() {
        int width = results.stream().mapToInt(r -> r.check().length()).max().orElse(5);
        StringBuilder s = new StringBuilder();
        for (CheckResult r : results) {
            s.append(String.format("%-4s  %-" + width + "s  %s: %s", r.status(), r.check(), r.checked(), r.seen()));
            if (!r.action().isEmpty()) {
                s.append(" -> ").append(r.action());
            }
            s.append(System.lineSeparator());
        }
        return s.append(summary()).toString();
    }

    public String json() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("stage", stage);
        out.put("activation", activation);
        out.put("ok", !failed());
        Map<String, Object> counts = new LinkedHashMap<>();
        for (CheckStatus status : CheckStatus.values()) {
            counts.put(status.name().toLowerCase(java.util.Locale.ROOT), count(status));
        }
        out.put("counts", counts);
        out.put("checks", results);
        out.put("summary", summary());
        try {
            return JSON.writeValueAsString(out);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
