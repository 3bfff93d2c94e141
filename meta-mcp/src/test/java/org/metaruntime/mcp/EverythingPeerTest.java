package org.metaruntime.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.metaruntime.supervisor.StopStage;
import org.metaruntime.testing.LeakCheck;

/** The MCP boundary against {@code @modelcontextprotocol/server-everything} (TypeScript SDK), pinned in package-lock.json. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EverythingPeerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration T = Duration.ofSeconds(30);

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    @Test
    void persistentSessionAgainstServerEverything() {
        McpClientOptions options = McpClientOptions.builder().root(new McpRoot("file:///srv/meta-root", "meta-root")).build();
        McpProbeResult probe = McpProbe.probe(Peers.everything("everything"), options, T);
        McpConnection c = probe.connection();
        long pid = c.pid();
        try {
            assertThat(probe.tools()).contains("echo", "get-sum", "get-structured-content", "trigger-long-running-operation");
            assertThat(c.callTool("echo", JSON.createObjectNode().put("message", "héllo 世界 🎉"), T))
                    .isEqualTo(TextNode.valueOf("Echo: héllo 世界 🎉"));
            JsonNode sum = c.callTool("get-sum", JSON.createObjectNode().put("a", 2).put("b", 3), T);
            assertThat(sum.asText()).contains("5");
            JsonNode weather = c.callTool("get-structured-content", JSON.createObjectNode().put("location", "New York"), T);
            assertThat(weather.isObject()).isTrue();
            assertThat(weather.has("temperature")).isTrue();

            // registered after initialize because the client announced roots: found through list_changed or a miss
            JsonNode roots = c.callTool("get-roots-list", null, T);
            assertThat(roots.asText()).contains("file:///srv/meta-root");

            McpBoundaryError unknown = catchThrowableOfType(McpBoundaryException.class, () -> c.callTool("no-such-tool", null, T)).error();
            assertThat(unknown).isInstanceOf(McpBoundaryError.ToolNotFound.class);
        } finally {
            c.close(T);
        }
        // the server exits on stdin EOF at once only when nothing of it is pending (its roots/list request was answered)
        assertThat(c.stopReport().stage()).isEqualTo(StopStage.EXITED_AFTER_STDIN_CLOSE);
        Peers.assertGone(pid);
    }

    @Test
    void aTimedOutLongRunningOperationIsCancelledAndCloseDoesNotLinger() {
        McpProbeResult probe = McpProbe.probe(Peers.everything("everything"), McpClientOptions.defaults(), T);
        McpConnection c = probe.connection();
        long pid = c.pid();
        List<Long> descendants = Peers.descendants(pid);
        try {
            McpBoundaryError timeout = catchThrowableOfType(McpBoundaryException.class, () -> c.callTool(
                    "trigger-long-running-operation", JSON.createObjectNode().put("duration", 10).put("steps", 5),
                    Duration.ofMillis(700))).error();
            assertThat(timeout).isEqualTo(new McpBoundaryError.Timeout("everything", "call_tool:trigger-long-running-operation", 700));
            assertThat(c.callTool("echo", JSON.createObjectNode().put("message", "after"), T)).isEqualTo(TextNode.valueOf("Echo: after"));
        } finally {
            c.close(Duration.ofSeconds(3));
        }
        Peers.assertGone(pid);
        descendants.forEach(Peers::assertGone);
    }

    @Test
    void perCallAgainstServerEverything() {
        assertThat(McpPerCall.call(Peers.everything("everything"), "get-sum",
                JSON.createObjectNode().put("a", 20).put("b", 22), T, McpClientOptions.defaults()).asText()).contains("42");
    }
}
