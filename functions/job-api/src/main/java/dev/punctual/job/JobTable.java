package dev.punctual.job;

import dev.punctual.PunctualException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * A DynamoDB table a team's jobs use, declared in their catalog ({@link JobDefinition.Builder#uses}):
 * the CDK app creates it in each stage (on demand, encrypted, point-in-time recovery, retained where the
 * stage retains data), grants the functions of the pools hosting the jobs that use it exactly
 * {@code actions} (on each of its indexes too, for {@code Query} and {@code Scan}), and sets
 * {@code environmentVariable} to its name there. The jobs read the name from
 * that variable ({@link JobEnvironment#require}) and build their own client.
 *
 * @param name the table's logical name, its construct id in the stage stack (so it fixes the table's
 *     CloudFormation logical id: renaming it replaces the table) and its stage output's key ({@code StageOutputs.jobTable})
 * @param environmentVariable where the jobs' functions find the table's physical name
 * @param partitionKey the hash key
 * @param sortKey the range key, or null
 * @param ttlAttribute the attribute DynamoDB expires items by (epoch seconds), or null for none
 * @param actions the DynamoDB actions the jobs call on it, e.g. {@code dynamodb:GetItem}; a grant of
 *     {@code Query} or {@code Scan} covers the table's indexes too
 * @param indexes its global secondary indexes (all attributes projected), in declaration order
 */
public record JobTable(
        String name,
        String environmentVariable,
        Key partitionKey,
        Key sortKey,
        String ttlAttribute,
        List<String> actions,
        List<Index> indexes) {

    /** The item and query actions a job may be granted; table management stays with the CDK. */
    public static final List<String> ACTIONS = List.of(
            "dynamodb:BatchGetItem",
            "dynamodb:BatchWriteItem",
            "dynamodb:ConditionCheckItem",
            "dynamodb:DeleteItem",
            "dynamodb:DescribeTable",
            "dynamodb:GetItem",
            "dynamodb:PutItem",
            "dynamodb:Query",
            "dynamodb:Scan",
            "dynamodb:UpdateItem");

    private static final String NAME = "[A-Z][A-Za-z0-9]{0,47}";
    private static final String VARIABLE = "[A-Z][A-Z0-9_]{0,63}";
    private static final String ATTRIBUTE = "[A-Za-z0-9_.-]{1,255}";
    private static final String INDEX_NAME = "[A-Za-z0-9_.-]{3,255}";

    /** DynamoDB's default quota of global secondary indexes per table. */
    public static final int MAX_INDEXES = 20;

    public JobTable {
        check(
                name != null && name.matches(NAME),
                name,
                "name",
                name,
                "an upper-case letter, then letters and digits, 1-48" + " (a CloudFormation logical id part)");
        check(
                environmentVariable != null
                        && environmentVariable.matches(VARIABLE)
                        && !environmentVariable.startsWith("AWS_"),
                name,
                "environmentVariable",
                environmentVariable,
                "upper-case letters, digits and '_', starting with a letter, not AWS_ (Lambda's own)");
        check(partitionKey != null, name, "partitionKey", "(none)", "a key attribute's name and type");
        check(
                sortKey == null || !sortKey.name().equals(partitionKey.name()),
                name,
                "sortKey",
                sortKey == null ? null : sortKey.name(),
                "an attribute other than the partition key " + partitionKey.name());
        check(
                ttlAttribute == null
                        || (ttlAttribute.matches(ATTRIBUTE) && !isKey(ttlAttribute, partitionKey, sortKey)),
                name,
                "ttlAttribute",
                ttlAttribute,
                "an attribute name (letters, digits, '_', '-', '.') that is not a key");
        Objects.requireNonNull(actions, "actions");
        actions = List.copyOf(actions);
        check(!actions.isEmpty(), name, "actions", "[]", "at least one of " + ACTIONS);
        for (String action : actions) {
            check(ACTIONS.contains(action), name, "actions", action, "one of " + ACTIONS);
        }
        check(new TreeSet<>(actions).size() == actions.size(), name, "actions", actions.toString(), "each action once");
        indexes = List.copyOf(Objects.requireNonNull(indexes, "indexes"));
        checkIndexes(name, partitionKey, sortKey, ttlAttribute, indexes);
    }

    private static void checkIndexes(
            String table, Key partitionKey, Key sortKey, String ttlAttribute, List<Index> indexes) {
        check(
                indexes.size() <= MAX_INDEXES,
                table,
                "indexes",
                String.valueOf(indexes.size()),
                "at most " + MAX_INDEXES + " (DynamoDB's quota of global secondary indexes)");
        Set<String> names = new TreeSet<>();
        Map<String, AttributeType> types = new TreeMap<>();
        types.put(partitionKey.name(), partitionKey.type());
        if (sortKey != null) {
            types.put(sortKey.name(), sortKey.type());
        }
        for (Index index : indexes) {
            check(names.add(index.name()), table, "indexes", index.name(), "each index name once");
            for (Key key : index.keys()) {
                // TTL reads only Number values: an index key of that name would be typed too, and would
                // make TTL skip items written with another type.
                check(
                        !key.name().equals(ttlAttribute),
                        table,
                        "index " + index.name() + " key",
                        key.name(),
                        "an attribute other than the TTL attribute " + ttlAttribute);
                AttributeType declared = types.putIfAbsent(key.name(), key.type());
                check(
                        declared == null || declared == key.type(),
                        table,
                        "index " + index.name() + " key " + key.name(),
                        key.type().name(),
                        declared + ", the type this attribute has elsewhere in the table");
            }
        }
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    public Optional<Key> sortKeyIfAny() {
        return Optional.ofNullable(sortKey);
    }

    /** Its key attributes, the partition key first (as {@link Index#keys()}). */
    public List<Key> keys() {
        return sortKey == null ? List.of(partitionKey) : List.of(partitionKey, sortKey);
    }

    public Optional<String> ttlAttributeIfAny() {
        return Optional.ofNullable(ttlAttribute);
    }

    private static boolean isKey(String attribute, Key partitionKey, Key sortKey) {
        return attribute.equals(partitionKey == null ? null : partitionKey.name())
                || (sortKey != null && attribute.equals(sortKey.name()));
    }

    static void check(boolean ok, String table, String field, String given, String accepted) {
        if (!ok) {
            throw new PunctualException(
                    "table " + table + ": " + field + " '" + given + "' is not accepted; expected " + accepted);
        }
    }

    /** DynamoDB's key attribute types. */
    public enum AttributeType {
        STRING("S"),
        NUMBER("N"),
        BINARY("B");

        private final String code;

        AttributeType(String code) {
            this.code = code;
        }

        /** DynamoDB's one-letter name of the type. */
        public String code() {
            return code;
        }
    }

    /**
     * A key attribute.
     *
     * @param name the attribute's name
     * @param type its type
     */
    public record Key(String name, AttributeType type) {
        public Key {
            if (name == null || !name.matches(ATTRIBUTE)) {
                throw new PunctualException("key attribute name '" + name
                        + "' is not accepted; expected 1-255 letters, digits, '_', '-' or '.'");
            }
            Objects.requireNonNull(type, "type");
        }
    }

    /**
     * A global secondary index, every attribute projected (so a job reads the same items through it).
     *
     * @param name the index's name, 3-255 letters, digits, '_', '-' or '.'
     * @param partitionKey its hash key
     * @param sortKey its range key, or null
     */
    public record Index(String name, Key partitionKey, Key sortKey) {
        public Index {
            if (name == null || !name.matches(INDEX_NAME)) {
                throw new PunctualException(
                        "index name '" + name + "' is not accepted; expected 3-255 letters, digits, '_', '-' or '.'");
            }
            if (partitionKey == null) {
                throw new PunctualException(
                        "index " + name + ": partitionKey is required (a key attribute's name and type)");
            }
            if (sortKey != null && sortKey.name().equals(partitionKey.name())) {
                throw new PunctualException("index " + name + ": sortKey '" + sortKey.name()
                        + "' is not accepted; expected an attribute other than the partition key");
            }
        }

        public Optional<Key> sortKeyIfAny() {
            return Optional.ofNullable(sortKey);
        }

        /** Its key attributes, the partition key first. */
        public List<Key> keys() {
            return sortKey == null ? List.of(partitionKey) : List.of(partitionKey, sortKey);
        }
    }

    /** Fluent construction; {@code environmentVariable}, {@code partitionKey} and {@code actions} are required. */
    public static final class Builder {
        private final String name;
        private String environmentVariable;
        private Key partitionKey;
        private Key sortKey;
        private String ttlAttribute;
        private final List<String> actions = new ArrayList<>();
        private final List<Index> indexes = new ArrayList<>();

        private Builder(String name) {
            this.name = name;
        }

        public Builder environmentVariable(String variable) {
            this.environmentVariable = variable;
            return this;
        }

        public Builder partitionKey(String attribute, AttributeType type) {
            this.partitionKey = new Key(attribute, type);
            return this;
        }

        public Builder sortKey(String attribute, AttributeType type) {
            this.sortKey = new Key(attribute, type);
            return this;
        }

        public Builder ttlAttribute(String attribute) {
            this.ttlAttribute = attribute;
            return this;
        }

        public Builder actions(String... names) {
            actions.addAll(List.of(names));
            return this;
        }

        /** A global secondary index with a partition key only. */
        public Builder globalIndex(String indexName, String partitionAttribute, AttributeType type) {
            indexes.add(ofThisTable(() -> new Index(indexName, new Key(partitionAttribute, type), null)));
            return this;
        }

        /** A global secondary index with a partition and a sort key. */
        public Builder globalIndex(
                String indexName,
                String partitionAttribute,
                AttributeType partitionType,
                String sortAttribute,
                AttributeType sortType) {
            indexes.add(ofThisTable(() -> new Index(
                    indexName, new Key(partitionAttribute, partitionType), new Key(sortAttribute, sortType))));
            return this;
        }

        /** An index refused on its own is refused naming this table too, as every other field is. */
        private Index ofThisTable(Supplier<Index> index) {
            try {
                return index.get();
            } catch (PunctualException e) {
                throw new PunctualException("table " + name + ": " + e.getMessage(), e);
            }
        }

        public JobTable build() {
            return new JobTable(name, environmentVariable, partitionKey, sortKey, ttlAttribute, actions, indexes);
        }
    }
}
