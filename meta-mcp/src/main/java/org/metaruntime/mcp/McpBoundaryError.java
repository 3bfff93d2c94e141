package org.metaruntime.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Objects;
import org.metaruntime.supervisor.ModuleError;

/**
 * Why an MCP call failed. A value (immutable, thread-safe): match on the record to handle each case, or on its
 * stable {@link #code()} (one of the {@code CODE_*} constants, written out, never derived from class names).
 *
 * <pre>{@code
 * try {
 *     JsonNode result = connection.callTool("search", arguments, Duration.ofSeconds(10));
 * } catch (McpBoundaryException e) {
 *     if (e.error() instanceof McpBoundaryError.ToolNotFound) {
 *         List<String> tools = ((McpBoundaryError.ToolNotFound) e.error()).availableTools();
 *     }
 * }
 * }</pre>
 */
public sealed interface McpBoundaryError extends ModuleError {

    /** {@link McpRequired}. */
    String CODE_MCP_REQUIRED = "mcp.mcp_required";
    /** {@link Timeout}. */
    String CODE_TIMEOUT = "mcp.timeout";
    /** {@link ConnectionFailed}. */
    String CODE_CONNECTION_FAILED = "mcp.connection_failed";
    /** {@link ToolListFailed}. */
    String CODE_TOOL_LIST_FAILED = "mcp.tool_list_failed";
    /** {@link ToolNotFound}. */
    String CODE_TOOL_NOT_FOUND = "mcp.tool_not_found";
    /** {@link ToolCallFailed}. */
    String CODE_TOOL_CALL_FAILED = "mcp.tool_call_failed";
    /** {@link ToolReturnedError}. */
    String CODE_TOOL_RETURNED_ERROR = "mcp.tool_returned_error";
    /** {@link JsonRpcError}. */
    String CODE_JSON_RPC_ERROR = "mcp.json_rpc_error";
    /** {@link RequestFailed}. */
    String CODE_REQUEST_FAILED = "mcp.request_failed";
    /** {@link SessionLost}. */
    String CODE_SESSION_LOST = "mcp.session_lost";
    /** {@link CallRefused}. */
    String CODE_CALL_REFUSED = "mcp.call_refused";
    /** {@link Cancelled}. */
    String CODE_CANCELLED = "mcp.cancelled";
    /** {@link Interrupted}. */
    String CODE_INTERRUPTED = "mcp.interrupted";
    /** {@link LineTooLong}. */
    String CODE_LINE_TOO_LONG = "mcp.line_too_long";
    /** {@link CloseFailed}. */
    String CODE_CLOSE_FAILED = "mcp.close_failed";
    /** {@link OperationFailedWithCloseFailure}. */
    String CODE_OPERATION_FAILED_WITH_CLOSE_FAILURE = "mcp.operation_failed_with_close_failure";
    /** {@link UnsupportedProtocol}. */
    String CODE_UNSUPPORTED_PROTOCOL = "mcp.unsupported_protocol";

    /** One readable sentence describing the error. */
    String message();

    /**
     * The stable code of this kind of error, e.g. {@value #CODE_TIMEOUT}: the {@code CODE_*} constant that
     * {@code McpBoundaryErrorCodes}, the one table of this interface's codes, pairs with the record.
     */
    @Override
    default String code() {
        return McpBoundaryErrorCodes.BY_RECORD.get(getClass());
    }

    /** The module the error is about. */
    String moduleId();

    /** Throws a {@link NullPointerException} naming the first of two fields that is null. */
    private static void requireNonNull(Object first, String firstName, Object second, String secondName) {
        Objects.requireNonNull(first, firstName);
        Objects.requireNonNull(second, secondName);
    }

    /** Throws a {@link NullPointerException} naming the first of three fields that is null. */
    private static void requireNonNull(Object first, String firstName, Object second, String secondName,
                                       Object third, String thirdName) {
        requireNonNull(first, firstName, second, secondName);
        Objects.requireNonNull(third, thirdName);
    }

    /** A core module id was routed without the MCP boundary marker. */
    record McpRequired(String moduleId, String flow) implements McpBoundaryError {
        /** Validates the error. */
        public McpRequired {
            requireNonNull(moduleId, "moduleId", flow, "flow");
        }

        @Override
        public String message() {
            return "module '" + moduleId + "' is a core module and requires the MCP boundary for flow '" + flow + "'";
        }
    }

    /**
     * An operation ({@code connect}, {@code list_tools}, {@code call_tool:<tool>}, {@code close}, or a request of the
     * MCP surface such as {@code read_resource}) did not complete in time. {@code detail} is empty, or says what else
     * is known (for example that the server wrote a line over the size limit, which was skipped).
     */
    record Timeout(String moduleId, String operation, long timeoutMs, String detail) implements McpBoundaryError {
        /** Validates the error. */
        public Timeout {
            requireNonNull(moduleId, "moduleId", operation, "operation", detail, "detail");
        }

