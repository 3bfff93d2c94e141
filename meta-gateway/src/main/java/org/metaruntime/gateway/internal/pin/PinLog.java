package org.metaruntime.gateway.internal.pin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.EventLog;
import org.metaruntime.events.EventPage;
import org.metaruntime.events.EventQuery;
import org.metaruntime.events.LoggedEvent;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pin events in the event log: appends {@code gateway.tool_pinned}, {@code gateway.tool_approved} and
 * {@code gateway.tool_drift} (module = the pod), and reads the recorded pins back. Without an event log, nothing is
 * kept. Thread-safe.
 */
public final class PinLog {

    private static final Logger log = LoggerFactory.getLogger(PinLog.class);

    /** A tool's definition was recorded as its pin on first use. */
    public static final String PINNED = "gateway.tool_pinned";
    /** A tool's live definition was approved as its pin. */
    public static final String APPROVED = "gateway.tool_approved";
    /** A tool's live definition differs from its pin. */
    public static final String DRIFT = "gateway.tool_drift";

    private static final int PAGE = 1000;

    private final EventLog events;
    private final Clock clock;

    /** @param events the event log, or null */
    public PinLog(EventLog events, Clock clock) {
        this.events = events;
        this.clock = clock;
    }

    /** Whether pins outlive the process. */
    public boolean durable() {
        return events != null;
    }

    void append(String pod, String eventType, ObjectNode payload) {
        if (events == null) {
            return;
        }
        try {
            events.append(EventEnvelope.module(UUID.randomUUID().toString(), clock.millis(), pod, eventType, payload));
        } catch (RuntimeException e) {
            log.warn("pod {}: the {} event could not be logged: {}", pod, eventType, e.getMessage());
        }
    }

    /** Appends a {@code gateway.tool_approved} event and waits until it is committed. */
    public void approved(String pod, String tool, String definitionHash, String previous) {
        ObjectNode payload = JsonRpc.NODES.objectNode().put("pod", pod).put("tool", tool).put("definition_hash", definitionHash);
        if (previous == null) {
            payload.putNull("previous");
        } else {
            payload.put("previous", previous);
        }
        append(pod, APPROVED, payload);
        if (events != null) {
            events.flush(java.time.Duration.ofSeconds(10));
        }
    }

    /**
     * The recorded pins: for each pod and tool, the definition hash of its latest {@code gateway.tool_pinned} or
     * {@code gateway.tool_approved} event.
     */
    public Map<PinKey, String> recorded() {
        Map<PinKey, String> pins = new HashMap<>();
        if (events == null) {
            return pins;
        }
        TreeMap<Long, LoggedEvent> rows = new TreeMap<>();
        read(PINNED, rows);
        read(APPROVED, rows);
        for (LoggedEvent row : rows.values()) {
            if (!(row.envelope().event() instanceof UnifiedEvent.Module module)) {
                continue;
            }
            JsonNode payload = module.event().payload();
            String hash = payload.path("definition_hash").asText("");
            String tool = payload.path("tool").asText("");
            if (!tool.isEmpty() && org.metaruntime.gateway.internal.contract.DefinitionHash.wellFormed(hash)) {
                pins.put(new PinKey(module.event().module(), tool), hash);
            }
        }
        return pins;
    }

    private void read(String eventType, TreeMap<Long, LoggedEvent> into) {
        EventQuery query = EventQuery.builder().source(EventEnvelope.SOURCE_MODULE).eventType(eventType).limit(PAGE).build();
        while (true) {
            EventPage page = events.query(query);
            page.events().forEach(row -> into.put(row.seq(), row));
            Optional<Long> next = Optional.ofNullable(page.nextAfterSeq());
            if (next.isEmpty() || page.events().isEmpty()) {
                return;
            }
            query = query.withAfterSeq(next.get());
        }
    }
}
