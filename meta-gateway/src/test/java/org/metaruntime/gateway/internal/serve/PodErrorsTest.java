package org.metaruntime.gateway.internal.serve;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.metaruntime.gateway.internal.serve.PodBackend.PodFailure.Kind;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpBoundaryException;

/** How the runtime's errors become the gateway's pod failures. */
class PodErrorsTest {

    private static final String UNREACHABLE = "the server at http://127.0.0.1:1/mcp cannot be reached (connection refused)";

    @Test
    void aLostRemoteSessionMakesThePodUnavailableWhileItReconnects() {
        McpBoundaryException lost = new McpBoundaryException(
                new McpBoundaryError.SessionLost("everything", "call_tool:echo", UNREACHABLE));
        assertThat(PodErrors.map(new CompletionException(lost), false).kind()).isEqualTo(Kind.UNAVAILABLE);
        assertThat(PodErrors.map(lost, true).kind()).isEqualTo(Kind.UNAVAILABLE);
    }

    @Test
    void aFailedCallIsClassifiedByItsTypeNotByTheWordsOfItsReason() {
        McpBoundaryException failed = new McpBoundaryException(
                new McpBoundaryError.ToolCallFailed("everything", "echo", "the tool said: " + UNREACHABLE));
        assertThat(PodErrors.map(failed, false).kind()).isEqualTo(Kind.FAILED);
    }
}
