package org.metaruntime.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.ClientCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Implementation;
import io.modelcontextprotocol.spec.McpSchema.InitializeRequest;
import io.modelcontextprotocol.spec.McpSchema.InitializeResult;
import io.modelcontextprotocol.spec.ProtocolVersions;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpBoundaryException;
import org.metaruntime.mcp.McpClientOptions;

/**
 * The MCP handshake: {@code initialize} with the client's capabilities, a check of the server's answer (a valid
 * result in a protocol version this client speaks), then {@code notifications/initialized}. The handshake is done once
 * the server took the notification, where the wire can tell (an HTTP server answered its {@code POST}): a server that
 * registers its tools when it is initialized lists them to the first {@code tools/list}. That wait is bounded by the
 * handshake's deadline like {@code initialize} (a {@code Timeout} with operation {@code connect}). Stateless.
 */
public final class Handshake {

    /** The protocol versions this client accepts from a server; the first is the one it offers. */
    public static final List<String> PROTOCOL_VERSIONS = List.of(ProtocolVersions.MCP_2025_11_25,
            ProtocolVersions.MCP_2025_06_18, ProtocolVersions.MCP_2025_03_26, ProtocolVersions.MCP_2024_11_05);

    private static final Implementation CLIENT_INFO = Implementation.builder("meta-runtime", "0.1.0").build();

    private Handshake() {
    }

    /** The capabilities announced for {@code options}: roots always; sampling and elicitation when answered. */
    public static ClientCapabilities capabilities(McpClientOptions options) {
        ClientCapabilities.Builder capabilities = ClientCapabilities.builder().roots(false);
        if (options.samplingHandler().isPresent() || options.announceSampling()) {
            capabilities.sampling();
        }
        if (options.elicitationHandler().isPresent() || options.announceElicitation()) {
            capabilities.elicitation();
        }
        return capabilities.build();
    }

    /**
     * Runs the handshake through {@code window} within the deadline; fails with {@code ConnectionFailed} or
     * {@code Timeout} with operation {@code connect}.
     */
    public static CompletableFuture<InitializeResult> run(CallWindow window, CallWindow.Wire wire, McpClientOptions options,
                                                          long timeoutMs, long deadline) {
        InitializeRequest request = InitializeRequest.builder(PROTOCOL_VERSIONS.get(0), capabilities(options), CLIENT_INFO)
                .build();
        ObjectNode params = Json.MAPPER.valueToTree(request);
        Request r = window.create(Request.Kind.CONNECT, McpSchema.METHOD_INITIALIZE, "connect", null, params,
                timeoutMs, deadline, null);
        window.submit(r);
        return r.future().thenCompose(result -> {
            InitializeResult init = validated(window.moduleId(), result);
            return initialized(window, wire, timeoutMs, deadline).thenApply(taken -> init);
        });
    }

    /** Sends {@code notifications/initialized}; completes once the server took it, by the deadline. */
    private static CompletableFuture<?> initialized(CallWindow window, CallWindow.Wire wire, long timeoutMs,
                                                    long deadline) {
        CompletableFuture<Void> taken;
        try {
            taken = wire.notify("{\"jsonrpc\":\"2.0\",\"method\":\"" + McpSchema.METHOD_NOTIFICATION_INITIALIZED + "\"}");
        } catch (RuntimeException e) {
            // the process is gone: the session's end fails the next request with the exit code and stderr tail
            return CompletableFuture.completedFuture(null);
        }
        if (taken.isDone() && !taken.isCompletedExceptionally()) {
            return taken; // a pipe: written
        }
        // waited for like a request of the handshake: the same deadline, the same Timeout
        Request wait = window.create(Request.Kind.CONNECT, McpSchema.METHOD_NOTIFICATION_INITIALIZED, "connect", null,
                Json.MAPPER.createObjectNode(), timeoutMs, deadline, null);
        taken.whenComplete((ok, e) -> {
            if (e == null) {
                wait.succeed(NullNode.getInstance());
            } else {
                Throwable cause = Failures.unwrap(e);
                wait.fail("the server did not take notifications/initialized: "
                        + (cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage()));
            }
        });
        return wait.future();
    }

    private static InitializeResult validated(String moduleId, JsonNode result) {
        InitializeResult init;
        try {
            init = Json.MCP_MAPPER.convertValue(result, InitializeResult.class);
        } catch (RuntimeException e) {
            throw new McpBoundaryException(new McpBoundaryError.ConnectionFailed(moduleId,
                    "the server sent an invalid initialize result: " + e.getMessage()), e);
        }
        if (init.protocolVersion() == null || !PROTOCOL_VERSIONS.contains(init.protocolVersion())) {
            throw new McpBoundaryException(new McpBoundaryError.ConnectionFailed(moduleId,
                    "the server speaks protocol version " + init.protocolVersion() + ", supported: " + PROTOCOL_VERSIONS));
        }
        return init;
    }
}
