package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.punctual.catchup.CatchUpMode;
import dev.punctual.catchup.CatchUpPolicy;
import dev.punctual.events.LifecycleEvent;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.json.Json;
import dev.punctual.observability.Redactor;
import dev.punctual.runtime.MissedRunWatchdog;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

/**
 * The stage's lifecycle rule, as synthesised, against the events the runtime really emits: a run that
 * failed after its last attempt, occurrences given up as missed and an overdue occurrence each produce
 * exactly one matching event, and nothing else the runtime emits on the way matches. Each matched event
 * has every field the notice's input transformer reads.
 */
class LifecycleAlertsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-11-30T14:00:00Z");

    private static JsonNode pattern;
    private static Map<String, Object> transformer;

    private InMemoryStage stage;

    @BeforeAll
    static void synth() {
        Template template = Template.fromStack(Synth.stage("dev"));
        Map<String, Map<String, Object>> rules = Templates.properties(template, "AWS::Events::Rule");
        Map<String, Object> rule = rules.values().stream()
                .filter(r -> r.toString().contains("needs_attention"))
                .findFirst()
                .orElseThrow();
        pattern = JSON.valueToTree(rule.get("EventPattern"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> targets = (List<Map<String, Object>>) rule.get("Targets");
        @SuppressWarnings("unchecked")
        Map<String, Object> input = (Map<String, Object>) targets.get(0).get("InputTransformer");
        transformer = input;
    }

    private void stage(JobDefinition... jobs) {
        stage = new InMemoryStage(T0, jobs);
    }

    private void deliver(String job, Instant at, int attempt) {
        stage.deliver(job, at, attempt);
    }

    /** The event as EventBridge sees it: the envelope's source and detail-type, the detail as JSON. */
    private static JsonNode envelope(LifecycleEvent event) throws Exception {
        ObjectNode node = JSON.createObjectNode();
        node.put("source", LifecycleEvent.SOURCE);
        node.put("detail-type", event.detailType());
        node.put("account", "123456789012");
        node.put("region", "us-east-1");
        node.set("detail", JSON.readTree(Json.write(Redactor.standard().fields(event.detail()))));
        return node;
    }

    private List<JsonNode> matched() throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (LifecycleEvent event : stage.events) {
            JsonNode envelope = envelope(event);
            if (EventPatternMatcher.matches(pattern, envelope)) {
                out.add(envelope);
            }
        }
        return out;
    }

    @Test
    void runFailedAfterItsLastAttempt_producesExactlyOneMatchedEvent_notOnePerAttempt() throws Exception {
        stage(JobDefinition.builder("boom")
                .schedule("0 9 * * *", "America/New_York")
                .maxAttempts(2)
                .job(s -> ctx -> {
                    throw new IllegalStateException("no connection");
                })
                .build());

        deliver("boom", T0, 1);
        deliver("boom", T0, 2);

        assertThat(stage.events)
                .filteredOn(LifecycleEvent.RunFailed.class::isInstance)
                .hasSize(2);
        assertThat(matched()).singleElement().satisfies(e -> {
            assertThat(e.get("detail-type").asText()).isEqualTo("Punctual Run Failed");
            assertThat(e.at("/detail/attempts").asText()).isEqualTo("2 of 2");
            assertThat(e.at("/detail/occurrence_local").asText())
                    .isEqualTo("2026-11-30T09:00:00-05:00 America/New_York");
            assertEveryTransformerPathResolves(e);
        });
    }

    @Test
    void occurrencesGivenUpAsMissed_produceExactlyOneMatchedEvent() throws Exception {
        stage(JobDefinition.builder("tick")
                .schedule("*/15 * * * *", "UTC")
                .catchUp(new CatchUpPolicy(1, Duration.ofHours(1), CatchUpMode.OLDEST_FIRST))
                .job(s -> ctx -> JobResult.empty())
                .build());

        deliver("tick", T0, 1);
        deliver("tick", T0.plus(Duration.ofHours(3)), 1);

        assertThat(stage.events)
                .filteredOn(LifecycleEvent.RunSucceeded.class::isInstance)
                .isNotEmpty();
        assertThat(matched()).singleElement().satisfies(e -> {
            assertThat(e.get("detail-type").asText()).isEqualTo("Punctual Occurrences Missed");
            assertThat(e.at("/detail/job").asText()).isEqualTo("tick");
            assertEveryTransformerPathResolves(e);
        });
    }

    @Test
    void occurrenceNeverDelivered_producesExactlyOneMatchedOverdueEvent() throws Exception {
        stage(JobDefinition.builder("report")
                .schedule("0 9 * * *", "America/New_York")
                .job(s -> ctx -> JobResult.empty())
                .build());
        deliver("report", T0, 1);

        for (Instant at = T0.plus(Duration.ofMinutes(67));
                at.isBefore(T0.plus(Duration.ofHours(30)));
                at = at.plus(Duration.ofHours(1))) {
            deliver(MissedRunWatchdog.ID, at, 1);
        }

        assertThat(matched()).singleElement().satisfies(e -> {
            assertThat(e.get("detail-type").asText()).isEqualTo("Punctual Occurrence Overdue");
            assertThat(e.at("/detail/occurrence").asText()).isEqualTo("2026-12-01T14:00:00Z");
            assertEveryTransformerPathResolves(e);
        });
    }

    @Test
    void notice_namesStageJobOccurrenceReasonAttemptsAndTheSavedQuery() {
        String template = transformer.get("InputTemplate").toString();

        assertThat(template)
                .contains(
                        "Punctual dev: <detail-type>",
                        "Job <detail-job>",
                        "<detail-occurrence_local> (<detail-occurrence> UTC)",
                        "reason <detail-reason>",
                        "attempts <detail-attempts>",
                        "punctual/dev/job-timeline");
    }

    /** Every JSONPath of the transformer's InputPathsMap names a field the event has. */
    private static void assertEveryTransformerPathResolves(JsonNode event) {
        @SuppressWarnings("unchecked")
        Map<String, String> paths = (Map<String, String>) transformer.get("InputPathsMap");
        assertThat(paths).isNotEmpty();
        Pattern step = Pattern.compile("[^.$]+");
        paths.forEach((name, path) -> {
            JsonNode node = event;
            Matcher m = step.matcher(path);
            while (m.find()) {
                node = node.path(m.group());
            }
            assertThat(node.isMissingNode() || node.isNull())
                    .as("%s (%s) in %s", name, path, event)
                    .isFalse();
        });
    }
}
