package org.metaruntime.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.LeakCheck;

/** The MCP boundary against a server built with the MCP Java SDK's server API, in a child JVM. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class JavaSdkPeerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration T = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    @Test
    void persistentSessionAgainstTheJavaSdkServer() {
        McpProbeResult probe = McpProbe.probe(Peers.javaSdk("java", dir.resolve("pid")), McpClientOptions.defaults(), T);
        McpConnection c = probe.connection();
        try {
            assertThat(probe.tools()).containsExactly("add", "echo", "fail", "progress", "sleep");
            assertThat(c.callTool("echo", JSON.createObjectNode().put("text", "héllo 世界 🎉"), T))
                    .isEqualTo(TextNode.valueOf("héllo 世界 🎉"));
            assertThat(c.callTool("add", JSON.createObjectNode().put("a", 2).put("b", 3), T))
                    .isEqualTo(JSON.createObjectNode().put("sum", 5));
            McpBoundaryError failed = catchThrowableOfType(McpBoundaryException.class,
                    () -> c.callTool("fail", null, T)).error();
            assertThat(((McpBoundaryError.ToolReturnedError) failed).text()).isEqualTo("failed on purpose");

            List<CompletableFuture<JsonNode>> calls = new ArrayList<>();
            for (int i = 0; i < 256; i++) {
                calls.add(c.callToolAsync("add", JSON.createObjectNode().put("a", i).put("b", 1000), T));
            }
            for (int i = 0; i < calls.size(); i++) {
                assertThat(calls.get(i).join().get("sum").asInt()).isEqualTo(i + 1000);
            }

            McpBoundaryError timeout = catchThrowableOfType(McpBoundaryException.class,
                    () -> c.callTool("sleep", JSON.createObjectNode().put("ms", 3000), Duration.ofMillis(200))).error();
            assertThat(timeout).isEqualTo(new McpBoundaryError.Timeout("java", "call_tool:sleep", 200));
            assertThat(c.callTool("echo", JSON.createObjectNode().put("text", "after"), T)).isEqualTo(TextNode.valueOf("after"));

            List<McpProgress> progress = new java.util.concurrent.CopyOnWriteArrayList<>();
            McpToolCall withProgress = c.startCall("progress", JSON.createObjectNode().put("steps", 4),
                    McpCallOptions.builder(T).onProgress(progress::add).build());
            assertThat(withProgress.payload().join()).isEqualTo(TextNode.valueOf("done 4"));
            assertThat(progress).extracting(McpProgress::progress).containsExactly(1.0, 2.0, 3.0, 4.0);
            assertThat(progress).extracting(McpProgress::message).containsExactly("step 1", "step 2", "step 3", "step 4");

            assertThat(c.listResources(T)).extracting(io.modelcontextprotocol.spec.McpSchema.Resource::uri)
                    .containsExactly("java://greeting");
            assertThat(((io.modelcontextprotocol.spec.McpSchema.TextResourceContents) c.readResource("java://greeting", T)
                    .contents().get(0)).text()).isEqualTo("hello from java");
            assertThat(c.listPrompts(T)).extracting(io.modelcontextprotocol.spec.McpSchema.Prompt::name).containsExactly("greet");
            assertThat(((io.modelcontextprotocol.spec.McpSchema.TextContent) c.getPrompt("greet", java.util.Map.of("name", "Ada"), T)
                    .messages().get(0).content()).text()).isEqualTo("Say hello to Ada");
        } finally {
            c.close(T);
        }
        Peers.assertGone(dir.resolve("pid"));
    }

    @Test
    void perCallAgainstTheJavaSdkServer() {
        assertThat(McpPerCall.call(Peers.javaSdk("java", dir.resolve("pid")), "add",
                JSON.createObjectNode().put("a", 40).put("b", 2), T, McpClientOptions.defaults()))
                .isEqualTo(JSON.createObjectNode().put("sum", 42));
        Peers.assertGone(dir.resolve("pid"));
    }
}
