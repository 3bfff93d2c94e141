package org.metaruntime.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.metaruntime.mcp.McpConnection;
import org.metaruntime.supervisor.internal.Failures;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A new remote session in place of one the server forgot: the client's own {@code initialize} request sent again
 * (under an id of its own, without the stale session id), then {@code notifications/initialized}; the session is
 * renewed once the server answered that notification's {@code POST}. Every request that
 * met the same forgotten session shares one renewal; one for a session already replaced completes at once. The
 * renewal's answer is taken out of the stream before the connection sees it. Thread-safe.
 */
final class SessionRenewal {

    private static final Logger LOG = LoggerFactory.getLogger(McpConnection.class);
    private static final String ID_PREFIX = "meta-reinit-";

    private final String moduleId;
    private final Supplier<String> sessionId;
    private final BiFunction<String, JsonNode, CompletableFuture<Void>> send;
    private final Map<String, CompletableFuture<JsonNode>> answers = new ConcurrentHashMap<>();
    private final AtomicLong renewals = new AtomicLong();
    private final Object lock = new Object();
    private CompletableFuture<Void> running; // guarded by lock
    private String replacing; // guarded by lock: the session the running renewal replaces
    private volatile ObjectNode initialize;

    /**
     * Renews the session {@code sessionId} tells, sending its messages with {@code send} (json, message), whose stage
     * completes once the server answered the message's {@code POST}.
     */
    SessionRenewal(String moduleId, Supplier<String> sessionId, BiFunction<String, JsonNode, CompletableFuture<Void>> send) {
        this.moduleId = moduleId;
        this.sessionId = sessionId;
        this.send = send;
    }

    /** The client's {@code initialize} request, sent again for each new session. */
    void remember(ObjectNode initializeRequest) {
        initialize = initializeRequest;
    }

    /** Whether {@code id} is a renewal's request id (sent without a session id). */
    boolean owns(String id) {
        return id.startsWith(ID_PREFIX);
    }

    /** How many times a forgotten session was replaced by a new one. */
    long count() {
        return renewals.get();
    }

    /**
     * A new session in place of {@code staleSession}; completes when it is initialised, or fails with why it could
     * not be (an {@link IOException}).
     */
    CompletableFuture<Void> renew(String staleSession) {
        synchronized (lock) {
            if (!staleSession.equals(sessionId.get())) {
                return CompletableFuture.completedFuture(null); // replaced already
            }
            if (running != null && staleSession.equals(replacing)) {
                return running;
            }
            replacing = staleSession;
            running = run();
            return running;
        }
    }

    /** Takes {@code response} if it answers a renewal; false when it is for the connection. */
    boolean answered(JSONRPCResponse response) {
        CompletableFuture<JsonNode> answer = response.id() instanceof String ? answers.remove(response.id()) : null;
        if (answer == null) {
            return false;
        }
        answer.complete(response.error() != null ? Json.MAPPER.createObjectNode()
                .put("error", response.error().message()) : (JsonNode) response.result());
        return true;
    }

    /** The server refused the renewal request {@code id} with {@code reason}; false when {@code id} is not one. */
    boolean refused(String id, String reason) {
        if (!owns(id)) {
            return false;
        }
        CompletableFuture<JsonNode> answer = answers.remove(id);
        if (answer != null) {
            answer.completeExceptionally(new IOException(reason));
        }
        return true;
    }

    /** The session ended: a renewal under way is given up. */
    void shutdown() {
        answers.values().forEach(f -> f.cancel(false));
    }

    private CompletableFuture<Void> run() {
        ObjectNode init = initialize;
        if (init == null) {
            return CompletableFuture.failedFuture(new IOException("the session was never initialised"));
        }
        String id = ID_PREFIX + renewals.incrementAndGet();
        ObjectNode request = init.deepCopy().put("id", id);
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        answers.put(id, answer);
        send.apply(request.toString(), request);
        long timeoutMs = SharedHttpClient.CONNECT_TIMEOUT.toMillis() * 3;
        return answer.orTimeout(timeoutMs, TimeUnit.MILLISECONDS)
                .whenComplete((r, e) -> answers.remove(id))
                .exceptionally(e -> {
                    throw failure(e, "no answer to initialize in time");
                })
                .thenCompose(result -> {
                    if (result.has("error")) {
                        throw new CompletionException(new IOException("initialize failed: " + result.get("error")));
                    }
                    ObjectNode initialized = Json.MAPPER.createObjectNode().put("jsonrpc", McpSchema.JSONRPC_VERSION)
                            .put("method", McpSchema.METHOD_NOTIFICATION_INITIALIZED);
                    return send.apply(initialized.toString(), initialized).orTimeout(timeoutMs, TimeUnit.MILLISECONDS)
                            .exceptionally(e -> {
                                throw failure(e, "no answer to notifications/initialized in time");
                            });
                })
                .thenRun(() -> LOG.info("module '{}': new session {} initialised", moduleId, sessionId.get()));
    }

    private static CompletionException failure(Throwable e, String timedOut) {
        Throwable cause = Failures.unwrap(e);
        return new CompletionException(cause instanceof TimeoutException ? new IOException(timedOut) : cause);
    }
}
