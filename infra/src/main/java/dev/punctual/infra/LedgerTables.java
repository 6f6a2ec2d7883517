package dev.punctual.infra;

import dev.punctual.job.JobTable;
import dev.punctual.ledger.dynamodb.LedgerTable;
import dev.punctual.stage.StageConfigException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.dynamodb.Attribute;
import software.amazon.awscdk.services.dynamodb.AttributeType;
import software.amazon.awscdk.services.dynamodb.BillingMode;
import software.amazon.awscdk.services.dynamodb.GlobalSecondaryIndexProps;
import software.amazon.awscdk.services.dynamodb.PointInTimeRecoverySpecification;
import software.amazon.awscdk.services.dynamodb.ProjectionType;
import software.amazon.awscdk.services.dynamodb.Table;
import software.amazon.awscdk.services.dynamodb.TableEncryption;
import software.constructs.Construct;

/**
 * The run ledger table (leases, run items, cursors, maintenance; see docs/ledger.md) and each table the
 * catalog's jobs declare ({@link JobTable}), all with the same settings. A declared table's construct
 * id is its declared name, so its CloudFormation logical id ({@code Tables<name><hash>}) depends on the
 * name alone: the example catalog's {@code DemoDomain} keeps the id the hard-coded demo table had.
 */
public final class LedgerTables extends Construct {

    /** Key and TTL attribute names: the ledger adapter's own, defined once in functions. */
    public static final String PARTITION_KEY = LedgerTable.PARTITION_KEY;

    public static final String SORT_KEY = LedgerTable.SORT_KEY;
    public static final String TTL_ATTRIBUTE = LedgerTable.TTL_ATTRIBUTE;

    /** The ledger's construct id; a declared table of this name would collide with it. */
    static final String LEDGER_ID = "Ledger";

    private final Table ledger;
    private final Map<String, Table> declared = new LinkedHashMap<>();

    /** Without the due index: a catalog without per-entity jobs. */
    public LedgerTables(Construct scope, String id, StageConfig config, List<JobTable> jobTables) {
        this(scope, id, config, jobTables, false);
    }

    /**
     * @param dueIndex whether the catalog has a per-entity job: the ledger then gets the sparse due index
     *     (decision 0031), which only entities' lock items enter
     */
    public LedgerTables(Construct scope, String id, StageConfig config, List<JobTable> jobTables, boolean dueIndex) {
        super(scope, id);
        this.ledger = table(
                LEDGER_ID,
                config,
                attribute(PARTITION_KEY, AttributeType.STRING),
                attribute(SORT_KEY, AttributeType.STRING),
                TTL_ATTRIBUTE);
        if (dueIndex) {
            // Keys only: the watchdog needs the entity (the table's key) and the occurrence (the index's
            // sort key), nothing else; an entry is then about 150 bytes, one write unit for each of its moves.
            ledger.addGlobalSecondaryIndex(GlobalSecondaryIndexProps.builder()
                    .indexName(LedgerTable.DUE_INDEX)
                    .partitionKey(attribute(LedgerTable.DUE_PARTITION_KEY, AttributeType.STRING))
                    .sortKey(attribute(LedgerTable.DUE_SORT_KEY, AttributeType.NUMBER))
                    .projectionType(ProjectionType.KEYS_ONLY)
                    .build());
        }
        for (JobTable table : jobTables) {
            if (table.name().equals(LEDGER_ID)) {
                throw new StageConfigException(
                        "table " + table.name() + ".name",
                        table.name(),
                        "a name other than " + LEDGER_ID + " (the run ledger's)");
            }
            Table created = table(
                    table.name(),
                    config,
                    attribute(table.partitionKey()),
                    table.sortKeyIfAny().map(LedgerTables::attribute).orElse(null),
                    table.ttlAttribute());
            table.indexes()
                    .forEach(index -> created.addGlobalSecondaryIndex(GlobalSecondaryIndexProps.builder()
                            .indexName(index.name())
                            .partitionKey(attribute(index.partitionKey()))
                            .sortKey(index.sortKeyIfAny()
                                    .map(LedgerTables::attribute)
                                    .orElse(null))
                            // All attributes: a job reads the same items through an index as through the table.
                            .projectionType(ProjectionType.ALL)
                            .build()));
            declared.put(table.name(), created);
        }
    }

    public Table ledger() {
        return ledger;
    }

    /** The declared tables, by declared name, in the catalog's order. */
    public Map<String, Table> jobTables() {
        return declared;
    }

    /** The declared table of that name, or a fault naming the declared ones. */
    public Table jobTable(String name) {
        Table table = declared.get(name);
        if (table == null) {
            throw new IllegalArgumentException("no declared table " + name + "; declared: " + declared.keySet());
        }
        return table;
    }

    private Table table(String id, StageConfig config, Attribute partitionKey, Attribute sortKey, String ttl) {
        return Table.Builder.create(this, id)
                .partitionKey(partitionKey)
                .sortKey(sortKey)
                // Scheduled jobs are bursty and mostly idle: on-demand costs nothing between runs.
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .encryption(TableEncryption.AWS_MANAGED)
                .pointInTimeRecoverySpecification(PointInTimeRecoverySpecification.builder()
                        .pointInTimeRecoveryEnabled(true)
                        .build())
                // On the ledger TTL only cleans up old run items; lease expiry is always checked in the condition.
                .timeToLiveAttribute(ttl)
                .deletionProtection(config.retainData())
                .removalPolicy(config.retainData() ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY)
                .build();
    }

    private static Attribute attribute(JobTable.Key key) {
        return attribute(
                key.name(),
                switch (key.type()) {
                    case STRING -> AttributeType.STRING;
                    case NUMBER -> AttributeType.NUMBER;
                    case BINARY -> AttributeType.BINARY;
                });
    }

    private static Attribute attribute(String name, AttributeType type) {
        return Attribute.builder().name(name).type(type).build();
    }
}
