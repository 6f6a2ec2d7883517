package dev.punctual.cli.schedules;

import dev.punctual.cli.input.OperatorInputException;
import dev.punctual.cli.input.Suggestions;
import dev.punctual.entity.EntitySchedule;
import dev.punctual.entity.EntityScheduleException;
import dev.punctual.job.JobDefinition;
import dev.punctual.json.Json;
import dev.punctual.observability.VisibleText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An import's file, read whole and checked line by line through {@link EntitySchedule#of} before anything
 * is written: JSON lines (one object per line) or CSV (a header row naming the columns; parameters as a
 * JSON object in one quoted column). Fields: entity, schedule, zone, parameters; any other is refused.
 * Every problem is collected (at most {@value #MAX_PROBLEMS} shown) with its line number and field.
 */
final class ImportFile {

    static final int MAX_PROBLEMS = 20;
    static final List<String> FIELDS = List.of("entity", "schedule", "zone", "parameters");

    private ImportFile() {}

    /**
     * @param now the command's now: each line's schedule must have an occurrence after it (an {@code at()}
     *     in the past, or an expression that matches no date, would never run)
     */
    static List<EntitySchedule> read(Path file, String format, JobDefinition job, java.time.Instant now) {
        String kind = format != null
                ? format
                : file.toString().endsWith(".csv")
                        ? "csv"
                        : file.toString().endsWith(".jsonl") || file.toString().endsWith(".ndjson") ? "jsonl" : null;
        if (kind == null || !(kind.equals("csv") || kind.equals("jsonl"))) {
            throw new OperatorInputException("--format: "
                    + (kind == null
                            ? "not given and FILE's extension is neither" + " .csv nor .jsonl"
                            : "'" + kind + "' is not a format")
                    + "; accepted: csv, jsonl");
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new OperatorInputException(
                    "FILE: cannot read " + file + " (" + e.getMessage() + "); accepted: a readable file");
        }
        List<String> problems = new ArrayList<>();
        List<EntitySchedule> schedules = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        List<String> header = null;
        for (int i = 0; i < lines.size(); i++) {
            int number = i + 1;
            String line = lines.get(i);
            if (line.isBlank()) {
                continue;
            }
            try {
                Map<String, Object> fields;
                if (kind.equals("csv")) {
                    if (header == null) {
                        List<String> columns = csv(line);
                        List<String> named = new ArrayList<>();
                        for (String column : columns) {
                            if (!FIELDS.contains(column)) {
                                throw new OperatorInputException("column '" + VisibleText.escaped(column)
                                        + "': not a field; accepted: " + String.join(", ", FIELDS)
                                        + Suggestions.didYouMean(column, FIELDS));
                            }
                            if (named.contains(column)) {
                                // Which of the two would count is a guess; a header is written once.
                                throw new OperatorInputException("column '" + column + "': named twice (columns "
                                        + (named.indexOf(column) + 1) + " and " + (named.size() + 1)
                                        + "); accepted: each of " + String.join(", ", FIELDS) + " at most once");
                            }
                            named.add(column);
                        }
                        header = columns;
                        continue;
                    }
                    List<String> values = csv(line);
                    if (values.size() != header.size()) {
                        throw new OperatorInputException(values.size() + " values for " + header.size() + " columns");
                    }
                    fields = new LinkedHashMap<>();
                    for (int c = 0; c < header.size(); c++) {
                        String value = values.get(c);
                        if (!value.isEmpty()) {
                            fields.put(header.get(c), header.get(c).equals("parameters") ? json(value) : value);
                        }
                    }
                } else {
                    Object value = json(line);
                    if (!(value instanceof Map<?, ?> map)) {
                        throw new OperatorInputException("not a JSON object; accepted: one object per line");
                    }
                    fields = new LinkedHashMap<>();
                    for (Map.Entry<?, ?> e : map.entrySet()) {
                        String key = String.valueOf(e.getKey());
                        if (!FIELDS.contains(key)) {
                            throw new OperatorInputException("field '" + key + "': not a field; accepted: "
                                    + String.join(", ", FIELDS) + Suggestions.didYouMean(key, FIELDS));
                        }
                        fields.put(key, e.getValue());
                    }
                }
                Object parameters = fields.get("parameters");
                if (parameters != null && !(parameters instanceof Map)) {
                    throw new EntityScheduleException("parameters", "not a JSON object; accepted: {\"key\": value}");
                }
                EntitySchedule s = EntitySchedule.of(
                                job,
                                text("entity", fields.get("entity")),
                                text("schedule", fields.get("schedule")),
                                text("zone", fields.get("zone")),
                                parameters == null ? Map.of() : stringKeyed((Map<?, ?>) parameters))
                        .requireOccurrenceAfter(now);
                Integer first = seen.putIfAbsent(s.entity(), number);
                if (first != null) {
                    throw new EntityScheduleException(
                            "entity",
                            "'" + s.entity() + "' appears on line " + first + " too; accepted: each entity once");
                }
                schedules.add(s);
            } catch (EntityScheduleException | OperatorInputException e) {
                problems.add("line " + number + ": " + e.getMessage());
                if (kind.equals("csv") && header == null) {
                    // Without a header no row can be read: the rows are not checked against a guess.
                    break;
                }
            }
        }
        if (!problems.isEmpty()) {
            List<String> shown = problems.subList(0, Math.min(MAX_PROBLEMS, problems.size()));
            throw new OperatorInputException("FILE: " + problems.size() + " bad line(s), nothing written: "
                    + String.join("; ", shown) + (problems.size() > shown.size() ? "; ..." : ""));
        }
        return schedules;
    }

    /**
     * A field that is text: a JSON line's number, boolean, object or array there is refused naming the
     * field, never turned into text ({@code 42} is not the entity {@code "42"}; write the string).
     */
    private static String text(String field, Object value) {
        if (value == null || value instanceof String) {
            return (String) value;
        }
        String kind = value instanceof Number
                ? "a number"
                : value instanceof Boolean ? "a boolean" : value instanceof Map ? "an object" : "an array";
        String shown = VisibleText.escaped(Json.write(value));
        throw new EntityScheduleException(
                field,
                (shown.length() > 40 ? shown.substring(0, 40) + "..." : shown) + " is " + kind
                        + ", not a string; accepted: a JSON string, e.g. \"" + example(field) + "\"");
    }

    private static String example(String field) {
        return switch (field) {
            case "entity" -> "acme";
            case "zone" -> "Europe/Paris";
            default -> "0 9 * * *";
        };
    }

    private static Map<String, Object> stringKeyed(Map<?, ?> map) {
        Map<String, Object> out = new LinkedHashMap<>();
        map.forEach((k, v) -> out.put(String.valueOf(k), v));
        return out;
    }

    private static Object json(String text) {
        try {
            return Json.read(text);
        } catch (Json.NotJsonException e) {
            throw new OperatorInputException("not JSON (" + e.getMessage() + ")");
        }
    }

    /** One CSV row: comma-separated, a field in double quotes may hold commas and doubled quotes. */
    static List<String> csv(String line) {
        List<String> values = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                values.add(field.toString());
                field.setLength(0);
            } else {
                field.append(c);
            }
        }
        if (quoted) {
            throw new OperatorInputException("column " + (values.size() + 1) + ": an unterminated quote (the field"
                    + " opened at a '\"' has no closing one);"
                    + " accepted: a closing '\"' for each opening one, a quote inside a quoted field doubled"
                    + " (\"\"), one row per line");
        }
        values.add(field.toString());
        return values;
    }
}
