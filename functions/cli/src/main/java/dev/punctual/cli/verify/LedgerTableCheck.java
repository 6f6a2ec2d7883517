package dev.punctual.cli.verify;

import dev.punctual.ledger.dynamodb.LedgerTable;
import java.util.ArrayList;
import java.util.List;

/**
 * The ledger table is configured as {@code infra/LedgerTables} declares it: TTL on the ledger's TTL
 * attribute (clean-up of old run items), point-in-time recovery (the restore point of a one-off
 * destructive verification), and deletion protection where the stage retains its data (prod).
 *
 * @param ttlStatus DescribeTimeToLive's status, e.g. {@code ENABLED}
 * @param ttlAttribute the TTL attribute, or null
 * @param pitrStatus point-in-time recovery's status, e.g. {@code ENABLED}
 * @param requireDeletionProtection the stage's {@code retainData}
 */
public record LedgerTableCheck(
        String table,
        String ttlStatus,
        String ttlAttribute,
        String pitrStatus,
        boolean deletionProtection,
        boolean requireDeletionProtection)
        implements Check {

    public static LedgerTableCheck read(StageAws aws, StageInventory deployed, boolean requireDeletionProtection) {
        String table = deployed.ledgerTable();
        var ttl = aws.dynamo().describeTimeToLive(r -> r.tableName(table)).timeToLiveDescription();
        var pitr = aws.dynamo()
                .describeContinuousBackups(r -> r.tableName(table))
                .continuousBackupsDescription()
                .pointInTimeRecoveryDescription();
        Boolean protection =
                aws.dynamo().describeTable(r -> r.tableName(table)).table().deletionProtectionEnabled();
        return new LedgerTableCheck(
                table,
                ttl.timeToLiveStatusAsString(),
                ttl.attributeName(),
                pitr == null ? "DISABLED" : pitr.pointInTimeRecoveryStatusAsString(),
                Boolean.TRUE.equals(protection),
                requireDeletionProtection);
    }

    @Override
    public String name() {
        return "ledger-table";
    }

    @Override
    public CheckResult result() {
        String checked = "ledger table " + table + " has TTL on " + LedgerTable.TTL_ATTRIBUTE
                + ", point-in-time recovery" + (requireDeletionProtection ? " and deletion protection" : "");
        String seen = "TTL " + ttlStatus + (ttlAttribute == null ? "" : " on " + ttlAttribute) + ", PITR " + pitrStatus
                + ", deletion protection " + (deletionProtection ? "on" : "off");
        List<String> missing = new ArrayList<>();
        if (!"ENABLED".equals(ttlStatus) || !LedgerTable.TTL_ATTRIBUTE.equals(ttlAttribute)) {
            missing.add("TTL on " + LedgerTable.TTL_ATTRIBUTE);
        }
        if (!"ENABLED".equals(pitrStatus)) {
            missing.add("point-in-time recovery");
        }
        if (requireDeletionProtection && !deletionProtection) {
            missing.add("deletion protection");
        }
        if (missing.isEmpty()) {
            return CheckResult.pass(name(), checked, seen);
        }
        return CheckResult.fail(
                name(),
                checked,
                seen,
                "missing " + String.join(", ", missing) + ": deploy the stage again (cdk deploy); without a restore"
                        + " point do not run destructive jobs");
    }
}
