package org.metaruntime.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.mcp.internal.SharedTimer;
import org.metaruntime.supervisor.ProcessSpec;

/** A bare JSON-RPC server (no initialize, no tools/list) with tools declared in the options. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BareServerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration T = Duration.ofSeconds(20);
    private static final Path BARE = Path.of("src", "test", "resources", "fixtures", "bare_server.py").toAbsolutePath();
    private static final List<McpSchema.Tool> DECLARED = List.of(
            McpSchema.Tool.builder("add", Map.of("type", "object")).description("adds a and b").build(),
            McpSchema.Tool.builder("text", Map.of("type", "object")).build(),
            McpSchema.Tool.builder("number", Map.of("type", "object")).build(),
            McpSchema.Tool.builder("missing", Map.of("type", "object")).build());

    @TempDir
    Path dir;

    @AfterEach
    void nothingLeft() {
        Peers.assertGone(dir.resolve("pid"));
        Peers.assertNoProcessLeft();
        assertThat(SharedTimer.leases()).isZero();
    }

    private Path record() {
        return dir.resolve("stdin.jsonl");
    }

    private ProcessSpec spec() {
        return ProcessSpec.builder("bare").command(Peers.tool("python3"), BARE.toString(), "--pid-file",
                dir.resolve("pid").toString(), "--record", record().toString()).build();
    }

    private static McpClientOptions bare() {
        return McpClientOptions.builder().bare(DECLARED).build();
    }

    @Test
    void servesTheDeclaredToolsWithoutAHandshake() throws Exception {
        McpProbeResult probe = McpProbe.probe(spec(), bare(), T);
        McpConnection c = probe.connection();
        try {
            assertThat(probe.tools()).containsExactly("add", "missing", "number", "text");
            assertThat(c.tools()).containsExactly("add", "text", "number", "missing");
            assertThat(c.toolDescriptors().get(0).description()).isEqualTo("adds a and b");
            assertThat(c.protocolVersion()).isNull();

            assertThat(c.callTool("add", JSON.createObjectNode().put("a", 2).put("b", 40), T))
                    .isEqualTo(JSON.createObjectNode().put("sum", 42));
            McpSchema.CallToolResult whole = c.callToolResult("add", JSON.createObjectNode().put("a", 1).put("b", 2),
                    McpCallOptions.of(T));
            assertThat(((McpSchema.TextContent) whole.content().get(0)).text()).isEqualTo("{\"sum\":3}");
            assertThat(whole.structuredContent()).isEqualTo(Map.of("sum", 3));
            assertThat(c.callTool("text", JSON.createObjectNode().put("text", "as sent"), T)).isEqualTo(TextNode.valueOf("as sent"));
            assertThat(c.callTool("number", null, T)).isEqualTo(IntNode.valueOf(42));

            McpBoundaryError rpc = catchThrowableOfType(McpBoundaryException.class, () -> c.callTool("missing", null, T)).error();
            assertThat(rpc).isInstanceOfSatisfying(McpBoundaryError.JsonRpcError.class, e -> {
                assertThat(e.errorCode()).isEqualTo(-32602);
                assertThat(e.data().get("tool").asText()).isEqualTo("missing");
            });
            assertThat(catchThrowableOfType(McpBoundaryException.class, () -> c.callTool("undeclared", null, T)).error())
                    .isEqualTo(new McpBoundaryError.ToolNotFound("bare", "undeclared", List.of("add", "text", "number", "missing")));
        } finally {
            c.close(T);
        }
        List<String> methods = new ArrayList<>();
        for (String line : Files.readAllLines(record())) {
            methods.add(JSON.readTree(line).path("method").asText());
        }
        assertThat(methods).containsOnly("tools/call").hasSize(5); // the undeclared tool is never sent
    }

    @Test
    void perCallAgainstABareServer() {
        JsonNode payload = McpPerCall.call(spec(), "add", JSON.createObjectNode().put("a", 20).put("b", 22), T, bare());
        assertThat(payload).isEqualTo(JSON.createObjectNode().put("sum", 42));
    }
}
