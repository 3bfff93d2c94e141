package org.metaruntime.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.ClientCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Implementation;
import io.modelcontextprotocol.spec.McpSchema.InitializeRequest;
import io.modelcontextprotocol.spec.McpSchema.InitializeResult;
import io.modelcontextprotocol.spec.ProtocolVersions;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpBoundaryException;
import org.metaruntime.mcp.McpClientOptions;

/**
 * The MCP handshake: {@code initialize} with the client's capabilities, a check of the server's answer (a valid
 * result in a protocol version this client speaks), then {@code notifications/initialized}; or, with a server that
 * may speak bare JSON-RPC 2.0, the finding that it does (its answer is not an MCP initialize result). Stateless.
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
        return negotiate(window, wire, options, timeoutMs, deadline, false);
    }

    /**
     * Runs the handshake with a server that may speak bare JSON-RPC 2.0 instead: completes with null, and sends
     * nothing more, when {@code initialize} is answered with a JSON-RPC error or with a result that is not an MCP
     * initialize result; otherwise as {@link #run}.
     */
    public static CompletableFuture<InitializeResult> runOrBare(CallWindow window, CallWindow.Wire wire,
                                                                McpClientOptions options, long timeoutMs, long deadline) {
        return negotiate(window, wire, options, timeoutMs, deadline, true);
    }

    private static CompletableFuture<InitializeResult> negotiate(CallWindow window, CallWindow.Wire wire,
                                                                 McpClientOptions options, long timeoutMs, long deadline,
                                                                 boolean bareAllowed) {
        InitializeRequest request = InitializeRequest.builder(PROTOCOL_VERSIONS.get(0), capabilities(options), CLIENT_INFO)
                .build();
        ObjectNode params = Json.MAPPER.valueToTree(request);
        Request r = window.create(Request.Kind.CONNECT, McpSchema.METHOD_INITIALIZE, "connect", null, params,
                timeoutMs, deadline, null);
        window.submit(r);
        return r.future().handle((result, failure) -> {
            if (failure != null) {
                if (bareAllowed && Request.isErrorAnswer(Failures.unwrap(failure))) {
                    return null;
                }
                throw failure instanceof CompletionException c ? c : new CompletionException(failure);
            }
            if (!isInitializeResult(result)) {
                if (bareAllowed) {
                    return null;
                }
                throw new McpBoundaryException(new McpBoundaryError.ConnectionFailed(window.moduleId(),
                        "the server answered initialize with " + Json.sample(String.valueOf(result), 200)
                                + ", which is not an MCP initialize result (it has no protocolVersion)"));
            }
            InitializeResult init = validated(window.moduleId(), result);
            try {
                wire.write("{\"jsonrpc\":\"2.0\",\"method\":\"" + McpSchema.METHOD_NOTIFICATION_INITIALIZED + "\"}");
            } catch (RuntimeException e) {
                // the process is gone: the session's end fails the next request with the exit code and stderr tail
            }
            return init;
        });
    }

    /** An MCP initialize result names its protocol version; a bare server's answer to any request does not. */
    private static boolean isInitializeResult(JsonNode result) {
        return result != null && result.path("protocolVersion").isTextual() && !result.path("protocolVersion").textValue().isEmpty();
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
