package org.metaruntime.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCNotification;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import org.metaruntime.mcp.McpConnection;
import org.metaruntime.mcp.McpHttpEndpoint;
import org.metaruntime.supervisor.internal.Failures;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * The client side of MCP Streamable HTTP: every message the connection writes is one {@code POST} to the endpoint;
 * the answer is a JSON body or an SSE stream of messages (the server's notifications and requests about that
 * request, then its answer), each routed like a stdout line of a stdio server: answers to the connection's
 * {@link CallWindow}, notifications to {@link ProcessClientTransport.Inbound#notification}, the server's requests to
 * the SDK client session. The {@code Mcp-Session-Id} the server gives at {@code initialize} and the agreed protocol
 * version go with every later request. A {@code 404} for the session (or a {@code 400} whose body names the session,
 * as some servers answer for a session they do not know) has {@link SessionRenewal} initialise a new session and
 * sends the request again on it; an SSE answer is read by {@link SseLines}. An unreachable server, a reset connection, a 5xx
 * answer or a 404 that re-initialising does not cure ends the session ({@code lost}); another 4xx answer fails only
 * that request: with its JSON-RPC error when its body is one answering that request (a modern-only server answers
 * {@code initialize} so, {@code -32022} with the versions it speaks), else with the status. Writes never block: each POST is sent and its answer read on a thread of the shared client's own
 * named pool (the JDK client's asynchronous send would hand every answer to a thread of the common pool, which on a
 * small machine is a new unnamed thread per request), so the threads are bounded by the requests in flight and reused
 * between them. A notification's POST can be waited for ({@link #notify(String)}): the session is ready only once the
 * server took {@code notifications/initialized}. Thread-safe.
 */
public final class HttpClientTransport implements SessionTransport {

    private static final Logger LOG = LoggerFactory.getLogger(McpConnection.class);
    private static final int BODY_SAMPLE_CHARS = 300;

    private final String moduleId;
    private final McpHttpEndpoint endpoint;
    private final HttpClient client;
    private final ExecutorService executor;
    private volatile ProcessClientTransport.Inbound inbound;
    private volatile Consumer<String> lost;
    private final Map<Object, Exchange> exchanges = new ConcurrentHashMap<>();
    private final AtomicLong exchangeIds = new AtomicLong();
    private volatile String sessionId;
    private volatile String protocolVersion;
    private volatile boolean ended;
    /** Whether the server speaks MCP 2026-07-28: no session, a request is cancelled by closing its stream. */
    private volatile boolean modern;
    private final SdkSessionLink session;
    private final SessionRenewal renewal;
    private final SkippedMessages notJsonRpc;

    /**
     * A transport to {@code endpoint} on the shared {@code client}, sending on {@code executor} (the client's own pool);
     * {@link #bind} it before the first write.
     */
    public HttpClientTransport(McpHttpEndpoint endpoint, HttpClient client, ExecutorService executor) {
        this.moduleId = endpoint.moduleId();
        this.session = new SdkSessionLink(moduleId);
        this.endpoint = endpoint;
        this.client = client;
        this.executor = executor;
        this.renewal = new SessionRenewal(moduleId, () -> sessionId, (json, message) -> post(json, message, false));
        this.notJsonRpc = new SkippedMessages(moduleId, "a message that is not JSON-RPC", "messages that are not JSON-RPC");
    }

    /**
     * Routes what the transport hears to {@code inbound}; {@code lost} is told why the session cannot go on (it may
     * be told more than once: the session ends at the first).
     */
    public void bind(ProcessClientTransport.Inbound inbound, Consumer<String> lost) {
        this.inbound = inbound;
        this.lost = lost;
    }

    /** The session id the server gave, or null (none yet, or the server keeps no sessions). */
    public String sessionId() {
        return sessionId;
    }

    /** The protocol version agreed in {@code initialize}; sent as {@code MCP-Protocol-Version} from now on. */
    public void protocolVersion(String version) {
        this.protocolVersion = version;
    }

    /** The server speaks MCP {@code 2026-07-28}: a request is cancelled by closing its stream, nothing is posted. */
    public void speaksModern() {
        this.modern = true;
    }

    /** How many times a forgotten session was replaced by a new one. */
    public long reinitialisations() {
        return renewal.count();
    }

    // ---- McpClientTransport (the SDK session answers the server's requests through it)

    @Override
    public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
        return session.connect(handler);
    }

    @Override
    public Mono<Void> sendMessage(JSONRPCMessage message) {
        return SdkSessionLink.send(message, this::write);
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.empty(); // the connection ends the session itself, with its own timeout
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
        return SdkSessionLink.unmarshal(data, typeRef);
    }

    // ---- CallWindow.Wire

    @Override
    public long write(String json) {
        send(json);
        return 0;
    }

    /**
     * POSTs the notification {@code json}; completes once the server answered the POST (whatever the status: a refusal
     * is logged), fails when the server cannot be reached or the session ended first.
     */
    @Override
    public CompletableFuture<Void> notify(String json) {
        return send(json);
    }

    private CompletableFuture<Void> send(String json) {
        if (ended) {
            throw new IllegalStateException("the session with module '" + moduleId + "' has ended");
        }
        JsonNode message;
        try {
            message = Json.MAPPER.readTree(json);
        } catch (IOException e) {
            throw new IllegalArgumentException("not a JSON-RPC message: " + e.getMessage(), e);
        }
        String method = message.path("method").asText(null);
        if (McpSchema.METHOD_INITIALIZE.equals(method) && message.has("id")) {
            renewal.remember((ObjectNode) message);
        } else if (CallWindow.CANCELLED.equals(method)) {
            // the request is abandoned: its answer stream is of no use any more
            Exchange abandoned = exchanges.remove(message.path("params").path("requestId").asText());
            if (abandoned != null) {
                abandoned.cancel();
            }
            if (modern) {
                return CompletableFuture.completedFuture(null); // closing the stream was the cancellation
            }
        }
        return post(json, message, false);
    }

    @Override
    public boolean alive() {
        return !ended;
    }

    /** The session ended: streams are closed, whatever the server still sends is dropped. */
    @Override
    public void shutdown() {
        ended = true;
        for (Exchange e : new ArrayList<>(exchanges.values())) {
            e.cancel();
        }
        exchanges.clear();
        renewal.shutdown();
        notJsonRpc.flush();
    }

    /**
     * Ends the session on the server ({@code DELETE} with the session id, when there is one), within
     * {@code timeout}; completes (never exceptionally) when done or when the time is up.
     */
    public CompletableFuture<Void> deleteSession(Duration timeout) {
        String sid = sessionId;
        if (sid == null) {
            return CompletableFuture.completedFuture(null);
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint.url()).DELETE().timeout(timeout)
                .header("Mcp-Session-Id", sid);
        headers(request);
        CompletableFuture<Void> deleted = new CompletableFuture<>();
        try {
            executor.execute(() -> {
                try {
                    client.send(request.build(), HttpResponse.BodyHandlers.discarding());
                    deleted.complete(null);
                } catch (IOException | InterruptedException | RuntimeException e) {
                    deleted.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            return CompletableFuture.completedFuture(null);
        }
        return deleted.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).handle((ok, e) -> {
            if (e != null) {
                LOG.debug("module '{}': ending session {} failed: {}", moduleId, sid, Failures.unwrap(e).toString());
            }
            return null;
        });
    }

    // ---- sending

    private void headers(HttpRequest.Builder request) {
        endpoint.headers().forEach(request::header);
        String version = protocolVersion;
        if (version != null) {
            request.header("MCP-Protocol-Version", version);
        }
    }

    /** The headers of a modern request: the configured ones, then the 2026 revision's ({@link ModernHeaders}). */
    private void modernHeaders(HttpRequest.Builder request, JsonNode message) {
        endpoint.headers().forEach(request::header);
        ModernHeaders.add(request, message);
    }

    /**
     * POSTs one message; {@code resent} when it is sent again on a new session after a 404. Completes once the server
     * answered the POST (a message of a forgotten session: once its resend was answered); fails when the server
     * cannot be reached or the exchange was cancelled.
     */
    private CompletableFuture<Void> post(String json, JsonNode message, boolean resent) {
        boolean modernMessage = ModernHeaders.isModern(message);
        String sid = modernMessage || renewal.owns(message.path("id").asText("")) ? null : sessionId;
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint.url())
                .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream");
        if (modernMessage) {
            modernHeaders(request, message);
        } else {
            headers(request);
        }
        if (sid != null) {
            request.header("Mcp-Session-Id", sid);
        }
        JsonNode id = message.get("id");
        boolean isRequest = message.has("method") && id != null && !id.isNull();
        Object key = isRequest ? id.asText() : "meta-post-" + exchangeIds.incrementAndGet();
        boolean initializing = isRequest && McpSchema.METHOD_INITIALIZE.equals(message.path("method").asText());
        Exchange exchange = new Exchange(key, request.build(), initializing);
        exchanges.put(key, exchange);
        try {
            exchange.task = executor.submit(() -> exchange.run(json, message, sid, resent));
        } catch (RuntimeException e) {
            exchanges.remove(key, exchange);
            throw e;
        }
        if (exchange.cancelled) {
            exchange.cancel(); // cancelled before its task was known: interrupt it now
        }
        return exchange.done;
    }

    private void unreachable(Throwable error) {
        Throwable cause = Failures.unwrap(error);
        String what = cause instanceof ConnectException ? "connection refused"
                : cause instanceof HttpTimeoutException ? "timed out connecting"
                : cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        lost.accept("the server at " + endpoint.url() + " cannot be reached (" + what + ")");
    }

    /** The server answered a POST with {@code response}: what the answer means for the session and the message. */
    private CompletableFuture<Void> answered(HttpResponse<String> response, String json, JsonNode message, String sid,
                                             boolean resent) {
        int status = response.statusCode();
        if (status / 100 == 2) {
            JsonNode id = message.get("id");
            if (ModernHeaders.isModern(message) && message.has("method") && id != null && !id.isNull()) {
                // a modern request is answered on its own stream or not at all (nothing happens if it was answered)
                inbound.requestFailed(id.asText(), "the server at " + endpoint.url()
                        + " ended the response stream without an answer");
            }
            return CompletableFuture.completedFuture(null); // the body was routed as it arrived
        }
        String body = response.body() == null ? "" : Json.sample(response.body().strip(), BODY_SAMPLE_CHARS);
        String reason = "the server at " + endpoint.url() + " answered HTTP " + status + (body.isEmpty() ? "" : ": " + body);
        if (sid != null && (status == 404 || status == 400 && body.toLowerCase(java.util.Locale.ROOT).contains("session"))) {
            if (resent) {
                lost.accept(reason + " again on the new session " + sid);
                return CompletableFuture.completedFuture(null);
            }
            LOG.info("module '{}': the server forgot session {} (HTTP 404); initialising a new session", moduleId, sid);
            return renewal.renew(sid).handle((ok, e) -> {
                if (e != null) {
                    lost.accept("the server forgot session " + sid + " (HTTP 404) and initialising a new one failed: "
                            + Failures.unwrap(e).getMessage());
                    return CompletableFuture.<Void>failedFuture(Failures.unwrap(e));
                }
                return ended ? CompletableFuture.<Void>failedFuture(new CancellationException("the session ended"))
                        : post(json, message, true);
            }).thenCompose(resend -> resend);
        }
        if (status >= 500) {
            lost.accept(reason);
            return CompletableFuture.completedFuture(null);
        }
        JsonNode id = message.get("id");
        if (isErrorAnswerTo(response.body(), id)) {
            deliver(response.body()); // a JSON-RPC error (e.g. -32022 with the versions the server speaks) is the answer
            return CompletableFuture.completedFuture(null);
        }
        if (message.has("method") && id != null && !id.isNull()) {
            String text = id.asText();
            if (!renewal.refused(text, reason)) {
                inbound.requestFailed(text, reason);
            }
        } else {
            LOG.warn("module '{}': a message to the server was refused: {}", moduleId, reason);
        }
        return CompletableFuture.completedFuture(null);
    }

    /** Whether {@code body} (of a 4xx answer) is a JSON-RPC error answer to the request with {@code id}. */
    private static boolean isErrorAnswerTo(String body, JsonNode id) {
        if (body == null || id == null || id.isNull() || body.length() > 64 * 1024) {
            return false;
        }
        JsonNode answer;
        try {
            answer = Json.MAPPER.readTree(body);
        } catch (IOException e) {
            return false;
        }
        return answer != null && answer.isObject() && answer.path("error").isObject()
                && answer.path("error").path("code").isInt() && answer.path("id").asText().equals(id.asText())
                && answer.path("id").isTextual() == id.isTextual();
    }

    // ---- receiving

    /** One message of a body or SSE event: routed like a stdout line of a stdio server. */
    void deliver(String text) {
        if (ended || text.isBlank()) {
            return;
        }
        String trimmed = text.strip();
        if (trimmed.startsWith("[")) {
            try {
                for (JsonNode item : Json.MAPPER.readTree(trimmed)) {
                    deliver(item.toString());
                }
            } catch (IOException e) {
                notJsonRpc.skipped(e.getMessage(), trimmed);
            }
            return;
        }
        JSONRPCMessage message;
        try {
            message = ProcessClientTransport.parse(trimmed);
        } catch (IOException | RuntimeException e) {
            notJsonRpc.skipped(e.getMessage(), trimmed);
            return;
        }
        if (message instanceof JSONRPCResponse) {
            JSONRPCResponse response = (JSONRPCResponse) message;
            if (!renewal.answered(response)) {
                inbound.response(response);
            }
        } else if (message instanceof JSONRPCNotification) {
            inbound.notification((JSONRPCNotification) message);
        } else {
            session.dispatch(message);
        }
    }

    /** One POST and its answer stream, sent and read on one thread of the pool. */
    private final class Exchange {
        private final Object key;
        private final HttpRequest request;
        private final boolean initializing;
        /** Completes once the server answered the POST; fails when it could not be sent or was cancelled. */
        final CompletableFuture<Void> done = new CompletableFuture<>();
        private volatile Future<?> task;
        private volatile SseLines stream;
        private volatile boolean cancelled;
        /** Whether the server answered the POST (its status and headers came). */
        private volatile boolean answering;

        Exchange(Object key, HttpRequest request, boolean initializing) {
            this.key = key;
            this.request = request;
            this.initializing = initializing;
        }

        /** Sends the POST and reads its answer on this thread (the body is routed as it arrives), then settles. */
        void run(String json, JsonNode message, String sid, boolean resent) {
            HttpResponse<String> response = null;
            Throwable error = null;
            try {
                if (!cancelled) {
                    response = client.send(request, info -> body(info, initializing));
                }
            } catch (InterruptedException e) {
                error = e; // cancelled while it waited
            } catch (IOException | RuntimeException e) {
                error = e;
            }
            exchanges.remove(key, this);
            if (ended || cancelled) {
                done.completeExceptionally(new CancellationException("the exchange was cancelled"));
            } else if (error != null && ListenStream.METHOD.equals(message.path("method").asText())
                    && message.hasNonNull("id")) {
                // the listen stream is the client's own background request: it fails alone and is opened again
                // later; the calls find out whether the server is gone
                inbound.requestFailed(message.get("id").asText(), "the listen stream to " + endpoint.url()
                        + (answering ? " broke: " : " could not be opened: ") + Failures.unwrap(error));
                done.completeExceptionally(error);
            } else if (error != null) {
                unreachable(error);
                done.completeExceptionally(error);
            } else {
                answered(response, json, message, sid, resent).whenComplete((ok, e) -> {
                    if (e == null) {
                        done.complete(null);
                    } else {
                        done.completeExceptionally(e);
                    }
                });
            }
        }

        /** How the body is read: an SSE stream or a JSON body is routed as it comes; an error body is kept. */
        HttpResponse.BodySubscriber<String> body(HttpResponse.ResponseInfo info, boolean initializing) {
            answering = true;
            if (info.statusCode() / 100 != 2) {
                return HttpResponse.BodySubscribers.ofString(StandardCharsets.UTF_8);
            }
            if (initializing) {
                info.headers().firstValue("Mcp-Session-Id").ifPresent(sid -> sessionId = sid);
            }
            String type = info.headers().firstValue("Content-Type").orElse("");
            if (type.regionMatches(true, 0, "text/event-stream", 0, 17)) {
                SseLines lines = new SseLines(HttpClientTransport.this::deliver, moduleId);
                stream = lines;
                if (cancelled) {
                    lines.cancel();
                }
                return HttpResponse.BodySubscribers.fromLineSubscriber(lines, s -> null, StandardCharsets.UTF_8, null);
            }
            if (type.regionMatches(true, 0, "application/json", 0, 16)) {
                return HttpResponse.BodySubscribers.mapping(HttpResponse.BodySubscribers.ofString(StandardCharsets.UTF_8),
                        body -> {
                            deliver(body);
                            return null;
                        });
            }
            return HttpResponse.BodySubscribers.replacing(null);
        }

        void cancel() {
            cancelled = true;
            SseLines s = stream;
            if (s != null) {
                s.cancel();
            }
            Future<?> t = task;
            if (t != null) {
                t.cancel(true); // interrupts the send: the JDK client aborts the exchange
            }
            exchanges.remove(key, this);
            done.completeExceptionally(new CancellationException("the exchange was cancelled"));
        }
    }
}
