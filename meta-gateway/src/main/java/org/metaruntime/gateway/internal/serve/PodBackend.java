package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.supervisor.InFlight;

/**
 * What the gateway needs of the runtime that runs its pods: start, call, ask, report. One implementation
 * per runtime kind; thread-safe.
 */
public interface PodBackend extends AutoCloseable {

    /** The pod called {@code name}. */
    Pod pod(String name);

    /** Tells {@code listener} about what pods do on their own (tool list changes, log lines, ...). */
    void listen(PodListener listener);

    /** Answers the pods' {@code __mcp_meta_call__} requests with {@code handler}. */
    void servePodCalls(PodCallHandler handler);

    /** Answers one pod's request to call another registered tool. */
    @FunctionalInterface
    interface PodCallHandler {
        /**
         * @param pod    the pod that asked
         * @param params the request's params
         * @param outer  the call of that pod the request belongs to
         * @return the target's {@code CallToolResult}, or fails with an {@code RpcException}; never blocks
         */
        CompletableFuture<JsonNode> call(String pod, JsonNode params, Outer outer);
    }

    /**
     * The call a pod's request belongs to: the one its {@code _meta["mcp-meta/call"]} names when that is in flight at
     * the pod, else the pod's only call in flight, else its oldest.
     *
     * @param call      that call; null when the pod has none in flight
     * @param ambiguous whether the request names no call in flight while the pod has calls in flight of more than one
     *                  principal ({@code call} is then the oldest)
     */
    record Outer(CallContext call, boolean ambiguous) {
        /** No call in flight. */
        public static final Outer NONE = new Outer(null, false);
    }

    /** Stops every pod (each bounded by its shutdown timeout) and releases the runtime. */
    @Override
    void close();

    /** One pod. */
    interface Pod {

        String name();

        /** Whether a session with it is up now. */
        boolean running();

        /**
         * Starts it now (a pre-warm); completes when it is up, or exceptionally with a {@link PodFailure} when it
         * failed to start. Concurrent starts and first calls share one spawn.
         */
        CompletableFuture<Void> start();

        /** Its tools as it listed them (MCP {@code Tool} objects), empty when it has not run yet. */
        List<ObjectNode> liveTools();

        /**
         * Starts one {@code tools/call} (spawning the pod first when needed) and returns at once. The result future
         * completes with the whole {@code CallToolResult}, or fails with a {@link PodFailure}; a cancel sends the pod
         * {@code notifications/cancelled}.
         */
        InFlight<JsonNode> call(String tool, JsonNode arguments, CallContext context);

        /**
         * Sends a request of the MCP surface other than {@code tools/call} (resources, prompts, completion, ping, and
         * to a task-capable pod {@code tasks/get}, {@code tasks/update}, {@code tasks/cancel})
         * to the pod when it is running; fails with a {@link PodFailure}.
         */
        CompletableFuture<JsonNode> request(String method, JsonNode params, Duration timeout);

        /** What the status report shows of it. */
        PodState state();

        /** The protocol revision its process spoke when it last came up; null when unknown or bare JSON-RPC. */
        default String era() {
            return null;
        }

        /**
         * Whether it is running and offers the tasks extension (a modern pod whose {@code DiscoverResult} advertises
         * it); read from what it announced when it last came up, without asking it.
         */

        default boolean taskCapable() {
            return false;
        }

        /** Whether it is served as a bare JSON-RPC pod (declared so, or found so when it started): its tools are not pinned. */
        default boolean bare() {
            return false;
        }
    }

