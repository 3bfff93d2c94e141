package org.metaruntime.gateway.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.metaruntime.gateway.internal.cluster.DatabaseUnreachable;
import org.metaruntime.gateway.internal.cluster.SessionRecord;
import org.metaruntime.gateway.internal.cluster.SharedSessions;
import org.metaruntime.gateway.internal.rpc.ClientSession;
import org.metaruntime.gateway.internal.rpc.Dispatcher;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.rpc.LogLevel;
import org.metaruntime.gateway.internal.rpc.Outbound;
import org.metaruntime.gateway.internal.serve.GatewayServer;
import org.metaruntime.gateway.spi.Principal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client of Streamable HTTP: its {@link ClientSession} and where each message to it goes. An answer goes to
 * the POST that carried its request; a message belonging to a request in flight (progress, sampling) goes on that
 * POST's stream; anything else goes on the client's GET stream, or waits (bounded) until it opens one. A broken
 * stream ends that stream only: a broken POST cancels its request at the pod, a broken GET stream leaves the
 * session as it is. A request the client cancels leaves at once: its POST ends without an answer. Thread-safe.
 */
final class StreamableSession implements HttpSession, Outbound {

    private static final Logger log = LoggerFactory.getLogger(StreamableSession.class);

    /** Messages kept for a client without a GET stream; beyond it the oldest are dropped. */
    static final int MAX_BACKLOG = 1024;

    private final String id;
    private final GatewayServer server;
    private final ClientSession client;
    private final Runnable callEnded;
    private final Map<JsonNode, PostExchange> open = new ConcurrentHashMap<>();
    private final ArrayDeque<String> backlog = new ArrayDeque<>();
    private final AtomicInteger handling = new AtomicInteger();
    private SseStream standalone;
    private volatile long lastSeenNanos;
    private volatile boolean closed;
    private volatile SharedSessions recordIn;
    private volatile JsonNode initializeId;
    private volatile boolean unrecorded;
    private volatile long sharedTouchNanos;

    /**
     * @param owner     the principal whose request opened it: the only one its later requests may come from
     * @param callEnded told whenever one of its calls in flight ends
     */
    StreamableSession(String id, GatewayServer server, Principal owner, Runnable callEnded) {
        this.id = id;
        this.server = server;
        this.callEnded = callEnded;
        this.lastSeenNanos = server.nanoClock().getAsLong();
        this.sharedTouchNanos = lastSeenNanos;
        this.client = server.openSession(this, owner, id);
    }

    /**
     * A session loaded from the shared database: the client's state of {@code record} restored, for requests of
     * {@code caller} (the same principal as the record's).
     */
    static StreamableSession restored(SessionRecord record, GatewayServer server, Principal caller, Runnable callEnded) {
        StreamableSession session = new StreamableSession(record.id(), server, caller, callEnded);
        session.client.initialized(record.capabilities(), record.protocolVersion(),
                record.clientInfo() == null || record.clientInfo().isNull() ? null : record.clientInfo());
        LogLevel.of(record.logLevel()).ifPresent(session.client::logLevel);
        return session;
    }

    /** Writes the session to {@code store} before the answer to its {@code initialize} (request {@code requestId}) goes. */
    void recordAtInitialize(JsonNode requestId, SharedSessions store) {
        this.initializeId = requestId;
        this.recordIn = store;
    }

    /** Whether the session could not be written to the shared database at {@code initialize} (it was refused). */
    boolean unrecorded() {
        return unrecorded;
    }

    @Override
    public String id() {
        return id;
    }

    ClientSession client() {
        return client;
    }

    @Override
    public Principal owner() {
        return client.caller();
    }

    boolean isClosed() {
        return closed;
    }

    /** An HTTP request of this session starts; pair with {@link #left()}. */
    void entered() {
        handling.incrementAndGet();
        lastSeenNanos = server.nanoClock().getAsLong();
    }

    void left() {
        lastSeenNanos = server.nanoClock().getAsLong();
        handling.decrementAndGet();
    }

    /** Registers the exchange answering request {@code requestId}; false when that id is in flight already. */
    boolean expect(JsonNode requestId, PostExchange exchange) {
        return open.putIfAbsent(requestId, exchange) == null;
    }

    /** When this replica last renewed the session's shared last use for its open GET stream. */
    long sharedTouchNanos() {
        return sharedTouchNanos;
    }

    void sharedTouchNanos(long nanos) {
        this.sharedTouchNanos = nanos;
    }

    /** Whether request {@code requestId} of the client is in flight on this replica. */
    boolean inFlight(JsonNode requestId) {
        return requestId != null && open.containsKey(requestId);
    }

    /** The POST of request {@code requestId} broke before its answer: the request is cancelled. */
    void broken(JsonNode requestId, PostExchange exchange, Throwable cause) {
        if (!open.remove(requestId, exchange)) {
            return;
        }
        callEnded.run();
        log.info("session {}: the connection of request {} broke ({}); cancelling it", id, requestId, cause.toString());
        ObjectNode params = JsonRpc.NODES.objectNode();
        params.set("requestId", requestId);
        params.put("reason", "the client's connection broke");
        server.dispatcher().onMessage(client, JsonRpc.notification("notifications/cancelled", params));
    }

