package dev.punctual.infra;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * Records what a DynamoDB client sends, as IAM authorises it: one {@link Access} per item, a
 * transaction's items each on its own (DynamoDB checks PutItem, UpdateItem, ... for every item of a
 * TransactWriteItems), with the partition key and the attribute names the request carries.
 */
final class LedgerRequests implements ExecutionInterceptor {

    /**
     * One item's authorisation.
     *
     * @param action the IAM action, {@code dynamodb:UpdateItem} for an Update of a transaction
     * @param partitionKey the value of {@code dynamodb:LeadingKeys}
     * @param sortKey the item's sort key, for telling run items from missed ranges
     * @param attributes the value of {@code dynamodb:Attributes}: the key, the item's attributes (a put)
     *     and every name the expressions use
     * @param returnValues the value of {@code dynamodb:ReturnValues}
     */
    record Access(String action, String partitionKey, String sortKey, Set<String> attributes, String returnValues) {}

    private final List<Access> accesses = new CopyOnWriteArrayList<>();
    private final List<String> unexpected = new CopyOnWriteArrayList<>();

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes executionAttributes) {
        switch (context.request()) {
            case GetItemRequest get -> add("dynamodb:GetItem", get.key(), get.expressionAttributeNames(), null);
            case PutItemRequest put ->
                add("dynamodb:PutItem", put.item(), put.expressionAttributeNames(), put.returnValuesAsString());
            case UpdateItemRequest update ->
                add(
                        "dynamodb:UpdateItem",
                        update.key(),
                        update.expressionAttributeNames(),
                        update.returnValuesAsString());
            case TransactWriteItemsRequest transaction ->
                transaction.transactItems().forEach(this::add);
            case software.amazon.awssdk.services.dynamodb.model.QueryRequest query -> add(query);
            default -> unexpected.add(context.request().getClass().getSimpleName());
        }
    }

    /**
     * A Query of one partition (a long occurrence's chunk records, decision 0039): its leading key is the
     * value its key condition {@code #pk = :pk} names; a Query of anything else is unexpected.
     */
    private void add(software.amazon.awssdk.services.dynamodb.model.QueryRequest query) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(#\\w+) = (:\\w+)$")
                .matcher(String.valueOf(query.keyConditionExpression()));
        if (query.indexName() != null
                || !m.matches()
                || !LedgerTables.PARTITION_KEY.equals(
                        query.expressionAttributeNames().get(m.group(1)))) {
            unexpected.add("Query " + query);
            return;
        }
        Set<String> attributes = new TreeSet<>(query.expressionAttributeNames().values());
        accesses.add(new Access(
                "dynamodb:Query",
                query.expressionAttributeValues().get(m.group(2)).s(),
                null,
                attributes,
                "NONE"));
    }

    private void add(TransactWriteItem item) {
        if (item.put() != null) {
            add("dynamodb:PutItem", item.put().item(), item.put().expressionAttributeNames(), null);
        } else if (item.update() != null) {
            add("dynamodb:UpdateItem", item.update().key(), item.update().expressionAttributeNames(), null);
        } else if (item.conditionCheck() != null) {
            add(
                    "dynamodb:ConditionCheckItem",
                    item.conditionCheck().key(),
                    item.conditionCheck().expressionAttributeNames(),
                    null);
        } else {
            unexpected.add("TransactWriteItems " + item);
        }
    }

    private void add(String action, Map<String, AttributeValue> item, Map<String, String> names, String returnValues) {
        Set<String> attributes = new TreeSet<>(item.keySet());
        attributes.addAll(names.values());
        accesses.add(new Access(
                action,
                item.get(LedgerTables.PARTITION_KEY).s(),
                item.get(LedgerTables.SORT_KEY).s(),
                attributes,
                returnValues == null ? "NONE" : returnValues));
    }

    /** Every item access so far, in the order sent. */
    List<Access> accesses() {
        return List.copyOf(accesses);
    }

    /** Requests of any other kind (a Query, a DeleteItem, ...), which no ledger role grants. */
    List<String> unexpected() {
        return List.copyOf(unexpected);
    }

    void clear() {
        accesses.clear();
        unexpected.clear();
    }
}
