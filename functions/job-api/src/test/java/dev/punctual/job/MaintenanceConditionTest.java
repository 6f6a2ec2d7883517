package dev.punctual.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.PunctualException;
import org.junit.jupiter.api.Test;

class MaintenanceConditionTest {

    private static final JobTable MEMBERS = JobTable.builder("Members")
            .environmentVariable("MEMBERS_TABLE")
            .partitionKey("pk", JobTable.AttributeType.STRING)
            .sortKey("sk", JobTable.AttributeType.STRING)
            .globalIndex("by-batch", "batch", JobTable.AttributeType.NUMBER)
            .actions("dynamodb:GetItem")
            .build();

    private static final MaintenanceCondition SYNTHETIC =
            MaintenanceCondition.whileItemsExist("synthetic-members", MEMBERS, "SYNTHETIC", "synthetic data loaded");

    private static JobDefinition job() {
        return JobDefinition.builder("nightly")
                .schedule("0 3 * * *", "Asia/Seoul")
                .job(services -> context -> JobResult.empty())
                .build();
    }

    @Test
    void aCatalogWithACondition_declaresItsTable_andKeepsItThroughItsOtherForms() {
        JobCatalog catalog = JobCatalog.of(job()).withMaintenanceCondition(SYNTHETIC);

        assertThat(catalog.maintenanceConditions()).containsExactly(SYNTHETIC);
        assertThat(catalog.tables()).containsExactly(MEMBERS);
        assertThat(catalog.plus(java.util.List.of()).maintenanceConditions()).containsExactly(SYNTHETIC);
        assertThat(catalog.withBlackout(dev.punctual.time.Blackout.once(
                                java.time.Instant.parse("2026-12-24T00:00:00Z"),
                                java.time.Instant.parse("2026-12-26T00:00:00Z"),
                                "holidays"))
                        .maintenanceConditions())
                .containsExactly(SYNTHETIC);
    }

    @Test
    void twoConditionsOfOneName_areRefused() {
        assertThatThrownBy(() ->
                        JobCatalog.of(job()).withMaintenanceCondition(SYNTHETIC).withMaintenanceCondition(SYNTHETIC))
                .isInstanceOf(PunctualException.class)
                .hasMessageContaining("maintenance condition 'synthetic-members' appears twice");
    }

    @Test
    void aConditionsFields_areCheckedAgainstItsTable_namingTheFieldAndWhatIsAccepted() {
        assertThatThrownBy(() -> MaintenanceCondition.whileItemsExist("Synthetic", MEMBERS, "X", "why"))
                .hasMessageContaining("name 'Synthetic' is not accepted; expected lower-case letters");
        assertThatThrownBy(() -> SYNTHETIC.onIndex("by-tenant"))
                .hasMessageContaining(
                        "index 'by-tenant' is not accepted; expected an index of table Members: [by-batch]");
        assertThatThrownBy(() -> MaintenanceCondition.whileItemsExist("batches", MEMBERS, "seven", "why")
                        .onIndex("by-batch"))
                .hasMessageContaining("partitionKeyValue 'seven' is not accepted; expected a number");
        assertThatThrownBy(() -> MaintenanceCondition.whileItemsExist("batches", MEMBERS, "7", "why")
                        .onIndex("by-batch")
                        .withSortKeyPrefix("x"))
                .hasMessageContaining(
                        "sortKeyPrefix 'x' is not accepted; expected no prefix, as the keys have no sort key");
        assertThatThrownBy(() -> MaintenanceCondition.whileItemsExist("synthetic", MEMBERS, "X", "two\nlines"))
                .hasMessageContaining("reason");
        assertThat(MaintenanceCondition.whileItemsExist("batches", MEMBERS, "7", "why")
                        .onIndex("by-batch")
                        .partitionKey()
                        .name())
                .isEqualTo("batch");
    }
}
