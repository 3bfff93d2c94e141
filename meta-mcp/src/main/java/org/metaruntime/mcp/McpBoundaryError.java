package org.metaruntime.mcp;

import java.util.List;
import java.util.Objects;

/**
 * Why an MCP call failed. A value (immutable, thread-safe): match on the record to handle each case.
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
public sealed interface McpBoundaryError {

    /** One readable sentence describing the error. */
    String message();

    /** A core module id was routed without the MCP boundary marker. */
    record McpRequired(String moduleId, String flow) implements McpBoundaryError {
        /** Validates the error. */
        public McpRequired {
            Objects.requireNonNull(moduleId, "moduleId");
            Objects.requireNonNull(flow, "flow");
        }

        @Override
        public String message() {
            return "module '" + moduleId + "' is a core module and requires the MCP boundary for flow '" + flow + "'";
        }
    }

    /** An operation ({@code connect}, {@code list_tools}, {@code call_tool:<tool>}, {@code close}) timed out. */
    record Timeout(String moduleId, String operation, long timeoutMs) implements McpBoundaryError {
        /** Validates the error. */
        public Timeout {
            Objects.requireNonNull(moduleId, "moduleId");
            Objects.requireNonNull(operation, "operation");
        }

        @Override
        public String message() {
            return "module '" + moduleId + "' did not complete " + operation + " within " + timeoutMs + " ms";
        }
    }

    /** Spawning the server or {@code initialize} failed. */
    record ConnectionFailed(String moduleId, String reason) implements McpBoundaryError {
        /** Validates the error. */
        public ConnectionFailed {
            Objects.requireNonNull(moduleId, "moduleId");
            Objects.requireNonNull(reason, "reason");
        }

        @Override
        public String message() {
            return "could not connect to module '" + moduleId + "': " + reason;
        }
    }

    /** {@code tools/list} failed. */
    record ToolListFailed(String moduleId, String reason) implements McpBoundaryError {
        /** Validates the error. */
        public ToolListFailed {
            Objects.requireNonNull(moduleId, "moduleId");
            Objects.requireNonNull(reason, "reason");
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
            Objects.requireNonNull(moduleId, "moduleId");
            Objects.requireNonNull(tool, "tool");
            availableTools = List.copyOf(availableTools);
        }

        @Override
        public String message() {
            return "module '" + moduleId + "' has no tool '" + tool + "' (available: " + availableTools + ")";
        }
    }

    /** A JSON-RPC error, a result with {@code isError: true}, or the process died mid-call. */
    record ToolCallFailed(String moduleId, String tool, String reason) implements McpBoundaryError {
        /** Validates the error. */
        public ToolCallFailed {
            Objects.requireNonNull(moduleId, "moduleId");
            Objects.requireNonNull(tool, "tool");
            Objects.requireNonNull(reason, "reason");
        }

        @Override
        public String message() {
            return "tool '" + tool + "' of module '" + moduleId + "' failed: " + reason;
        }
    }

    /** Closing the connection failed. */
    record CloseFailed(String moduleId, String reason) implements McpBoundaryError {
        /** Validates the error. */
        public CloseFailed {
            Objects.requireNonNull(moduleId, "moduleId");
            Objects.requireNonNull(reason, "reason");
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
            Objects.requireNonNull(primary, "primary");
            Objects.requireNonNull(close, "close");
        }

        @Override
        public String message() {
            return primary.message() + ", and then " + close.message();
        }
    }
}
