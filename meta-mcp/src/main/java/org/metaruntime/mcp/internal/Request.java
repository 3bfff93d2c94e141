package org.metaruntime.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpBoundaryException;
import org.metaruntime.mcp.McpCallOptions;
import org.metaruntime.mcp.McpConnection;
import org.metaruntime.mcp.McpProgress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One JSON-RPC request of a connection, from its creation (its deadline armed at once, so the wait for a slot
 * counts) to its one outcome: an answer, a JSON-RPC error, a timeout, a cancel, or the end of the session.
 * The first outcome wins; claiming it frees the request's in-flight slot at once, and the request's
 * {@link #future()} is completed on its {@link SerialLane}, after any progress update delivered before.
 * Thread-safe.
 */
public final class Request {

    private static final Logger LOG = LoggerFactory.getLogger(McpConnection.class);

    /** How the reason of a connect or list failure that is the server's JSON-RPC error answer begins. */
    private static final String ERROR_ANSWER = "JSON-RPC error ";

    /** What the request is, which decides the error records of its failures. */
    public enum Kind {
        /** {@code initialize}. */
        CONNECT,
        /** {@code tools/list}. */
        LIST,
        /** {@code tools/call}: holds one of the window's slots. */
        CALL,
        /** Any other request of the MCP surface (resources, prompts, completion). */
        SURFACE
    }

    private final CallWindow window;
    private final Kind kind;
    private final String method;
    private final String operation;
    private final String tool;
    private final ObjectNode params;
    private final long timeoutMs;
    private final long timeoutNanos;
    private final McpCallOptions callOptions;
    private final String progressToken;
    private final CompletableFuture<JsonNode> future = new CompletableFuture<>();
    private final SerialLane lane = new SerialLane();
    private final AtomicBoolean finished = new AtomicBoolean();
    private volatile String requestId;
    /** The deadline (on the window's clock); a request without a timer is expired by its waiting caller. */
    private volatile long deadline;
    private final boolean timed;
    /** Guarded by the window's slot lock. */
    boolean holdsSlot;
    /** The data of the server's error answer, if any. */
    private volatile JsonNode errorData;
    /** Rounds of input the server asked for so far; only touched on the answering thread, one round at a time. */
    private volatile int rounds;
    /** Over-limit lines the window had skipped when this request was sent. */
    volatile long overLimitAtSend;
    /** The request's line number on the server's stdin (0 when the wire has none); guarded by this. */
    long wireLine;

    Request(CallWindow window, Kind kind, String method, String operation, String tool, ObjectNode params,
            long timeoutMs, long timeoutNanos, McpCallOptions callOptions, String progressToken, boolean timed) {
        this.window = window;
        this.kind = kind;
        this.method = method;
        this.operation = operation;
        this.tool = tool;
        this.params = params;
        this.timeoutMs = timeoutMs;
        this.timeoutNanos = timeoutNanos;
        this.callOptions = callOptions;
        this.progressToken = progressToken;
        this.timed = timed;
    }

    /** Completes with the raw JSON-RPC {@code result}, or fails with a {@link McpBoundaryException}. */
    public CompletableFuture<JsonNode> future() {
        return future;
    }

    /** The lane on which this request's progress and outcome are delivered. */
    public SerialLane lane() {
        return lane;
    }

    /** The module the request goes to. */
    public String moduleId() {
        return window.moduleId();
    }

    /** The request's kind. */
    public Kind kind() {
        return kind;
    }

    /** The operation name used in errors, e.g. {@code call_tool:echo}. */
    public String operation() {
        return operation;
    }

    /** The tool of a {@code tools/call}, else null. */
    public String tool() {
        return tool;
    }

    /** The call's options (null for requests that are not calls). */
    public McpCallOptions callOptions() {
        return callOptions;
    }

    /** The JSON-RPC id once sent, else null. */
    public String requestId() {
        return requestId;
    }

    /**
     * The deadline, on the window's {@link CallWindow#now() clock} (its timer's; moved on by
     * progress when the call asks for it).
     */
    public long deadline() {
        return deadline;
    }

    /** The nanoseconds until the deadline on the window's clock now: zero or less once it has passed. */
    public long nanosLeft() {
        return deadline - window.now();
    }

    /** Whether the deadline has passed at {@code now} (a reading of the window's clock). */
    boolean dueBy(long now) {
        return deadline - now <= 0;
    }

    /**
     * The deadline passed: fails with {@code Timeout} and cancels on the wire, unless the outcome is claimed. For a
     * request without a timer, its waiting caller calls this.
     */
    public void expire() {
        fail(new McpBoundaryException(new McpBoundaryError.Timeout(window.moduleId(), operation, timeoutMs,
                window.overLimitDetail(overLimitAtSend))), "timeout");
    }

    /** Whether the outcome is claimed. */
    public boolean isFinished() {
        return finished.get();
    }

    /**
     * Cancels the request with {@code error} unless it already has an outcome; a request on the wire is cancelled
     * there with {@code notifications/cancelled} and {@code reason}. Never blocks.
     *
     * @return true when this call decided the outcome
     */
    public boolean cancel(McpBoundaryError error, String reason) {
        return fail(new McpBoundaryException(error), reason);
    }

    String method() {
        return method;
    }

    ObjectNode params() {
        return params;
    }

    String progressToken() {
        return progressToken;
    }

    long timeoutMs() {
        return timeoutMs;
    }

    void sent(String id) {
        this.requestId = id;
    }

    /** (Re-)sets the deadline {@code delayNanos} from now; the window's deadlines expire the request then, if timed. */
    void arm(long delayNanos) {
        deadline = window.now() + delayNanos;
        if (timed && !isFinished()) {
            window.deadlines().watch(this);
        }
    }

    /** A progress update for this request: starts the timeout anew when asked to, and goes to the listener. */
    void progress(McpProgress update) {
        if (isFinished() || callOptions == null || callOptions.onProgress().isEmpty()) {
            return;
        }
        if (callOptions.resetTimeoutOnProgress()) {
            arm(timeoutNanos);
        }
        lane.run(() -> {
            if (future.isDone()) {
                return;
            }
            try {
                callOptions.onProgress().get().accept(update);
            } catch (RuntimeException e) {
                LOG.warn("module '{}': the progress listener of {} threw: {}", window.moduleId(), operation, e.toString());
            }
        });
    }

    /**
     * The server's answer: its result, its error, or (a modern server) a request for input, which the window's
     * {@link InputRounds} fulfil before the request is sent again.
     */
    void answer(JSONRPCResponse response) {
        if (response.error() != null) {
            JSONRPCResponse.JSONRPCError error = response.error();
            errorData = error.data() == null ? null
                    : error.data() instanceof JsonNode ? (JsonNode) error.data() : Json.MAPPER.valueToTree(error.data());
            fail(new McpBoundaryException(rpcFailure(error)));
            return;
        }
        Object answer = response.result();
        JsonNode result = answer instanceof JsonNode ? (JsonNode) answer : Json.MAPPER.valueToTree(answer);
        InputRounds rounds = window.inputRounds();
        if (rounds != null && InputRounds.asksForInput(method, result)) {
            rounds.fulfil(this, result);
        } else {
            succeed(result);
        }
    }

    /** The {@code data} of the server's JSON-RPC error answer, if it answered with one. */
    public JsonNode errorData() {
        return errorData;
    }

    /** Counts a round of input this request was answered with; returns how many there were. */
    int nextRound() {
        return ++rounds;
    }

    CallWindow window() {
        return window;
    }

    /** The JSON-RPC method. */
    public String methodName() {
        return method;
    }

    void succeed(JsonNode result) {
        if (claim()) {
            lane.run(() -> future.complete(result));
        }
    }

    boolean fail(McpBoundaryException error) {
        return fail(error, null);
    }

    /**
     * Fails with {@code error} unless the outcome is claimed; with an {@code abandonReason} the request is cancelled
     * on the wire before anyone sees the outcome (whose handlers may end the session).
     */
    private boolean fail(McpBoundaryException error, String abandonReason) {
        if (!claim()) {
            return false;
        }
        if (abandonReason != null) {
            window.abandon(this, abandonReason);
        }
        lane.run(() -> future.completeExceptionally(error));
        return true;
    }

    /**
     * Fails with the kind's error for {@code termination} (exit code and stderr tail carried as fields); a call or
     * surface request whose remote session was lost fails with {@code SessionLost}.
     */
    boolean fail(Termination termination) {
        McpBoundaryError error = termination.lost() && kind != Kind.CONNECT && kind != Kind.LIST
                ? new McpBoundaryError.SessionLost(window.moduleId(), operation, termination.reason())
                : failure(termination.reason());
        return fail(new McpBoundaryException(error, null, termination.exitCode(), termination.stderrTail()));
    }

    boolean fail(String reason) {
        return fail(new McpBoundaryException(failure(reason), null, OptionalInt.empty(), ""));
    }

    /** This kind's error for a failure that is not the server's answer. */
    McpBoundaryError failure(String reason) {
        String moduleId = window.moduleId();
        switch (kind) {
            case CONNECT:
                return new McpBoundaryError.ConnectionFailed(moduleId, reason);
            case LIST:
                return new McpBoundaryError.ToolListFailed(moduleId, reason);
            case CALL:
                return new McpBoundaryError.ToolCallFailed(moduleId, tool, reason);
            default:
                return new McpBoundaryError.RequestFailed(moduleId, operation, reason);
        }
    }

    /**
     * Whether {@code failure} is the server's JSON-RPC error answer to {@code initialize} (which fails with
     * {@code ConnectionFailed}, as every failure to connect does).
     */
    static boolean isErrorAnswer(Throwable failure) {
        return failure instanceof McpBoundaryException e && e.error() instanceof McpBoundaryError.ConnectionFailed c
                && c.reason().startsWith(ERROR_ANSWER);
    }

    private McpBoundaryError rpcFailure(JSONRPCResponse.JSONRPCError error) {
        String message = error.message() == null ? "" : error.message();
        if (kind == Kind.CONNECT || kind == Kind.LIST) {
            return failure(ERROR_ANSWER + error.code() + ": " + message);
        }
        JsonNode data = error.data() == null ? null
                : error.data() instanceof JsonNode ? (JsonNode) error.data() : Json.MAPPER.valueToTree(error.data());
        return new McpBoundaryError.JsonRpcError(window.moduleId(), operation, error.code(), message, data);
    }

    /** Claims the outcome and frees what the request holds before anyone can see the outcome. */
    private boolean claim() {
        if (!finished.compareAndSet(false, true)) {
            return false;
        }
        if (timed) {
            window.deadlines().forget(this);
        }
        window.done(this);
        return true;
    }
}
