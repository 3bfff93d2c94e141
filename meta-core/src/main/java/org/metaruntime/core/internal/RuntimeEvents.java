package org.metaruntime.core.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.metaruntime.core.EventOptions;
import org.metaruntime.core.ModuleRouteResponse;
import org.metaruntime.events.AgentEventProjection;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.EventLog;
import org.metaruntime.events.EventStore;
import org.metaruntime.events.LifecycleEvent;
import org.metaruntime.events.LifecycleStage;
import org.metaruntime.events.NormalizationError;
import org.metaruntime.events.NormalizationException;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.supervisor.ModuleHealthTransition;
import org.metaruntime.supervisor.internal.health.ChildFailure;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The runtime's own records: the merged event store, the health transitions, the lifecycle stages, and the events
 * the runtime writes itself ({@code mcp.ready}, {@code supervisor.warning}, the core flow events). Timestamps come
 * from the runtime's clock and never go behind the newest merged event. Thread-safe.
 */
public final class RuntimeEvents {

    private static final Logger LOG = LoggerFactory.getLogger(RuntimeEvents.class);
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final List<String> DELIVERY_FIELDS =
            List.of("delivery_id", "route_id", "recipient", "sink", "status", "attempts");

    private final Clock clock;
    private final EventStore store;
    private final HealthFeed health;
    private final List<ModuleHealthTransition> transitions = new ArrayList<>();
    private final List<LifecycleEvent> lifecycle = new ArrayList<>();
    private final AtomicLong newestTimestamp = new AtomicLong();
    private final AtomicLong routingSeq = new AtomicLong();
    private final AtomicLong deliverySeq = new AtomicLong();

    public RuntimeEvents(Clock clock, EventOptions options) {
        this(clock, options, null);
    }

    /** With {@code log} (nullable) receiving every envelope the store stores. */
    public RuntimeEvents(Clock clock, EventOptions options, EventLog log) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.store = log == null ? EventStore.create(options.retention(), options.dropBatch())
                : EventStore.create(options.retention(), options.dropBatch(), log);
        this.health = new HealthFeed();
    }

    public EventStore store() {
        return store;
    }

    public HealthFeed health() {
        return health;
    }

    public Clock clock() {
        return clock;
    }

    /** The clock's time, never behind the newest merged event. */
    public long now() {
        return Math.max(clock.millis(), newestTimestamp.get());
    }

    public void insert(EventEnvelope<UnifiedEvent> event) {
        newestTimestamp.accumulateAndGet(event.timestampMs(), Math::max);
        store.insert(event);
    }

    /** Appends a transition, then hands it to the health subscribers. */
    public void appendTransition(ModuleHealthTransition transition) {
        synchronized (transitions) {
            transitions.add(transition);
            health.publish(transition);
        }
        LOG.debug("module '{}': health {}", transition.moduleId(), transition);
    }

    public List<ModuleHealthTransition> transitions() {
        synchronized (transitions) {
            return List.copyOf(transitions);
        }
    }

    public void lifecycle(LifecycleStage stage) {
        synchronized (lifecycle) {
            lifecycle.add(new LifecycleEvent(lifecycle.size(), stage));
        }
    }

    public List<LifecycleEvent> lifecycleEvents() {
        synchronized (lifecycle) {
            return List.copyOf(lifecycle);
        }
    }

    /**
     * The {@code mcp.ready} event of an MCP module that listed {@code tools}: {@code {"tools": [sorted]}}, plus
     * {@code "seat_verbs": {"<seat>": [verbs sorted]}} when some are named {@code <seat>.<verb>}.
     */
    public EventEnvelope<UnifiedEvent> mcpReady(String moduleId, List<String> tools) {
        ObjectNode payload = JSON.objectNode();
        ArrayNode names = payload.putArray("tools");
        tools.stream().sorted().forEach(names::add);
        Map<String, List<String>> seats = SeatVerbs.ofTools(tools);
        if (!seats.isEmpty()) {
            ObjectNode seatVerbs = payload.putObject("seat_verbs");
            seats.forEach((seat, verbs) -> verbs.forEach(seatVerbs.putArray(seat)::add));
        }
        long ts = now();
        return EventEnvelope.module("evt-mcp-ready-" + moduleId + "-" + ts, ts, moduleId, "mcp.ready", payload);
    }

    /** The {@code supervisor.warning} of a failure of {@code moduleId}, with its stable error code. */
    public EventEnvelope<UnifiedEvent> warning(String moduleId, ChildFailure failure, String errorType) {
        ObjectNode payload = JSON.objectNode();
        payload.put("error", failure.reason());
        payload.put("error_type", errorType);
        failure.exitCode().ifPresent(code -> payload.put("exit_code", code));
        boolean processRan = failure.exitCode().isPresent() || !failure.stderrTail().isEmpty()
                || failure.cause() instanceof BoundaryFailure && ((BoundaryFailure) failure.cause()).processRan();
        if (processRan) {
            payload.put("stderr_tail", failure.stderrTail());
        }
        long ts = now();
        return EventEnvelope.module("evt-supervisor-warning-" + moduleId + "-" + ts, ts, moduleId,
                "supervisor.warning", payload);
    }

    /** The agent projection of a host's agent event; refuses any other event. */
    public static EventEnvelope<UnifiedEvent> projectAgent(EventEnvelope<UnifiedEvent> event) {
        Objects.requireNonNull(event, "event");
        if (!(event.event() instanceof UnifiedEvent.Agent)) {
            throw new NormalizationException(new NormalizationError.SourceMismatch("agent", event.source()));
        }
        return AgentEventProjection.project(event);
    }

    /** The core flow events of a successful call to a core module: {@code router}/{@code delivery}. */
    public void coreFlow(ModuleRouteResponse response) {
        String id = response.moduleId();
        if (id.equals("router") && response.method().equals("routing.resolve")) {
            long ts = now();
            insert(EventEnvelope.module(String.format("evt-routing-%06d", routingSeq.incrementAndGet()), ts,
                    "router", "resolved", response.payload()));
        } else if (id.equals("delivery") && response.method().equals("delivery.send")) {
            ObjectNode payload = JSON.objectNode();
            for (String field : DELIVERY_FIELDS) {
                JsonNode value = response.payload().get(field);
                if (value != null) {
                    payload.set(field, value);
                }
            }
            long ts = now();
            insert(EventEnvelope.module(String.format("evt-delivery-%06d", deliverySeq.incrementAndGet()), ts,
                    "delivery", "send", payload));
        }
    }

    /** Closes the store and the health subscriptions. */
    public void close() {
        store.close();
        health.close();
    }
}
