package org.metaruntime.core;

import org.metaruntime.mcp.McpBoundaryError;

/** Which errors of the MCP boundary are timeouts, for {@link RuntimeBoundaryError#isTimeout()}. */
final class McpErrorCodes {

    private McpErrorCodes() {
    }

    static boolean isTimeout(McpBoundaryError error) {
        return error instanceof McpBoundaryError.Timeout
                || error instanceof McpBoundaryError.OperationFailedWithCloseFailure both && isTimeout(both.primary());
    }
}
