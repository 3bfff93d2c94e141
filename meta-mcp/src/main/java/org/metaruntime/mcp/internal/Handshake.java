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
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpBoundaryException;
import org.metaruntime.mcp.McpClientOptions;
import org.metaruntime.mcp.McpProtocolEra;
import org.metaruntime.supervisor.internal.Failures;

/**
 * The MCP handshake: {@code initialize} with the client's capabilities, a check of the server's answer (a valid
 * result in a protocol version this client speaks), then {@code notifications/initialized}; or, with a server that
 * may speak bare JSON-RPC 2.0, the finding that it does (its answer is not an MCP initialize result). The handshake is
 * done once the server took the notification, where the wire can tell (an HTTP server answered its {@code POST}): a
 * server that registers its tools when it is initialized lists them to the first {@code tools/list}. That wait is
 * bounded by the handshake's deadline like {@code initialize} (a {@code Timeout} with operation {@code connect}).
 * Stateless.
 */
public final class Handshake {

    /** The protocol versions this client accepts from a server; the first is the one it offers. */
    public static final List<String> PROTOCOL_VERSIONS = List.of(ProtocolVersions.MCP_2025_11_25,
            ProtocolVersions.MCP_2025_06_18, ProtocolVersions.MCP_2025_03_26, ProtocolVersions.MCP_2024_11_05);

    /** The client's name, as servers are told it. */
    public static final String CLIENT_NAME = "meta-runtime";
    /** The client's version, as servers are told it. */
    public static final String CLIENT_VERSION = "0.1.0";

    private static final Implementation CLIENT_INFO = Implementation.builder(CLIENT_NAME, CLIENT_VERSION).build();

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
     * What the handshake with a server found: its initialize result, or (a server that may be bare) why it is taken
     * for a bare JSON-RPC server ({@code init} is then null).
     */
    public record Outcome(InitializeResult init, String bareBecause) {
    }

    /**
     * Runs the handshake through {@code window} within the deadline; fails with {@code ConnectionFailed} or
     * {@code Timeout} with operation {@code connect}.
     */
    public static CompletableFuture<InitializeResult> run(CallWindow window, CallWindow.Wire wire, McpClientOptions options,
                                                          long timeoutMs, long deadline) {
        return negotiate(window, wire, options, timeoutMs, deadline, false).thenApply(Outcome::init);
    }

    /**
     * Runs the handshake with a server that may speak bare JSON-RPC 2.0 instead. It is taken for a bare server, and
     * sent nothing more, when it answers {@code initialize} with a JSON-RPC error or with a result that is not an MCP
     * initialize result, or does not answer by {@link #detectionBound} (the rest is left for its start to end);
     * otherwise as {@link #run}.
     */
    public static CompletableFuture<Outcome> runOrBare(CallWindow window, CallWindow.Wire wire, McpClientOptions options,
                                                       long timeoutMs, long deadline) {
        return runOrBareWithin(window, wire, options, detectionBound(timeoutMs), deadline);
    }

    /** {@link #runOrBare} with the server given {@code bound} ms to answer {@code initialize} as an MCP server. */
    public static CompletableFuture<Outcome> runOrBareWithin(CallWindow window, CallWindow.Wire wire,
                                                             McpClientOptions options, long bound, long deadline) {
        return negotiate(window, wire, options, bound,
                Math.min(deadline, window.now() + TimeUnit.MILLISECONDS.toNanos(bound)), true);
    }

    /**
     * How long a server that may be bare has to answer {@code initialize} out of a connect timeout of {@code timeoutMs}:
     * all but its last second, and at least half of it.
     */
    public static long detectionBound(long timeoutMs) {
        return Math.max(1, Math.max(timeoutMs / 2, timeoutMs - 1000));
    }

    private static CompletableFuture<Outcome> negotiate(CallWindow window, CallWindow.Wire wire, McpClientOptions options,
                                                        long timeoutMs, long deadline, boolean bareAllowed) {
        InitializeRequest request = InitializeRequest.builder(PROTOCOL_VERSIONS.get(0), capabilities(options), CLIENT_INFO)
                .build();
        ObjectNode params = Json.MAPPER.valueToTree(request);
        Request r = window.create(Request.Kind.CONNECT, McpSchema.METHOD_INITIALIZE, "connect", null, params,
                timeoutMs, deadline, null);
        window.submit(r);
        return r.future().handle((result, failure) -> {
            if (failure != null) {
                Throwable cause = Failures.unwrap(failure);
                if (!bareAllowed && Request.isErrorAnswer(cause) && refusesEveryLegacyVersion(r)) {
                    throw new McpBoundaryException(new McpBoundaryError.UnsupportedProtocol(window.moduleId(),
                            McpProtocolEra.LEGACY, Discovery.versions(r.errorData().get("supported"))), cause);
                }
                if (bareAllowed && Request.isErrorAnswer(cause)) {
                    String reason = ((McpBoundaryError.ConnectionFailed) ((McpBoundaryException) cause).error()).reason();
                    String sample = Json.sample(reason, 200).replaceAll("\\p{Cntrl}", " ");
                    return CompletableFuture.completedFuture(new Outcome(null, "it answered initialize with " + sample));
                }
                if (bareAllowed && cause instanceof McpBoundaryException e && e.error() instanceof McpBoundaryError.Timeout) {
                    return CompletableFuture.completedFuture(
                            new Outcome(null, "it did not answer initialize within " + timeoutMs + " ms"));
                }
                throw failure instanceof CompletionException c ? c : new CompletionException(failure);
            }
            if (!isInitializeResult(result)) {
                String answered = "answered initialize with " + Json.sample(String.valueOf(result), 200);
                if (bareAllowed) {
                    return CompletableFuture.completedFuture(new Outcome(null, "it " + answered));
                }
                throw new McpBoundaryException(new McpBoundaryError.ConnectionFailed(window.moduleId(), "the server "
                        + answered + ", which is not an MCP initialize result (it has no protocolVersion)"));
            }
            InitializeResult init = validated(window.moduleId(), result);
            return initialized(window, wire, timeoutMs, deadline).thenApply(taken -> new Outcome(init, null));
        }).thenCompose(outcome -> outcome);
    }

    /**
     * Whether the server's error answer to {@code initialize} says it speaks no legacy version: its {@code data.supported}
     * lists versions and none of them is one this client speaks in {@code initialize}.
     */
    private static boolean refusesEveryLegacyVersion(Request initialize) {
        JsonNode data = initialize.errorData();
        List<String> supported = Discovery.versions(data == null ? null : data.get("supported"));
        return !supported.isEmpty() && supported.stream().noneMatch(PROTOCOL_VERSIONS::contains);
    }

    /** An MCP initialize result names its protocol version; a bare server's answer to any request does not. */
    private static boolean isInitializeResult(JsonNode result) {
        return result != null && result.path("protocolVersion").isTextual() && !result.path("protocolVersion").textValue().isEmpty();
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
