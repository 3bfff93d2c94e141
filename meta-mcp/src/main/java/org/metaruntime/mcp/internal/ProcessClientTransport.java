package org.metaruntime.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCNotification;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCRequest;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.metaruntime.supervisor.ModuleProcess;
import org.metaruntime.supervisor.ProcessExit;
import org.metaruntime.supervisor.ProcessListener;
import org.metaruntime.supervisor.ProcessSpec;
import org.metaruntime.supervisor.StopLadder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * The SDK's client transport over the runtime's own process layer: one JSON-RPC message per line, UTF-8,
 * on the child's stdin and stdout. Inbound lines are parsed on the child's stdout thread (no extra thread, no
 * scheduler hop): answers to the requests sent with {@link #sendRequest} complete their handler right there;
 * everything else (server-to-client requests, notifications) goes to the SDK client session. Outbound messages
 * go to the process layer's stdin writer, which never blocks the caller. A stdout line that is not a JSON-RPC
 * message is logged and skipped. Thread-safe.
 */
public final class ProcessClientTransport implements McpClientTransport, ProcessListener {

    private static final Logger log = LoggerFactory.getLogger(ProcessClientTransport.class);
    private static final int SAMPLE_CHARS = 120;
    private static final int MAX_DROPPED_IDS = 4096;

    /** Receives the answer to a request sent with {@link #sendRequest}; called on the child's stdout thread. */
    public interface ResponseHandler {
        /** The answer, a result or a JSON-RPC error. */
        void onResponse(JSONRPCResponse response);
    }

    /** What the owner of the transport hears about the process. */
    public interface Events {
        /** The child's stdout reached EOF. */
        void stdoutClosed();

        /** The child exited. */
        void exited(ProcessExit exit);
    }

    private final String moduleId;
    private final Events events;
    private final Map<String, Boolean> droppedIds = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > MAX_DROPPED_IDS;
        }
    };
    private final ConcurrentHashMap<String, ResponseHandler> pending = new ConcurrentHashMap<>();
    private final AtomicLong nextId = new AtomicLong();
    private final AtomicLong droppedAnswers = new AtomicLong();
    private volatile ModuleProcess process;
    private volatile boolean ended;
    private volatile Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler;

    /** A transport for {@code moduleId} that reports the child's end to {@code events}; nothing is spawned yet. */
    public ProcessClientTransport(String moduleId, Events events) {
        this.moduleId = moduleId;
        this.events = events;
    }

    /** Spawns the child; throws the process layer's exception when it cannot be started. */
    public void start(ProcessSpec spec) {
        process = ModuleProcess.start(spec, this);
    }

    /** The running child (after {@link #start}). */
    public ModuleProcess process() {
        return process;
    }

    @Override
    public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
        if (this.handler != null) {
            return Mono.error(new IllegalStateException("the transport of module '" + moduleId + "' is already connected"));
        }
        this.handler = handler;
        return Mono.empty();
    }

    @Override
    public Mono<Void> sendMessage(JSONRPCMessage message) {
        return Mono.defer(() -> {
            try {
                process.send(Json.MAPPER.writeValueAsString(message));
                return Mono.empty();
            } catch (IOException | RuntimeException e) {
                return Mono.error(e);
            }
        });
    }

    @Override
    public Mono<Void> closeGracefully() {
        ModuleProcess p = process;
        return p == null ? Mono.empty() : Mono.fromFuture(() -> p.stopAsync(StopLadder.defaults())).then();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
        if (typeRef.getType() == JsonNode.class) {
            return (T) (data instanceof JsonNode ? data : Json.MAPPER.valueToTree(data));
        }
        return Json.MCP_MAPPER.convertValue(data, typeRef);
    }

    /** A fresh request id ({@code meta-<n>}); it never collides with the SDK session's ids. */
    public String nextId() {
        return "meta-" + nextId.incrementAndGet();
    }

    /**
     * Sends a request whose answer goes straight to {@code handler} on the stdout thread. Requests go this way
     * rather than through the session's {@code sendRequest}, which arms a timer on Reactor's global parallel
     * scheduler for every request and offers neither a per-call deadline nor cancellation.
     *
     * @throws RuntimeException when the request cannot be written (the process layer's exception)
     */
    public void sendRequest(String id, String method, Object params, ResponseHandler handler) {
        pending.put(id, handler);
        try {
            process.send(Json.MAPPER.writeValueAsString(new JSONRPCRequest(McpSchema.JSONRPC_VERSION, method, id, params)));
        } catch (IOException e) {
            pending.remove(id);
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            pending.remove(id);
            throw e;
        }
    }

    /** Forgets request {@code id}: a late answer from the server is dropped without a warning. */
    public void abandon(String id) {
        if (pending.remove(id) != null) {
            synchronized (droppedIds) {
                droppedIds.put(id, Boolean.TRUE);
            }
        }
    }

    /** How many late answers to abandoned requests were dropped. */
    public long droppedAnswers() {
        return droppedAnswers.get();
    }

    /** The session ended: forgets every request in flight and drops whatever the server still sends. */
    public void shutdown() {
        ended = true;
        pending.clear();
    }

    // ---- ProcessListener (called on the child's stdout thread, or the exit thread for onExit)

    @Override
    public void onLine(String line) {
        if (line.isEmpty()) {
            return;
        }
        if (ended) {
            log.debug("module '{}': dropped a line that arrived after the session ended", moduleId);
            return;
        }
        JSONRPCMessage message;
        try {
            message = parse(line);
        } catch (IOException | RuntimeException e) {
            log.warn("module '{}': skipped a stdout line that is not a JSON-RPC message ({}): {}",
                    moduleId, e.getClass().getSimpleName(), Json.sample(line, SAMPLE_CHARS));
            return;
        }
        if (message instanceof JSONRPCResponse) {
            JSONRPCResponse response = (JSONRPCResponse) message;
            Object id = response.id();
            ResponseHandler h = id instanceof String ? pending.remove(id) : null;
            if (h != null) {
                try {
                    h.onResponse(response);
                } catch (RuntimeException e) {
                    log.warn("module '{}': handling the answer to {} failed: {}", moduleId, id, e.toString());
                }
                return;
            }
            boolean dropped;
            synchronized (droppedIds) {
                dropped = id instanceof String && droppedIds.remove(id) != null;
            }
            if (dropped) {
                droppedAnswers.incrementAndGet();
                log.debug("module '{}': dropped the late answer to abandoned request {}", moduleId, id);
                return;
            }
        }
        dispatch(message);
    }

    @Override
    public void onLineTooLong(int limit) {
        log.warn("module '{}': skipped a stdout line longer than {} bytes", moduleId, limit);
    }

    @Override
    public void onStdoutError(IOException e) {
        log.warn("module '{}': reading stdout failed: {}", moduleId, e.toString());
    }

    @Override
    public void onStdoutClosed() {
        events.stdoutClosed();
    }

    @Override
    public void onExit(ProcessExit exit) {
        events.exited(exit);
    }

    private void dispatch(JSONRPCMessage message) {
        Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> h = handler;
        if (h == null) {
            log.debug("module '{}': dropped a message that arrived before the session started", moduleId);
            return;
        }
        h.apply(Mono.just(message)).subscribe(null,
                e -> log.warn("module '{}': handling a message failed: {}", moduleId, e.toString()));
    }

    /** Parses one line into a JSON-RPC message; params and results stay as Jackson trees. */
    static JSONRPCMessage parse(String line) throws IOException {
        JsonNode node = Json.MAPPER.readTree(line);
        if (node == null || !node.isObject()) {
            throw new IOException("not a JSON object");
        }
        String jsonrpc = node.path("jsonrpc").asText(McpSchema.JSONRPC_VERSION);
        JsonNode method = node.get("method");
        JsonNode id = node.get("id");
        if (method != null) {
            if (!method.isTextual()) {
                throw new IOException("method is not a string");
            }
            JsonNode params = node.get("params");
            if (id == null || id.isNull()) {
                return new JSONRPCNotification(jsonrpc, method.textValue(), params);
            }
            return new JSONRPCRequest(jsonrpc, method.textValue(), idValue(id),
                    params == null || params.isNull() ? Json.MAPPER.createObjectNode() : params);
        }
        if (id == null || id.isNull()) {
            throw new IOException("neither a request, a notification nor a response");
        }
        JsonNode error = node.get("error");
        if (error != null && !error.isNull()) {
            return new JSONRPCResponse(jsonrpc, idValue(id), null, new JSONRPCResponse.JSONRPCError(
                    error.path("code").asInt(McpSchema.ErrorCodes.INTERNAL_ERROR),
                    error.path("message").asText(""), error.get("data")));
        }
        if (!node.has("result")) {
            throw new IOException("a response without result or error");
        }
        return new JSONRPCResponse(jsonrpc, idValue(id), node.get("result"), null);
    }

    private static Object idValue(JsonNode id) throws IOException {
        if (id.isTextual()) {
            return id.textValue();
        }
        if (id.isIntegralNumber()) {
            return id.canConvertToLong() ? (Object) id.longValue() : id.bigIntegerValue();
        }
        throw new IOException("id is neither a string nor an integer");
    }
}
