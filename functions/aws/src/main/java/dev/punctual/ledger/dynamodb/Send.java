package dev.punctual.ledger.dynamodb;

import dev.punctual.PunctualException;
import dev.punctual.ledger.spi.OutcomeUnknownException;
import java.util.function.Supplier;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.TransactionConflictException;

/**
 * Sorts SDK failures: a condition that failed is an answer (passed on); a timeout, lost connection,
 * throttling, transaction conflict or server error leaves the outcome to the ledger's read-back; anything else is a
 * request the table rejected outright — a bug or a misconfigured table, not a retryable fault.
 */
final class Send {

    private static final int SERVER_ERROR = 500;

    private Send() {}

    static <T> T request(String what, Supplier<T> request) {
        try {
            return request.get();
        } catch (ConditionalCheckFailedException | TransactionCanceledException answer) {
            throw answer;
        } catch (TransactionConflictException conflict) {
            // A plain write met an item inside another request's transaction (say a duplicate
            // delivery's claim during the winner's commit). Not applied; the read-back decides, and
            // sends again once the transaction (milliseconds) is over.
            throw new OutcomeUnknownException(what + ": the item is inside another transaction", conflict);
        } catch (AwsServiceException e) {
            if (e.isThrottlingException() || e.statusCode() >= SERVER_ERROR) {
                throw new OutcomeUnknownException(what + ": " + e.getMessage(), e);
            }
            throw new PunctualException(what + " was rejected by DynamoDB: " + e.getMessage(), e);
        } catch (SdkException e) {
            throw new OutcomeUnknownException(what + ": " + e.getMessage(), e);
        }
    }
}
