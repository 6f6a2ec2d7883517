package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.fixtures.FixtureCatalog;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.observability.Redactor;
import dev.punctual.observability.StructuredLog;
import dev.punctual.outcome.OccurrenceOutcome;
import dev.punctual.outcome.OutcomeLog;
import dev.punctual.outcome.Reason;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Each saved query reads only fields an outcome line written by the runtime really has, and a stage
 * saves the queries docs/queries.md shows, its job-timeline for a job of its own catalog.
 */
class SavedQueriesTest {

    static final List<SavedQueries.SavedQuery> QUERIES = SavedQueries.ALL;

    private static final Set<String> LANGUAGE = Set.of(
            "fields", "filter", "sort", "desc", "asc", "limit", "stats", "count", "by", "bin", "and", "or", "not", "as",
            "like", "in", "display", "parse", "dedup", "sum", "avg", "max", "min", "pct");
    private static final Set<String> BUILT_IN = Set.of("@timestamp", "@message", "@logStream", "@log");
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![A-Za-z0-9_@])@?[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern ALIAS = Pattern.compile("\\bas\\s+([A-Za-z_][A-Za-z0-9_]*)");

    @ParameterizedTest
    @FieldSource("QUERIES")
    void query_usesOnlyFieldsOfARealOutcomeLine(SavedQueries.SavedQuery query) throws Exception {
        Set<String> lineFields = fieldsOfARealOutcomeLine();

        assertThat(identifiers(query.query()))
                .as("fields read by %s", query.name())
                .isNotEmpty()
                .allSatisfy(field -> assertThat(lineFields).contains(field));
    }

    @ParameterizedTest
    @FieldSource("QUERIES")
    void query_appearsVerbatimInDocsQueriesMd(SavedQueries.SavedQuery query) throws Exception {
        Path docs = Path.of("..", "docs", "queries.md");

        assertThat(Files.readString(docs)).contains("### " + query.name()).contains(query.query());
    }

    @Test
    void jobTimeline_asAStageSavesIt_namesTheFirstJobOfItsCatalog_andEveryOtherQueryIsAsDocumented() {
        JobCatalog catalog = Synth.CATALOG;
        List<SavedQueries.SavedQuery> saved = SavedQueries.of(catalog);

        assertThat(catalog.jobs().getFirst().id()).isEqualTo(FixtureCatalog.DAILY);
        assertThat(saved)
                .extracting(SavedQueries.SavedQuery::name)
                .containsExactlyElementsOf(
                        QUERIES.stream().map(SavedQueries.SavedQuery::name).toList());
        for (int i = 0; i < saved.size(); i++) {
            SavedQueries.SavedQuery documented = QUERIES.get(i);
            String expected = documented.name().equals(SavedQueries.JOB_TIMELINE)
                    ? documented
                            .query()
                            .replace("job = \"" + SavedQueries.JOB + "\"", "job = \"" + FixtureCatalog.DAILY + "\"")
                    : documented.query();
            assertThat(saved.get(i).query()).as(documented.name()).isEqualTo(expected);
        }
        assertThat(timeline(saved)).contains("and job = \"" + FixtureCatalog.DAILY + "\"\n");
        assertThat(timeline(QUERIES)).contains("and job = \"" + SavedQueries.JOB + "\"\n");
    }

    @Test
    void jobTimeline_ofAnotherCatalog_namesThatCatalogsFirstJob() {
        JobCatalog other = JobCatalog.of(job("export-ledger"), job("rotate-keys"));

        assertThat(timeline(SavedQueries.of(other)))
                .contains("and job = \"export-ledger\"")
                .doesNotContain(FixtureCatalog.DAILY, "rotate-keys", "job = \"" + SavedQueries.JOB + "\"");
    }

    @Test
    void theDevStage_savesEachQueryUnderItsFullName_itsJobTimelineForTheCatalogsFirstJob() {
        Map<String, Map<String, Object>> definitions = Templates.properties(
                software.amazon.awscdk.assertions.Template.fromStack(Synth.stage("dev")), "AWS::Logs::QueryDefinition");
        Map<String, Object> byName = new java.util.LinkedHashMap<>();
        definitions.values().forEach(d -> byName.put((String) d.get("Name"), d.get("QueryString")));

        List<SavedQueries.SavedQuery> expected = SavedQueries.of(Synth.CATALOG);
        assertThat(byName).hasSize(expected.size());
        for (SavedQueries.SavedQuery query : expected) {
            assertThat(byName).containsEntry(SavedQueries.fullName("dev", query), query.query());
        }
        assertThat(byName.get("punctual/dev/" + SavedQueries.JOB_TIMELINE).toString())
                .contains("and job = \"" + FixtureCatalog.DAILY + "\"");
    }

    private static String timeline(List<SavedQueries.SavedQuery> queries) {
        return queries.stream()
                .filter(q -> q.name().equals(SavedQueries.JOB_TIMELINE))
                .findFirst()
                .orElseThrow()
                .query();
    }

    private static JobDefinition job(String id) {
        return JobDefinition.builder(id)
                .schedule("0 6 * * *", "Europe/Berlin")
                .job(s -> ctx -> JobResult.empty())
                .build();
    }

    private static Set<String> identifiers(String query) {
        String withoutStrings = query.replaceAll("\"[^\"]*\"", "\"\"");
        Set<String> aliases = new HashSet<>();
        Matcher alias = ALIAS.matcher(withoutStrings);
        while (alias.find()) {
            aliases.add(alias.group(1));
        }
        Set<String> out = new HashSet<>();
        Matcher m = IDENTIFIER.matcher(withoutStrings);
        while (m.find()) {
            String token = m.group();
            if (!LANGUAGE.contains(token) && !BUILT_IN.contains(token) && !aliases.contains(token)) {
                out.add(token);
            }
        }
        return out;
    }

    private static Set<String> fieldsOfARealOutcomeLine() throws Exception {
        List<String> lines = new ArrayList<>();
        StructuredLog log = new StructuredLog(lines::add, Clock.systemUTC(), "punctual", Redactor.standard())
                .forInvocation("req", false);
        Instant occurrence = Instant.parse("2026-11-29T14:00:00Z");
        OutcomeLog.write(
                log,
                OccurrenceOutcome.of(
                                "dev",
                                FixtureCatalog.DAILY,
                                occurrence,
                                occurrence.atZone(ZoneId.of("America/New_York")),
                                "SCHEDULED",
                                Reason.OK)
                        .attempt(1)
                        .fence(3L)
                        .latenessMs(10)
                        .durationMs(20)
                        .build());
        Set<String> keys = new HashSet<>();
        new ObjectMapper().readTree(lines.get(0)).fieldNames().forEachRemaining(keys::add);
        return keys;
    }
}
