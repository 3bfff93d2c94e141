package org.metaruntime.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCNotification;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCRequest;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import java.io.IOException;
import java.util.function.Function;
import org.metaruntime.mcp.McpConnection;
import org.metaruntime.supervisor.ModuleProcess;
import org.metaruntime.supervisor.OversizedLine;
import org.metaruntime.supervisor.ProcessExit;
import org.metaruntime.supervisor.ProcessListener;
import org.metaruntime.supervisor.ProcessSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * The SDK's client transport over the runtime's own process layer: one JSON-RPC message per line, UTF-8,
 * on the child's stdin and stdout. Inbound lines are parsed on the child's stdout thread (no extra thread, no
 * scheduler hop): answers go to the connection's {@link CallWindow} (through {@link Inbound#response}),
 * notifications to {@link Inbound#notification}, and the server's requests to the SDK client session, which
 * answers them. Outbound messages go to the process layer's stdin writer, which never blocks the caller; each
 * answer tells it that the server has read the request's line, so that the next request can be written on the
 * caller's thread when the pipe is empty. A
 * stdout line that is not a JSON-RPC message, or over the size limit, is skipped and logged within bounds
 * ({@link SkippedMessages}): a server flooding its stdout costs a few log entries. Thread-safe.
 */
public final class ProcessClientTransport implements SessionTransport, ProcessListener {

    private static final Logger log = LoggerFactory.getLogger(McpConnection.class);

    /** What the connection hears from the server and its process; called on the stdout thread (exit: exit thread). */
    public interface Inbound {
        /** An answer to one of the connection's requests. */
        void response(JSONRPCResponse response);

        /** A notification from the server. */
        void notification(JSONRPCNotification notification);

        /** A stdout line over {@code limit} bytes was skipped; {@code knownId} is its JSON-RPC id if readable. */
        void lineTooLong(int limit, String knownId);

        /** A request could not be delivered, or the server refused it ({@code reason}); it fails alone. */
        default void requestFailed(String id, String reason) {
        }

        /** The child's stdout reached EOF. */
        void stdoutClosed();

        /** The child exited. */
        void exited(ProcessExit exit);
    }

    private final String moduleId;
    private volatile Inbound inbound;
    private volatile ModuleProcess process;
    private volatile boolean ended;
    private final SdkSessionLink session;
    private final SkippedMessages notJsonRpc;
    private final SkippedMessages oversized;

    /** A transport for {@code moduleId}; nothing is spawned yet. */
    public ProcessClientTransport(String moduleId) {
        this.moduleId = moduleId;
        this.session = new SdkSessionLink(moduleId);
        this.notJsonRpc = new SkippedMessages(moduleId, "a stdout line that is not a JSON-RPC message",
                "stdout lines that are not JSON-RPC messages");
        this.oversized = new SkippedMessages(moduleId, "a stdout line over the size limit",
                "stdout lines over the size limit");
    }

    /** Spawns the child, reporting to {@code inbound}; throws the process layer's exception when it cannot start. */
    public void start(ProcessSpec spec, Inbound inbound) {
        this.inbound = inbound;
        process = ModuleProcess.start(spec, this);
    }

    /** The running child (after {@link #start}). */
    public ModuleProcess process() {
        return process;
    }

    @Override
    public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
        return session.connect(handler);
    }

    @Override
    public Mono<Void> sendMessage(JSONRPCMessage message) {
        return SdkSessionLink.send(message, json -> process.send(json));
    }

    @Override
    public Mono<Void> closeGracefully() {
        // the connection stops the process itself, with its own ladder and timeout
        return Mono.empty();
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
        return SdkSessionLink.unmarshal(data, typeRef);
    }

    // ---- CallWindow.Wire

    @Override
    public long write(String json) {
        return process.send(json);
    }

    @Override
    public void answered(long line) {
        process.acknowledge(line);
    }

    @Override
    public boolean alive() {
        return process.isAlive();
    }

    /** The session ended: whatever the server still sends is dropped. */
    @Override
    public void shutdown() {
        ended = true;
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
            notJsonRpc.skipped(e.getMessage(), line);
            return;
        }
        if (message instanceof JSONRPCResponse) {
            inbound.response((JSONRPCResponse) message);
        } else if (message instanceof JSONRPCNotification) {
            inbound.notification((JSONRPCNotification) message);
        } else {
            dispatch(message);
        }
    }

    @Override
    public void onOversizedLine(OversizedLine line) {
        LineHead.Facts facts = LineHead.read(line.head());
        oversized.skipped(line.length() + " bytes, over the limit of " + line.limit() + " bytes"
                + (facts.id() == null ? "" : ", id " + facts.id()), line.head());
        if (!ended && !facts.hasMethod()) {
            inbound.lineTooLong(line.limit(), facts.id());
        }
    }

    @Override
    public void onStdoutError(IOException e) {
        log.warn("module '{}': reading stdout failed: {}", moduleId, e.toString());
    }

    @Override
    public void onStdoutClosed() {
        notJsonRpc.flush();
        oversized.flush();
        inbound.stdoutClosed();
    }

    @Override
    public void onExit(ProcessExit exit) {
        inbound.exited(exit);
    }

    private void dispatch(JSONRPCMessage message) {
        session.dispatch(message);
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
