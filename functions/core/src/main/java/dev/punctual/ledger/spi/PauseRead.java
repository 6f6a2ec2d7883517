package dev.punctual.ledger.spi;

import dev.punctual.ledger.PauseMark;
import java.util.List;
import java.util.Map;

/**
 * One {@link LedgerStore#readPauses} request's answer: the marks found, by lock id (an item without a
 * mark, or no item, is not in it), and the ids the store did not get to (DynamoDB's {@code
 * UnprocessedKeys}: throttled or over its response size), to be asked again.
 */
public record PauseRead(Map<String, PauseMark> marks, List<String> unread) {

    public PauseRead {
        marks = Map.copyOf(marks);
        unread = List.copyOf(unread);
    }
}