        /** A timeout without detail. */
        public Timeout(String moduleId, String operation, long timeoutMs) {
            this(moduleId, operation, timeoutMs, "");
        }

        @Override
        public String message() {
            String base = "module '" + moduleId + "' did not complete " + operation + " within "
                    + (timeoutMs > 0 ? timeoutMs + " ms" : "less than 1 ms");
            return detail.isEmpty() ? base : base + " (" + detail + ")";
        }
    }

    /** Spawning the server or {@code initialize} failed. */
    record ConnectionFailed(String moduleId, String reason) implements McpBoundaryError {
        /** Validates the error. */
        public ConnectionFailed {
            requireNonNull(moduleId, "moduleId", reason, "reason");
        }

        @Override
        public String message() {
            return "could not connect to module '" + moduleId + "': " + reason;
        }
    }

    /**
     * The server does not speak the era of MCP it was spoken to in ({@link McpProtocolEra#LEGACY}: it refused
     * {@code initialize} for its version, the module being pinned to that era or its {@code server/discover} probe
     * having had no modern answer within the probe bound; {@link McpProtocolEra#MODERN}: it did not offer
     * {@code 2026-07-28} to {@code server/discover}). {@code serverVersions} are the protocol versions the server
     * named (empty when it named none).
     */
    record UnsupportedProtocol(String moduleId, McpProtocolEra era, List<String> serverVersions)
            implements McpBoundaryError {
        /** Validates the error and copies the versions. */
        public UnsupportedProtocol {
            requireNonNull(moduleId, "moduleId", era, "era");
            serverVersions = List.copyOf(serverVersions);
        }

        @Override
        public String message() {
            String offered = serverVersions.isEmpty() ? " (it named no protocol version)"
                    : " (it offers " + String.join(", ", serverVersions) + ")";
            if (era == McpProtocolEra.MODERN) {
                return "module '" + moduleId + "' is pinned to MCP 2026-07-28, which its server does not offer" + offered;
            }
            return "module '" + moduleId + "' was spoken to in a legacy MCP version (initialize), which its server does "
                    + "not offer" + offered + (serverVersions.contains("2026-07-28")
                    ? "; pin it to 2026-07-28 (protocolEra MODERN) if it answers server/discover late" : "");
        }
    }

    /** {@code tools/list} failed. */
    record ToolListFailed(String moduleId, String reason) implements McpBoundaryError {
        /** Validates the error. */
        public ToolListFailed {
            requireNonNull(moduleId, "moduleId", reason, "reason");
        }

        @Override
        public String message() {
            return "module '" + moduleId + "' failed to list its tools: " + reason;
        }
    }

    /** The server has no tool of that name; {@code availableTools} in server order. */
    record ToolNotFound(String moduleId, String tool, List<String> availableTools) implements McpBoundaryError {
        /** Validates the error and copies the tool list. */
        public ToolNotFound {
            requireNonNull(moduleId, "moduleId", tool, "tool");
            availableTools = List.copyOf(availableTools);
        }

        @Override
        public String message() {
            return "module '" + moduleId + "' has no tool '" + tool + "' (available: " + availableTools + ")";
        }
    }

    /**
     * A {@code tools/call} could not complete: the process died mid-call (the reason says so, with the exit code and
     * stderr tail, which {@link McpBoundaryException#exitCode()} and {@link McpBoundaryException#stderrTail()} also
     * carry), the connection was closed, the result was malformed, or the arguments are not a JSON object.
     */
    record ToolCallFailed(String moduleId, String tool, String reason) implements McpBoundaryError {
        /** Validates the error. */
        public ToolCallFailed {
            requireNonNull(moduleId, "moduleId", tool, "tool", reason, "reason");
        }

        @Override
        public String message() {
            return "tool '" + tool + "' of module '" + moduleId + "' failed: " + reason;
        }
    }

    /**
     * The tool answered with {@code isError: true} (raised only where a payload is asked for; the whole result is a
     * value elsewhere). {@code result} is the whole result as the server sent it; {@link #text()} its text content.
     */
    record ToolReturnedError(String moduleId, String tool, McpSchema.CallToolResult result) implements McpBoundaryError {
        /** Validates the error. */
        public ToolReturnedError {
            requireNonNull(moduleId, "moduleId", tool, "tool", result, "result");
        }

        /** The concatenated text blocks of the result (empty when it has none). */
        public String text() {
            StringBuilder sb = new StringBuilder();
            if (result.content() != null) {
                for (McpSchema.Content block : result.content()) {
                    if (block instanceof McpSchema.TextContent) {
                        sb.append(((McpSchema.TextContent) block).text());
                    }
                }
            }
            return sb.toString();
        }

        @Override
        public String message() {
            String text = text();
            return "tool '" + tool + "' of module '" + moduleId + "' reported an error: "
                    + (text.isEmpty() ? "(no text)" : text);
        }
    }

