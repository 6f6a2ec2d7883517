package dev.punctual.examples;

import static dev.punctual.examples.DemoTable.key;
import static dev.punctual.examples.DemoTable.n;
import static dev.punctual.examples.DemoTable.s;

import dev.punctual.job.Job;
import dev.punctual.job.JobContext;
import dev.punctual.job.JobPreview;
import dev.punctual.job.JobResult;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * One tenant's report for its own local day (a per-entity job, docs/entities.md): keyed by tenant and the
 * occurrence's date in the tenant's zone ({@code tenant-reports / acme#2026-11-30}), so a second run of
 * the same occurrence rewrites the same item, and written under the entity's fence, so a run that lost
 * its lease cannot overwrite a newer one. The tenant's {@code locale} parameter (default {@code en}) is
 * recorded with it.
 */
public final class TenantReportJob implements Job {

    /** The demo table's partition of tenant reports. */
    public static final String TENANT_REPORTS = "tenant-reports";

    private final DemoTable table;

    public TenantReportJob(DemoTable table) {
        this.table = table;
    }

    @Override
    public JobResult run(JobContext context) {
        JobContext.Entity tenant = context.entity()
                .orElseThrow(() -> new IllegalStateException("tenant-report runs per entity: no entity given"));
        String locale = tenant.parameter("locale").orElse("en");
        LocalDate day = context.localOccurrence().toLocalDate();
        int members = table.all(DemoTable.MEMBERS).size();
        Map<String, AttributeValue> item = new HashMap<>(key(TENANT_REPORTS, tenant.id() + "#" + day));
        item.put("tenant", s(tenant.id()));
        item.put("locale", s(locale));
        item.put("members", n(members));
        item.put("occurrence", s(context.occurrence().toString()));
        item.put("fence", n(context.fence()));
        table.dynamo()
                .putItem(b -> b.tableName(table.table())
                        .item(item)
                        .conditionExpression(DemoTable.FENCE_GUARD)
                        .expressionAttributeValues(Map.of(":fence", n(context.fence()))));
        return JobResult.of("tenant", tenant.id(), "date", day.toString(), "locale", locale, "members", members);
    }

    /** One report item per tenant and local day, written or rewritten. */
    @Override
    public Optional<JobPreview> preview(JobContext context) {
        return Optional.of(JobPreview.changes(1));
    }
}
