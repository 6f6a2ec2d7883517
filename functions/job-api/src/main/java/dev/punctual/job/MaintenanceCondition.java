package dev.punctual.job;

import dev.punctual.PunctualException;
import dev.punctual.observability.VisibleText;
import java.math.BigDecimal;
import java.util.Objects;
import java.util.Optional;

/**
 * Maintenance driven by the data (issue 23, decision 0036): while the query finds an item, every job of
 * the stage records {@code SKIP MAINTENANCE} with this condition's reason before any work; once it finds
 * none, the next delivery runs and catches up within the job's bounds. A condition that cannot be
 * evaluated (a timeout, access denied) skips too, as {@code MAINTENANCE_UNKNOWN}, and is alarmed: the
 * data that would hold the stage may be there.
 *
 * <p>The query is bounded and cheap by construction: one DynamoDB {@code Query} of one partition of a
 * table the catalog declares (or of one of its indexes), optionally narrowed to sort keys with a prefix,
 * {@code Limit 1}, projecting the partition key only. It is one read request unit per evaluation, once
 * per occurrence run.
 *
 * @param name the condition's name, in skips, {@code status} and the alarm: lower-case letters, digits and
 *     '-', 1-48
 * @param table the table it reads
 * @param index the index it reads instead of the table's own keys, if any
 * @param partitionKeyValue the partition it looks in (of the table's or the index's partition key, a
 *     String or a Number)
 * @param sortKeyPrefix only items whose sort key (a String) starts with this, if given
 * @param reason why the stage is held while it finds an item, recorded in each skip: one line, at most 200
 */
public record MaintenanceCondition(
        String name,
        JobTable table,
        Optional<String> index,
        String partitionKeyValue,
        Optional<String> sortKeyPrefix,
        String reason) {

    private static final String NAME = "[a-z][a-z0-9-]{0,47}";
    private static final int REASON_MAX = 200;

    public MaintenanceCondition {
        check(name != null && name.matches(NAME), name, "name", name, "lower-case letters, digits and '-', 1-48");
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(index, "index");
        Objects.requireNonNull(sortKeyPrefix, "sortKeyPrefix");
        JobTable.Key partitionKey = partitionKeyOf(name, table, index);
        check(
                partitionKeyValue != null && !partitionKeyValue.isEmpty(),
                name,
                "partitionKeyValue",
                partitionKeyValue,
                "a value of " + partitionKey.name());
        check(
                partitionKey.type() != JobTable.AttributeType.BINARY,
                name,
                "partitionKey",
                partitionKey.name(),
                "a String or Number partition key (a Binary one cannot be written in a catalog)");
        check(
                partitionKey.type() != JobTable.AttributeType.NUMBER || isNumber(partitionKeyValue),
                name,
                "partitionKeyValue",
                partitionKeyValue,
                "a number, as " + partitionKey.name() + " is a Number");
        Optional<JobTable.Key> sortKey = sortKeyOf(table, index);
        if (sortKeyPrefix.isPresent()) {
            check(
                    sortKey.map(k -> k.type() == JobTable.AttributeType.STRING).orElse(false),
                    name,
                    "sortKeyPrefix",
                    sortKeyPrefix.get(),
                    "no prefix, as "
                            + (sortKey.isEmpty() ? "the keys have no sort key" : "the sort key is not a String"));
            check(!sortKeyPrefix.get().isEmpty(), name, "sortKeyPrefix", "", "a prefix of at least one character");
        }
        check(
                reason != null
                        && !reason.isBlank()
                        && reason.codePointCount(0, reason.length()) <= REASON_MAX
                        && !VisibleText.hasHidden(reason),
                name,
                "reason",
                reason,
                "one line of at most " + REASON_MAX + " visible characters");
    }

    /**
     * A condition that holds while the table has an item in the partition {@code partitionKeyValue}:
     * for example {@code whileItemsExist("synthetic-members", MEMBERS, "SYNTHETIC", "synthetic member
     * data is loaded")}.
     */
    public static MaintenanceCondition whileItemsExist(
            String name, JobTable table, String partitionKeyValue, String reason) {
        return new MaintenanceCondition(name, table, Optional.empty(), partitionKeyValue, Optional.empty(), reason);
    }

    /** The same condition, reading the table's index {@code indexName} (its partition) instead. */
    public MaintenanceCondition onIndex(String indexName) {
        return new MaintenanceCondition(name, table, Optional.of(indexName), partitionKeyValue, sortKeyPrefix, reason);
    }

    /** The same condition, finding only items whose sort key starts with {@code prefix}. */
    public MaintenanceCondition withSortKeyPrefix(String prefix) {
        return new MaintenanceCondition(name, table, index, partitionKeyValue, Optional.of(prefix), reason);
    }

    /** The partition key the query names: the index's, or the table's. */
    public JobTable.Key partitionKey() {
        return partitionKeyOf(name, table, index);
    }

    /** The sort key the prefix applies to, when a prefix is given. */
    public Optional<JobTable.Key> sortKey() {
        return sortKeyOf(table, index);
    }

    /** {@code condition NAME: REASON}, as a skip records it. */
    public String described() {
        return "condition " + name + ": " + reason;
    }

    private static JobTable.Key partitionKeyOf(String name, JobTable table, Optional<String> index) {
        if (index.isEmpty()) {
            return table.partitionKey();
        }
        return indexOf(name, table, index.get()).partitionKey();
    }

    private static Optional<JobTable.Key> sortKeyOf(JobTable table, Optional<String> index) {
        if (index.isEmpty()) {
            return table.sortKeyIfAny();
        }
        return table.indexes().stream()
                .filter(i -> i.name().equals(index.get()))
                .findFirst()
                .flatMap(JobTable.Index::sortKeyIfAny);
    }

    private static JobTable.Index indexOf(String name, JobTable table, String index) {
        return table.indexes().stream()
                .filter(i -> i.name().equals(index))
                .findFirst()
                .orElseThrow(() -> new PunctualException("maintenance condition " + name + ": index '" + index
                        + "' is not accepted; expected an index of table " + table.name() + ": "
                        + table.indexes().stream().map(JobTable.Index::name).toList()));
    }

    private static boolean isNumber(String value) {
        try {
            new BigDecimal(value);
            return true;
        } catch (NumberFormatException notANumber) {
            return false;
        }
    }

    private static void check(boolean ok, String condition, String field, String given, String accepted) {
        if (!ok) {
            throw new PunctualException("maintenance condition " + condition + ": " + field + " '" + given
                    + "' is not accepted; expected " + accepted);
        }
    }
}
