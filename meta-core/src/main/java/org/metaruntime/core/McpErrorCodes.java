package org.metaruntime.core;

import org.metaruntime.mcp.McpBoundaryError;

/** The stable codes of the MCP boundary's errors, one written next to each record. */
final class McpErrorCodes {

    private McpErrorCodes() {
    }

    static String of(McpBoundaryError error) {
        return error.code();
    }

    static boolean isTimeout(McpBoundaryError error) {
        return error instanceof McpBoundaryError.Timeout
                || error instanceof McpBoundaryError.OperationFailedWithCloseFailure both && isTimeout(both.primary());
    }
}
