package dev.punctual.events.eventbridge;

import dev.punctual.events.LifecycleEvent;
import dev.punctual.events.LifecyclePublisher;
import dev.punctual.json.Json;
import dev.punctual.observability.StructuredLog;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResponse;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResultEntry;

/**
 * Publishes lifecycle events with PutEvents; a failure is logged as a warning and goes no further. The
 * warning goes to the invocation's log when the runtime passes it (its lines carry the request id), to
 * the container's log otherwise.
 */
public final class EventBridgeLifecyclePublisher implements LifecyclePublisher {

    private final EventBridgeClient events;
    private final String busName;
    private final StructuredLog log;

    public EventBridgeLifecyclePublisher(EventBridgeClient events, String busName, StructuredLog log) {
        this.events = events;
        this.busName = busName;
        this.log = log;
    }

    @Override
    public void publish(LifecycleEvent event) {
        publish(event, log);
    }

    @Override
    public void publish(LifecycleEvent event, StructuredLog invocationLog) {
        try {
            PutEventsRequestEntry entry = entry(event);
            PutEventsResponse response = events.putEvents(b -> b.entries(entry));
            if (response.failedEntryCount() != null && response.failedEntryCount() > 0) {
                PutEventsResultEntry failed = response.entries().get(0);
                warn(invocationLog, event, failed.errorCode() + ": " + failed.errorMessage());
            }
        } catch (RuntimeException e) {
            // Not only the SDK's faults: a lifecycle event is a notification, and nothing about it
            // (a detail that cannot be written, a closed client) may fail the run it reports.
            warn(invocationLog, event, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private PutEventsRequestEntry entry(LifecycleEvent event) {
        Map<String, Object> detail = log.redactor().fields(event.detail());
        return PutEventsRequestEntry.builder()
                .eventBusName(busName)
                .source(LifecycleEvent.SOURCE)
                .detailType(event.detailType())
                .detail(Json.write(detail))
                .build();
    }

    private void warn(StructuredLog to, LifecycleEvent event, String error) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("stage", event.stage());
        fields.put("job", event.job());
        fields.put("detail_type", event.detailType());
        fields.put("bus", busName);
        fields.put("error", error);
        to.warn("lifecycle event not published", fields);
    }
}
