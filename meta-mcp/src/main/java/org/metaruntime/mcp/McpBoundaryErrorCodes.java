package org.metaruntime.mcp;

import static java.util.Map.entry;

import java.util.Map;

/**
 * The one table of {@link McpBoundaryError}'s codes: each record with its {@code CODE_*} constant. A new record
 * gets its line here; {@code McpBoundaryErrorCodesTest} fails for a record without one.
 */
final class McpBoundaryErrorCodes {

    /** Each record's code, read by {@link McpBoundaryError#code()}. */
    static final Map<Class<? extends McpBoundaryError>, String> BY_RECORD = Map.ofEntries(
            entry(McpBoundaryError.McpRequired.class, McpBoundaryError.CODE_MCP_REQUIRED),
            entry(McpBoundaryError.Timeout.class, McpBoundaryError.CODE_TIMEOUT),
            entry(McpBoundaryError.ConnectionFailed.class, McpBoundaryError.CODE_CONNECTION_FAILED),
            entry(McpBoundaryError.ToolListFailed.class, McpBoundaryError.CODE_TOOL_LIST_FAILED),
            entry(McpBoundaryError.ToolNotFound.class, McpBoundaryError.CODE_TOOL_NOT_FOUND),
            entry(McpBoundaryError.ToolCallFailed.class, McpBoundaryError.CODE_TOOL_CALL_FAILED),
            entry(McpBoundaryError.ToolReturnedError.class, McpBoundaryError.CODE_TOOL_RETURNED_ERROR),
            entry(McpBoundaryError.JsonRpcError.class, McpBoundaryError.CODE_JSON_RPC_ERROR),
            entry(McpBoundaryError.RequestFailed.class, McpBoundaryError.CODE_REQUEST_FAILED),
            entry(McpBoundaryError.SessionLost.class, McpBoundaryError.CODE_SESSION_LOST),
            entry(McpBoundaryError.CallRefused.class, McpBoundaryError.CODE_CALL_REFUSED),
            entry(McpBoundaryError.Cancelled.class, McpBoundaryError.CODE_CANCELLED),
            entry(McpBoundaryError.Interrupted.class, McpBoundaryError.CODE_INTERRUPTED),
            entry(McpBoundaryError.LineTooLong.class, McpBoundaryError.CODE_LINE_TOO_LONG),
            entry(McpBoundaryError.CloseFailed.class, McpBoundaryError.CODE_CLOSE_FAILED),
            entry(McpBoundaryError.OperationFailedWithCloseFailure.class,
                    McpBoundaryError.CODE_OPERATION_FAILED_WITH_CLOSE_FAILURE),
            entry(McpBoundaryError.UnsupportedProtocol.class, McpBoundaryError.CODE_UNSUPPORTED_PROTOCOL));

    private McpBoundaryErrorCodes() {
    }
}