    /**
     * The server answered a request with a JSON-RPC error; {@code errorCode}, {@code errorMessage} and {@code data}
     * (JSON null when absent) are as sent. {@code operation} names the request as {@link Timeout} does.
     */
    record JsonRpcError(String moduleId, String operation, int errorCode, String errorMessage, JsonNode data)
            implements McpBoundaryError {
        /** Validates the error and copies {@code data}. */
        public JsonRpcError {
            requireNonNull(moduleId, "moduleId", operation, "operation", errorMessage, "errorMessage");
            data = data == null ? com.fasterxml.jackson.databind.node.NullNode.getInstance() : data.deepCopy();
        }

        @Override
        public String message() {
            return "module '" + moduleId + "' answered " + operation + " with JSON-RPC error " + errorCode + ": "
                    + errorMessage;
        }
    }

    /**
     * A request of the MCP surface other than {@code tools/call} ({@code operation}, e.g. {@code read_resource})
     * could not complete: the process died, the connection was closed, or the answer was malformed.
     */
    record RequestFailed(String moduleId, String operation, String reason) implements McpBoundaryError {
        /** Validates the error. */
        public RequestFailed {
            requireNonNull(moduleId, "moduleId", operation, "operation", reason, "reason");
        }

        @Override
        public String message() {
            return "module '" + moduleId + "' failed " + operation + ": " + reason;
        }
    }

    /**
     * The session with a remote (Streamable HTTP) server was lost while {@code operation} (named as {@link Timeout}
     * does, e.g. {@code call_tool:echo}) was pending or about to be sent: the server could not be reached, answered
     * HTTP 5xx, or forgot the session and a new {@code initialize} did not cure it. The connection is over; a new
     * connection may succeed once the server is back.
     */
    record SessionLost(String moduleId, String operation, String reason) implements McpBoundaryError {
        /** Validates the error. */
        public SessionLost {
            requireNonNull(moduleId, "moduleId", operation, "operation", reason, "reason");
        }

        @Override
        public String message() {
            return "module '" + moduleId + "' lost its session during " + operation + ": " + reason;
        }
    }

    /** Back-pressure: {@code maxInFlight} calls were in flight and {@code maxQueued} queued, so the call was refused. */
    record CallRefused(String moduleId, String tool, int maxInFlight, int maxQueued) implements McpBoundaryError {
        /** Validates the error. */
        public CallRefused {
            requireNonNull(moduleId, "moduleId", tool, "tool");
        }

        @Override
        public String message() {
            return "module '" + moduleId + "' refused a call of tool '" + tool + "': " + maxInFlight
                    + " calls are in flight and " + maxQueued + " are queued";
        }
    }

    /** The host cancelled the call of {@code tool}. */
    record Cancelled(String moduleId, String tool) implements McpBoundaryError {
        /** Validates the error. */
        public Cancelled {
            requireNonNull(moduleId, "moduleId", tool, "tool");
        }

        @Override
        public String message() {
            return "the call of tool '" + tool + "' of module '" + moduleId + "' was cancelled";
        }
    }

    /** The thread waiting for {@code operation} was interrupted; the request was cancelled on the wire. */
    record Interrupted(String moduleId, String operation) implements McpBoundaryError {
        /** Validates the error. */
        public Interrupted {
            requireNonNull(moduleId, "moduleId", operation, "operation");
        }

        @Override
        public String message() {
            return "the thread waiting for " + operation + " of module '" + moduleId + "' was interrupted";
        }
    }

    /** The answer to {@code operation} was a stdout line longer than {@code limit} bytes; it was skipped. */
    record LineTooLong(String moduleId, String operation, int limit) implements McpBoundaryError {
        /** Validates the error. */
        public LineTooLong {
            requireNonNull(moduleId, "moduleId", operation, "operation");
        }

        @Override
        public String message() {
            return "module '" + moduleId + "' answered " + operation + " with a line longer than " + limit
                    + " bytes, which was skipped";
        }
    }

    /** Closing the connection failed. */
    record CloseFailed(String moduleId, String reason) implements McpBoundaryError {
        /** Validates the error. */
        public CloseFailed {
            requireNonNull(moduleId, "moduleId", reason, "reason");
        }

        @Override
        public String message() {
            return "could not close the connection to module '" + moduleId + "': " + reason;
        }
    }

    /** A step failed and the close after it failed too. */
    record OperationFailedWithCloseFailure(McpBoundaryError primary, McpBoundaryError close) implements McpBoundaryError {
        /** Validates the error. */
        public OperationFailedWithCloseFailure {
            requireNonNull(primary, "primary", close, "close");
        }

        @Override
        public String message() {
            return primary.message() + ", and then " + close.message();
        }

        @Override
        public String moduleId() {
            return primary.moduleId();
        }
    }
}
