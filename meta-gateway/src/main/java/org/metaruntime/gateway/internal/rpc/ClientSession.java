package org.metaruntime.gateway.internal.rpc;

import org.metaruntime.gateway.spi.Principal;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.metaruntime.supervisor.internal.Failures;

/**
 * One MCP client connected to the gateway, whatever its transport: what it announced at {@code initialize},
 * the log level it set, its requests in flight (to cancel them) and the gateway's own requests to it
 * (sampling, elicitation, roots). Thread-safe.
 */
public final class ClientSession {

    /** At most this many requests of one client in flight; more are refused with -32603. */
    public static final int MAX_IN_FLIGHT = 4096;

    private final String id;
    private final Outbound outbound;
    private final boolean authenticated;
    private final Principal caller;
    private final String httpSessionId;
    private final AtomicLong nextRequestId = new AtomicLong(1);
    private final Map<Long, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final Map<JsonNode, Runnable> cancels = new ConcurrentHashMap<>();
    private volatile JsonNode capabilities;
    private volatile JsonNode clientInfo;
    private volatile String protocolVersion;
    private volatile LogLevel logLevel = LogLevel.INFO;
    private volatile boolean closed;

    public ClientSession(String id, Outbound outbound) {
        this(id, outbound, false);
    }

    /**
     * @param authenticated whether the callers on it are authenticated (the transport checks credentials), so that
     *                      what they are answered may depend on who they are
     */
    public ClientSession(String id, Outbound outbound, boolean authenticated) {
        this(id, outbound, authenticated, Principals.LOCAL);
    }

    /**
     * @param authenticated whether the callers on it are authenticated
     * @param caller        who sends its requests
     */
    public ClientSession(String id, Outbound outbound, boolean authenticated, Principal caller) {
        this(id, outbound, authenticated, caller, null);
    }

    /**
     * @param authenticated whether the callers on it are authenticated
     * @param caller        who sends its requests
     * @param httpSessionId the id of the HTTP session it serves ({@code Mcp-Session-Id} of Streamable HTTP, the
     *                      session id of legacy SSE); {@code null} for stdio and sessionless requests
     */
    public ClientSession(String id, Outbound outbound, boolean authenticated, Principal caller, String httpSessionId) {
        this.id = id;
        this.outbound = outbound;
        this.authenticated = authenticated;
        this.caller = caller;
        this.httpSessionId = httpSessionId;
    }

    /** Who sends its requests (the stdio pipe's client, an HTTP principal). */
    public Principal caller() {
        return caller;
    }

    /** The id of the HTTP session it serves; {@code null} for stdio and sessionless HTTP requests. */
    public String httpSessionId() {
        return httpSessionId;
    }

    /** Whether its callers are authenticated (answers to them are private to them). */
    public boolean authenticated() {
        return authenticated;
    }

    /** Whether a legacy session is open on it ({@code initialize} was answered): only then may it get unsolicited messages. */
    public boolean legacyOpen() {
        return protocolVersion != null;
    }

    public String id() {
        return id;
    }

    /** Sends a message to the client (dropped once the session is closed). */
    public void send(ObjectNode message) {
        if (!closed) {
            outbound.send(message);
        }
    }

    /** Sends the answers to a batch as one array (dropped once the session is closed). */
    public void sendBatch(ArrayNode messages) {
        if (!closed) {
            outbound.sendBatch(messages);
        }
    }

    /** Sends a notification. */
    public void notify(String method, JsonNode params) {
        send(JsonRpc.notification(method, params));
    }

    /** Sends a notification that belongs to the client's request {@code relatedRequestId} (its progress). */
    public void notify(String method, JsonNode params, JsonNode relatedRequestId) {
        if (!closed) {
            outbound.send(JsonRpc.notification(method, params), relatedRequestId);
        }
    }

    /**
     * Sends a request to the client and completes with its result, or with an {@link RpcException} for an
     * error answer, a timeout or the session's end.
     */
    public CompletableFuture<JsonNode> request(String method, JsonNode params, Duration timeout) {
        return request(method, params, timeout, null);
    }

