package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.job.EntityJob;
import dev.punctual.job.FunctionPool;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.ledger.dynamodb.LedgerTable;
import dev.punctual.runtime.MissedRunWatchdog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.assertions.Template;

/**
 * The ledger's due index (decision 0031): declared only for a catalog with a per-entity job, keys only,
 * and queried only by the watchdog's pool, on that index only.
 */
class DueIndexTemplateTest {

    private static final FunctionPool BULK = new FunctionPool("bulk", 2048, Duration.ofMinutes(5));

    private static final JobCatalog CATALOG = JobCatalog.of(JobDefinition.builder("tenant-report")
                    .schedule("0 9 * * *", "UTC")
                    .perEntity(EntityJob.parameters("locale"))
                    .pool(BULK)
                    .job(services -> context -> JobResult.empty())
                    .build())
            .plus(List.of(MissedRunWatchdog.definition()));

    private static Map<String, Object> ledger(Template template) {
        return Templates.properties(template, "AWS::DynamoDB::Table").values().stream()
                .filter(t -> String.valueOf(t.get("KeySchema")).contains(LedgerTable.PARTITION_KEY))
                .filter(t -> String.valueOf(t.get("TimeToLiveSpecification")).contains(LedgerTable.TTL_ATTRIBUTE))
                .findFirst()
                .orElseThrow();
    }

    /** Where the stage's templates are left for cfn-lint, which .ci/run runs over them (bash .ci/lint). */
    static final Path LINTED_TEMPLATES = Path.of("target", "due-index-stage");

    @Test
    void aCatalogWithAPerEntityJob_givesTheLedgerTheSparseDueIndex_keysOnly() throws IOException {
        StageStack stage = Synth.stage(Stages.named("dev"), CATALOG);
        Path assembly = Path.of(((App) stage.getNode().getRoot()).synth().getDirectory());
        Files.createDirectories(LINTED_TEMPLATES);
        try (Stream<Path> files = Files.list(assembly)) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".template.json")).toList()) {
                Files.copy(file, LINTED_TEMPLATES.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        Map<String, Object> ledger = ledger(Template.fromStack(stage));

        List<?> indexes = (List<?>) ledger.get("GlobalSecondaryIndexes");
        assertThat(indexes).hasSize(1);
        Map<?, ?> index = (Map<?, ?>) indexes.get(0);
        assertThat(index.get("IndexName")).isEqualTo(LedgerTable.DUE_INDEX);
        assertThat(index.get("KeySchema"))
                .isEqualTo(List.of(
                        Map.of("AttributeName", LedgerTable.DUE_PARTITION_KEY, "KeyType", "HASH"),
                        Map.of("AttributeName", LedgerTable.DUE_SORT_KEY, "KeyType", "RANGE")));
        assertThat(index.get("Projection")).isEqualTo(Map.of("ProjectionType", "KEYS_ONLY"));
        assertThat(String.valueOf(ledger.get("AttributeDefinitions")))
                .contains("AttributeName=" + LedgerTable.DUE_PARTITION_KEY + ", AttributeType=S")
                .contains("AttributeName=" + LedgerTable.DUE_SORT_KEY + ", AttributeType=N");
    }

    @Test
    void aCatalogWithoutPerEntityJobs_keepsTheLedgerWithoutIndexes_andGrantsNoQuery() {
        Template plain = Template.fromStack(Synth.stage("dev"));

        assertThat(ledger(plain)).doesNotContainKey("GlobalSecondaryIndexes");
        assertThat(plain.toJSON().toString()).doesNotContain("/index/" + LedgerTable.DUE_INDEX);
    }

    @Test
    void ofThePoolRoles_onlyTheWatchdogsPool_mayQuery_andOnlyTheDueIndex() {
        Template template = Template.fromStack(Synth.stage(Stages.named("dev"), CATALOG));

        // The operators' policy reads the ledger with Query already (OperatorPolicy); the pools' did not.
        List<String> querying = Templates.properties(template, "AWS::IAM::ManagedPolicy").values().stream()
                .filter(p -> String.valueOf(p.get("Description")).startsWith("Punctual pool "))
                .filter(p -> String.valueOf(p.get("PolicyDocument")).contains("dynamodb:Query"))
                .map(p -> String.valueOf(p.get("Description")))
                .toList();
        assertThat(querying).hasSize(1);
        assertThat(querying.get(0)).contains("pool " + FunctionPool.DEFAULT.name() + ":");
        String document = Templates.properties(template, "AWS::IAM::ManagedPolicy").values().stream()
                .filter(p -> String.valueOf(p.get("Description")).startsWith("Punctual pool "))
                .filter(p -> String.valueOf(p.get("PolicyDocument")).contains("dynamodb:Query"))
                .map(p -> String.valueOf(p.get("PolicyDocument")))
                .findFirst()
                .orElseThrow();
        assertThat(document).contains("/index/" + LedgerTable.DUE_INDEX);
    }
}
