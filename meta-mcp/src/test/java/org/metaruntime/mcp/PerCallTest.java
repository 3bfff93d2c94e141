package org.metaruntime.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.supervisor.internal.SharedTimer;
import org.metaruntime.testing.LeakCheck;

/** PER_CALL mode: spawn, initialize, list, call, close, and how each step fails. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PerCallTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration T = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes().pidFile(() -> dir.resolve("pid")).zero("shared timer leases", SharedTimer::leases);

    private McpBoundaryError errorOf(String tool, Duration timeout, String... switches) {
        return catchThrowableOfType(McpBoundaryException.class, () -> McpPerCall.call(
                Peers.python("py", dir.resolve("pid"), switches), tool, null, timeout, McpClientOptions.defaults())).error();
    }

    @Test
    void callsAToolOnAFreshProcessAndStopsIt() {
        assertThat(McpPerCall.call(Peers.python("py", dir.resolve("pid")), "echo",
                JSON.createObjectNode().put("text", "once"), T, McpClientOptions.defaults()))
                .isEqualTo(TextNode.valueOf("once"));
    }

    @Test
    void missingToolIsToolNotFound() {
        McpBoundaryError e = errorOf("nope", T);
        assertThat(e).isInstanceOf(McpBoundaryError.ToolNotFound.class);
        assertThat(((McpBoundaryError.ToolNotFound) e).availableTools()).startsWith("echo", "echo_arguments");
    }

    @Test
    void hangingCallIsCallToolTimeout() {
        assertThat(errorOf("hang", Duration.ofSeconds(3)))
                .isEqualTo(new McpBoundaryError.Timeout("py", "call_tool:hang", 3000));
    }

    @Test
    void hangingListIsListToolsTimeout() {
        assertThat(errorOf("echo", Duration.ofSeconds(3), "--hang-at", "tools/list"))
                .isEqualTo(new McpBoundaryError.Timeout("py", "list_tools", 3000));
    }

    @Test
    void hangingInitializeIsConnectTimeout() {
        assertThat(errorOf("echo", Duration.ofSeconds(3), "--hang-at", "initialize"))
                .isEqualTo(new McpBoundaryError.Timeout("py", "connect", 3000));
    }

    @Test
    void failingInitializeIsConnectionFailed() {
        assertThat(errorOf("echo", T, "--fail-at", "initialize")).isInstanceOf(McpBoundaryError.ConnectionFailed.class);
    }

    @Test
    void failingListIsToolListFailed() {
        assertThat(errorOf("echo", T, "--fail-at", "tools/list")).isInstanceOf(McpBoundaryError.ToolListFailed.class);
    }

    @Test
    void isErrorIsToolReturnedError() {
        assertThat(((McpBoundaryError.ToolReturnedError) errorOf("error", T)).text()).isEqualTo("tool failed on purpose");
    }

    @Test
    void crashIsToolCallFailedWithExitCodeAndStderr() {
        McpBoundaryError e = errorOf("crash", T);
        assertThat(((McpBoundaryError.ToolCallFailed) e).reason()).contains("exited with code 3").contains("crashed on purpose");
    }

    @Test
    void aServerThatIgnoresEofIsStoppedWithinTheGraces() {
        assertThat(McpPerCall.call(Peers.python("py", dir.resolve("pid"), "--ignore-eof", "--ignore-sigterm"), "echo",
                JSON.createObjectNode().put("text", "x"), T, McpClientOptions.defaults()))
                .isEqualTo(TextNode.valueOf("x"));
    }
}
