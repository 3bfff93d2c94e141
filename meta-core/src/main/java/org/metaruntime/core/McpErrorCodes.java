package org.metaruntime.core;

import org.metaruntime.mcp.McpBoundaryError;

/** The stable codes of the MCP boundary's errors, one written next to each record. */
final class McpErrorCodes {

    private McpErrorCodes() {
    }

    static String of(McpBoundaryError error) {
        if (error instanceof McpBoundaryError.OperationFailedWithCloseFailure both) {
            return of(both.primary());
        }
        if (error instanceof McpBoundaryError.McpRequired) {
            return "mcp.mcp_required";
        }
        if (error instanceof McpBoundaryError.Timeout) {
            return "mcp.timeout";
        }
        if (error instanceof McpBoundaryError.ConnectionFailed) {
            return "mcp.connection_failed";
        }
        if (error instanceof McpBoundaryError.ToolListFailed) {
            return "mcp.tool_list_failed";
        }
        if (error instanceof McpBoundaryError.ToolNotFound) {
            return "mcp.tool_not_found";
        }
        if (error instanceof McpBoundaryError.ToolCallFailed) {
            return "mcp.tool_call_failed";
        }
        return "mcp.close_failed";
    }

    static boolean isTimeout(McpBoundaryError error) {
        return error instanceof McpBoundaryError.Timeout
                || error instanceof McpBoundaryError.OperationFailedWithCloseFailure both && isTimeout(both.primary());
    }
}