    /** Whether the client's GET stream is open. */
    boolean hasStream() {
        synchronized (backlog) {
            return standalone != null && !standalone.ended();
        }
    }

    /** Attaches the client's GET stream; false when one is open already. Sends what waited for it. */
    boolean attach(SseStream stream) {
        synchronized (backlog) {
            if (standalone != null && !standalone.ended()) {
                return false;
            }
            standalone = stream;
            while (!backlog.isEmpty()) {
                stream.message(backlog.poll());
            }
            return true;
        }
    }

    void detach(SseStream stream) {
        synchronized (backlog) {
            if (standalone == stream) {
                standalone = null;
            }
        }
        lastSeenNanos = server.nanoClock().getAsLong();
    }

    @Override
    public void send(ObjectNode message) {
        send(message, null);
    }

    @Override
    public void send(ObjectNode message, JsonNode relatedRequestId) {
        String json = JsonRpc.write(message);
        JsonNode messageId = message.get("id");
        if (!message.has("method") && messageId != null && !messageId.isNull()) {
            if (messageId.equals(initializeId) && recordIn != null && message.has("result")) {
                json = record(messageId, json);
            }
            PostExchange exchange = open.remove(messageId);
            if (exchange != null) {
                exchange.answer(json);
                callEnded.run();
            } else {
                log.debug("session {}: the answer to {} has no open request to go to", id, messageId);
            }
            return;
        }
        if (relatedRequestId != null) {
            PostExchange exchange = open.get(relatedRequestId);
            if (exchange != null && exchange.send(json)) {
                return;
            }
        }
        synchronized (backlog) {
            if (standalone != null && standalone.message(json)) {
                return;
            }
            if (backlog.size() >= MAX_BACKLOG) {
                backlog.poll();
                log.debug("session {}: backlog full, the oldest message was dropped", id);
            }
            backlog.add(json);
        }
    }

    /** Writes the session's record; returns {@code answer}, or the error that replaces it when the write fails. */
    private String record(JsonNode requestId, String answer) {
        SharedSessions store = recordIn;
        recordIn = null;
        Principal owner = client.caller();
        try {
            store.create(new SessionRecord(id, client.protocolVersion(), client.capabilities(), client.clientInfo(),
                    client.logLevel().wire(), owner.name(), owner.auth(), 0, 0));
            return answer;
        } catch (DatabaseUnreachable e) {
            log.warn("session {}: not opened, {}", id, e.getMessage());
            unrecorded = true;
            return JsonRpc.write(JsonRpc.error(requestId, JsonRpc.INTERNAL_ERROR, DatabaseUnreachable.MESSAGE, null));
        }
    }

    @Override
    public void keepAlive(long quietNanos) {
        for (PostExchange exchange : open.values()) {
            exchange.keepAlive(quietNanos);
        }
        SseStream s;
        synchronized (backlog) {
            s = standalone;
        }
        if (s != null && s.quietNanos() >= quietNanos) {
            s.comment();
        }
    }

    @Override
    public boolean idleFor(long idleNanos) {
        if (handling.get() > 0 || !open.isEmpty()) {
            return false;
        }
        synchronized (backlog) {
            if (standalone != null && !standalone.ended()) {
                return false;
            }
        }
        return server.nanoClock().getAsLong() - lastSeenNanos >= idleNanos;
    }

    @Override
    public int callsInFlight() {
        return open.size();
    }

    @Override
    public void close(String reason) {
        if (closed) {
            return;
        }
        closed = true;
        server.closeSession(client);
        String error = null;
        for (Map.Entry<JsonNode, PostExchange> entry : open.entrySet()) {
            if (open.remove(entry.getKey(), entry.getValue())) {
                error = JsonRpc.write(JsonRpc.error(entry.getKey(), JsonRpc.INTERNAL_ERROR, reason, null));
                entry.getValue().answer(error);
                callEnded.run();
            }
        }
        SseStream s;
        synchronized (backlog) {
            s = standalone;
            standalone = null;
            backlog.clear();
        }
        if (s != null) {
            s.close();
        }
    }

    /**
     * Feeds one message of the client to the dispatcher. A cancellation also ends the POST of the request it names,
     * without an answer: the request is no longer in flight.
     */
    void dispatch(Dispatcher dispatcher, JsonNode message) {
        dispatcher.onMessage(client, message);
        JsonNode id = message.get("id");
        if ((id == null || id.isNull()) && "notifications/cancelled".equals(message.path("method").asText())) {
            JsonNode requestId = message.path("params").get("requestId");
            PostExchange exchange = requestId == null ? null : open.remove(requestId);
            if (exchange != null) {
                exchange.release();
                callEnded.run();
            }
        }
    }
}
