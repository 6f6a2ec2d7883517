package dev.punctual.infra;

import dev.punctual.ledger.dynamodb.LedgerTable;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.dynamodb.Attribute;
import software.amazon.awscdk.services.dynamodb.AttributeType;
import software.amazon.awscdk.services.dynamodb.BillingMode;
import software.amazon.awscdk.services.dynamodb.PointInTimeRecoverySpecification;
import software.amazon.awscdk.services.dynamodb.Table;
import software.amazon.awscdk.services.dynamodb.TableEncryption;
import software.constructs.Construct;

/**
 * The run ledger table (leases, run items, cursors, maintenance; see docs/ledger.md) and the demo
 * domain table the example jobs write to. Both use the single-table key shape {@code pk}/{@code sk}.
 */
public final class LedgerTables extends Construct {

    /** Key and TTL attribute names: the ledger adapter's own, defined once in functions. */
    public static final String PARTITION_KEY = LedgerTable.PARTITION_KEY;

    public static final String SORT_KEY = LedgerTable.SORT_KEY;
    public static final String TTL_ATTRIBUTE = LedgerTable.TTL_ATTRIBUTE;

    private final Table ledger;
    private final Table domain;

    public LedgerTables(Construct scope, String id, StageConfig config) {
        super(scope, id);
        this.ledger = table("Ledger", config, TTL_ATTRIBUTE);
        this.domain = table("DemoDomain", config, null);
    }

    public Table ledger() {
        return ledger;
    }

    public Table domain() {
        return domain;
    }

    private Table table(String id, StageConfig config, String ttlAttribute) {
        return Table.Builder.create(this, id)
                .partitionKey(attribute(PARTITION_KEY))
                .sortKey(attribute(SORT_KEY))
                // Scheduled jobs are bursty and mostly idle: on-demand costs nothing between runs.
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .encryption(TableEncryption.AWS_MANAGED)
                .pointInTimeRecoverySpecification(PointInTimeRecoverySpecification.builder()
                        .pointInTimeRecoveryEnabled(true)
                        .build())
                // TTL only cleans up old run items; lease expiry is always checked in the condition.
                .timeToLiveAttribute(ttlAttribute)
                .deletionProtection(config.retainData())
                .removalPolicy(config.retainData() ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY)
                .build();
    }

    private static Attribute attribute(String name) {
        return Attribute.builder().name(name).type(AttributeType.STRING).build();
    }
}