    /**
     * What one call carries besides its arguments.
     *
     * @param callId        the gateway's id of the call, sent as {@code _meta["mcp-meta/call"]}
     * @param timeout       the call's bound
     * @param onProgress    the pod's progress notifications ({@code progress}, {@code total}, {@code message})
     * @param clientRequest the pod's requests during the call (sampling, elicitation, roots), by method, to the
     *                      calling client; completes with the client's result or fails with an RPC error
     * @param scope         the call's chain (sent as {@code _meta["mcp-meta/chain"]}), deadline and nested calls;
     *                      ended by the backend when the call ends
     * @param modernMeta    what a modern pod's call carries in {@code _meta} for the calling client: the capabilities
     *                      it declared ({@code clientCapabilities}) and its {@code logLevel}; null for none (the
     *                      gateway's own calls)
     */
    record CallContext(String callId, Duration timeout, Consumer<ObjectNode> onProgress,
                       Function<ObjectNode, CompletableFuture<JsonNode>> clientRequest, CallScope scope,
                       ObjectNode modernMeta) {

        /** A call on no client's behalf as far as a modern pod is concerned. */
        public CallContext(String callId, Duration timeout, Consumer<ObjectNode> onProgress,
                           Function<ObjectNode, CompletableFuture<JsonNode>> clientRequest, CallScope scope) {
            this(callId, timeout, onProgress, clientRequest, scope, null);
        }
    }

    /** A pod's state for the status report. */
    record PodState(String state, OptionalLong pid, int restarts, String lastError, String stderrTail) {
    }

    /** Why a pod could not answer. */
    final class PodFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        /**
         * What went wrong, and the gateway's one table from it to the JSON-RPC error code a client is answered with
         * (the runtime's errors reach a kind in {@link PodErrors}).
         */
        public enum Kind {
            /** The call or request ran out of time: -32001. */
            TIMEOUT(JsonRpc.TIMEOUT),
            /** The pod is not available (crashed, stopped, restarting, not served): -32002. */
            UNAVAILABLE(JsonRpc.UNAVAILABLE),
            /** The pod failed to start: -32003. */
            START_FAILED(JsonRpc.START_FAILED),
            /** The call was cancelled: -32603. */
            CANCELLED(JsonRpc.INTERNAL_ERROR),
            /** The pod has no such tool: -32602. */
            UNKNOWN_TOOL(JsonRpc.INVALID_PARAMS),
            /** The arguments do not fit the tool: -32602. */
            INVALID_ARGUMENTS(JsonRpc.INVALID_PARAMS),
            /** The pod answered with a JSON-RPC error: its own code ({@link PodFailure#errorCode()}). */
            ERROR_ANSWER(0),
            /** Anything else: -32603. */
            FAILED(JsonRpc.INTERNAL_ERROR);

            private final int rpcCode;

            Kind(int rpcCode) {
                this.rpcCode = rpcCode;
            }

            /** The JSON-RPC error code of this kind; for {@link #ERROR_ANSWER} use the pod's own code. */
            public int rpcCode() {
                return rpcCode;
            }
        }

        private final Kind kind;
        private final OptionalInt exitCode;
        private final String stderrTail;
        private final transient JsonNode errorData;
        private final int errorCode;

        public PodFailure(Kind kind, String reason, OptionalInt exitCode, String stderrTail) {
            this(kind, reason, exitCode, stderrTail, 0, null);
        }

        public PodFailure(Kind kind, String reason, OptionalInt exitCode, String stderrTail, int errorCode, JsonNode errorData) {
            super(reason, null, false, false);
            this.kind = kind;
            this.exitCode = exitCode;
            this.stderrTail = stderrTail == null ? "" : stderrTail;
            this.errorCode = errorCode;
            this.errorData = errorData;
        }

        public Kind kind() {
            return kind;
        }

        public OptionalInt exitCode() {
            return exitCode;
        }

        public String stderrTail() {
            return stderrTail;
        }

        /** The JSON-RPC error code a client is answered with: the pod's own for {@link Kind#ERROR_ANSWER}. */
        public int rpcCode() {
            return kind == Kind.ERROR_ANSWER ? errorCode : kind.rpcCode();
        }

        /** For {@link Kind#ERROR_ANSWER}: the pod's JSON-RPC error code. */
        public int errorCode() {
            return errorCode;
        }

        /** For {@link Kind#ERROR_ANSWER}: the pod's error data, or null. */
        public JsonNode errorData() {
            return errorData;
        }
    }
}
