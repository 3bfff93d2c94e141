package org.metaruntime.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.metaruntime.testing.ErrorCodeTable;

class McpBoundaryErrorCodesTest {

    @Test
    void everyRecordHasItsOwnCode() {
        ErrorCodeTable.assertWhole(McpBoundaryError.class, McpBoundaryErrorCodes.BY_RECORD);
    }

    @Test
    void eachRecordAnswersItsCode() {
        McpBoundaryError close = new McpBoundaryError.CloseFailed("m", "gone");
        List<McpBoundaryError> errors = List.of(new McpBoundaryError.McpRequired("m", "f"),
                new McpBoundaryError.Timeout("m", "connect", 5), new McpBoundaryError.ConnectionFailed("m", "r"),
                new McpBoundaryError.ToolListFailed("m", "r"), new McpBoundaryError.ToolNotFound("m", "t", List.of()),
                new McpBoundaryError.ToolCallFailed("m", "t", "r"),
                new McpBoundaryError.ToolReturnedError("m", "t", new McpSchema.CallToolResult(List.of(), true, null, null)),
                new McpBoundaryError.JsonRpcError("m", "list_tools", -32601, "no", null),
                new McpBoundaryError.RequestFailed("m", "read_resource", "r"),
                new McpBoundaryError.SessionLost("m", "call_tool:t", "r"), new McpBoundaryError.CallRefused("m", "t", 1, 2),
                new McpBoundaryError.Cancelled("m", "t"), new McpBoundaryError.Interrupted("m", "connect"),
                new McpBoundaryError.LineTooLong("m", "connect", 16), close,
                new McpBoundaryError.OperationFailedWithCloseFailure(new McpBoundaryError.Timeout("m", "x", 1), close),
                new McpBoundaryError.UnsupportedProtocol("m", McpProtocolEra.MODERN, List.of()));
        assertThat(errors).extracting(McpBoundaryError::code).containsExactly("mcp.mcp_required", "mcp.timeout",
                "mcp.connection_failed", "mcp.tool_list_failed", "mcp.tool_not_found", "mcp.tool_call_failed",
                "mcp.tool_returned_error", "mcp.json_rpc_error", "mcp.request_failed", "mcp.session_lost",
                "mcp.call_refused", "mcp.cancelled", "mcp.interrupted", "mcp.line_too_long", "mcp.close_failed",
                "mcp.operation_failed_with_close_failure", "mcp.unsupported_protocol");
    }

    @Test
    void anUnsupportedEraNamesWhatTheServerOffersAndHowToPinIt() {
        assertThat(new McpBoundaryError.UnsupportedProtocol("m", McpProtocolEra.MODERN, List.of("2025-11-25")).message())
                .isEqualTo("module 'm' is pinned to MCP 2026-07-28, which its server does not offer (it offers 2025-11-25)");
        assertThat(new McpBoundaryError.UnsupportedProtocol("m", McpProtocolEra.LEGACY, List.of("2026-07-28")).message())
                .isEqualTo("module 'm' was spoken to in a legacy MCP version (initialize), which its server does not"
                        + " offer (it offers 2026-07-28); pin it to 2026-07-28 (protocolEra MODERN) if it answers"
                        + " server/discover late");
        assertThat(new McpBoundaryError.UnsupportedProtocol("m", McpProtocolEra.LEGACY, List.of()).message())
                .isEqualTo("module 'm' was spoken to in a legacy MCP version (initialize), which its server does not"
                        + " offer (it named no protocol version)");
    }
}