    /**
     * Like {@link #request(String, JsonNode, Duration)}, for a request made while the client's request
     * {@code relatedRequestId} runs (null: none).
     */
    public CompletableFuture<JsonNode> request(String method, JsonNode params, Duration timeout, JsonNode relatedRequestId) {
        long requestId = nextRequestId.getAndIncrement();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        if (closed) {
            answer.completeExceptionally(new RpcException(JsonRpc.INTERNAL_ERROR, "the client session has ended"));
            return answer;
        }
        pending.put(requestId, answer);
        answer.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).whenComplete((r, e) -> pending.remove(requestId));
        ObjectNode message = JsonRpc.request(LongNode.valueOf(requestId), method, params);
        if (relatedRequestId == null) {
            send(message);
        } else if (!closed) {
            outbound.send(message, relatedRequestId);
        }
        return answer.exceptionally(e -> {
            Throwable cause = Failures.unwrap(e);
            if (cause instanceof RpcException rpc) {
                throw rpc;
            }
            throw new RpcException(JsonRpc.INTERNAL_ERROR, "the client did not answer " + method + " within " + timeout.toMillis() + " ms");
        });
    }

    /** A response from the client to one of the gateway's requests. */
    void onResponse(JsonNode message) {
        JsonNode id = message.get("id");
        if (id == null || !id.canConvertToLong()) {
            return;
        }
        CompletableFuture<JsonNode> answer = pending.remove(id.asLong());
        if (answer == null) {
            return;
        }
        JsonNode error = message.get("error");
        if (error != null && error.isObject()) {
            answer.completeExceptionally(new RpcException(error.path("code").asInt(JsonRpc.INTERNAL_ERROR),
                    error.path("message").asText("error"), error.get("data")));
        } else {
            answer.complete(message.has("result") ? message.get("result") : JsonRpc.NODES.objectNode());
        }
    }

    /** Registers how to cancel the client's request {@code id}; false when too many are in flight. */
    boolean track(JsonNode id, Runnable cancel) {
        if (cancels.size() >= MAX_IN_FLIGHT) {
            return false;
        }
        cancels.put(id, cancel);
        return true;
    }

    void untrack(JsonNode id) {
        cancels.remove(id);
    }

    /** The client cancelled its request {@code id}. */
    void cancel(JsonNode id) {
        Runnable cancel = cancels.remove(id);
        if (cancel != null) {
            cancel.run();
        }
    }

    /** Records what the client announced at initialize. */
    public void initialized(JsonNode capabilities, String protocolVersion) {
        initialized(capabilities, protocolVersion, null);
    }

    /** Records what the client announced at initialize, its {@code clientInfo} included. */
    public void initialized(JsonNode capabilities, String protocolVersion, JsonNode clientInfo) {
        this.capabilities = capabilities;
        this.clientInfo = clientInfo;
        this.protocolVersion = protocolVersion;
    }

    /** The capabilities the client announced at initialize; null before. */
    public JsonNode capabilities() {
        return capabilities;
    }

    /** The {@code clientInfo} the client announced at initialize; null when none. */
    public JsonNode clientInfo() {
        return clientInfo;
    }

    /** Whether the client announced {@code capability} (sampling, elicitation, roots) at initialize. */
    public boolean hasCapability(String capability) {
        JsonNode caps = capabilities;
        return caps != null && caps.has(capability) && !caps.get(capability).isNull();
    }

    public String protocolVersion() {
        return protocolVersion;
    }

    public LogLevel logLevel() {
        return logLevel;
    }

    /** Sets the least severe log level forwarded to the client. */
    public void logLevel(LogLevel level) {
        this.logLevel = level;
    }

    public boolean isClosed() {
        return closed;
    }

    /** Ends the session: cancels its requests in flight, fails the gateway's requests to it. */
    public void close() {
        closed = true;
        cancels.values().forEach(Runnable::run);
        cancels.clear();
        pending.values().forEach(f -> f.completeExceptionally(new RpcException(JsonRpc.INTERNAL_ERROR, "the client session has ended")));
        pending.clear();
    }
}
