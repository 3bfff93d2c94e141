package org.metaruntime.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.supervisor.ProcessSpec;
import org.metaruntime.testing.FixtureScripts;
import org.metaruntime.testing.LeakCheck;

/**
 * The python MCP server fixture with {@code --modern}: the client left to find the era ({@code AUTO}) finds it modern
 * with the {@code server/discover} probe and calls it without any {@code initialize}; the fixture still serves a
 * client pinned to the legacy era.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PythonModernPeerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration T = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    private ProcessSpec modernPython() {
        return ProcessSpec.builder("py-modern").command(FixtureScripts.mcpServerCommand("--modern",
                "--record-methods", dir.resolve("methods").toString(), "--record", dir.resolve("lines").toString())).build();
    }

    /** The methods the server read, in order (every one from the same process). */
    private List<String> methods() throws Exception {
        List<String[]> lines = Files.readAllLines(dir.resolve("methods")).stream().map(l -> l.split(" ", 2)).toList();
        assertThat(lines).allSatisfy(l -> assertThat(l[0]).isEqualTo(lines.get(0)[0]));
        return lines.stream().map(l -> l[1]).toList();
    }

    @Test
    void autoFindsItModernAndCallsItWithoutInitialize() throws Exception {
        McpClientOptions options = McpClientOptions.builder().elicitationHandler((module, params) ->
                CompletableFuture.completedFuture(JSON.createObjectNode().put("action", "accept")
                        .set("content", JSON.createObjectNode().put("name", "Ada")))).build();
        assertThat(options.protocolEra()).isEqualTo(McpProtocolEra.AUTO);
        try (McpConnection c = McpConnection.open(modernPython(), options, T)) {
            assertThat(c.protocolVersion()).isEqualTo("2026-07-28");
            assertThat(c.protocolEra()).isEqualTo(McpProtocolEra.MODERN);
            assertThat(c.serverInfo().name()).isEqualTo("fixture");
            assertThat(c.listTools(T)).contains("echo", "ask_client", "change_tools");
            assertThat(c.callTool("echo", JSON.createObjectNode().put("text", "héllo 世界"), T))
                    .isEqualTo(TextNode.valueOf("héllo 世界"));

            // the server's request for input comes as an input_required round, answered by the same handler
            ObjectNode ask = JSON.createObjectNode().put("method", "elicitation/create");
            ask.putObject("params").put("mode", "form").put("message", "Your name?")
                .putObject("requestedSchema").put("type", "object").putObject("properties").putObject("name")
                .put("type", "string");
            assertThat(c.callToolResult("ask_client", ask, McpCallOptions.of(T)).structuredContent())
                    .isEqualTo(Map.of("response", Map.of("action", "accept", "content", Map.of("name", "Ada"))));

            // list changes arrive on the listen stream
            List<String> seen = new CopyOnWriteArrayList<>();
            c.subscribeNotifications(n -> seen.add(n.method()));
            c.callTool("change_tools", JSON.createObjectNode().put("name", "grown"), T);
            await().atMost(Duration.ofSeconds(10)).until(() -> c.tools().contains("grown"));
            assertThat(seen).contains("notifications/tools/list_changed");
        }
        List<String> methods = methods();
        assertThat(methods.get(0)).isEqualTo("server/discover");
        assertThat(methods).doesNotContain("initialize", "notifications/initialized", "ping")
                .contains("tools/list", "tools/call", "subscriptions/listen");
        // every request carried the modern _meta
        for (String line : Files.readAllLines(dir.resolve("lines"))) {
            JsonNode message = JSON.readTree(line);
            if (message.has("id") && message.has("method")) {
                assertThat(message.path("params").path("_meta").path("io.modelcontextprotocol/protocolVersion").asText())
                        .as(line).isEqualTo("2026-07-28");
            }
        }
    }

    @Test
    void aLegacyPinStillGetsInitialize() throws Exception {
        try (McpConnection c = McpConnection.open(modernPython(),
                McpClientOptions.builder().protocolEra(McpProtocolEra.LEGACY).build(), T)) {
            assertThat(c.protocolVersion()).isEqualTo("2025-11-25");
            assertThat(c.callTool("echo", JSON.createObjectNode().put("text", "x"), T)).isEqualTo(TextNode.valueOf("x"));
        }
        assertThat(methods()).startsWith("initialize").doesNotContain("server/discover");
    }
}
