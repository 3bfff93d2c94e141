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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.supervisor.ProcessSpec;
import org.metaruntime.supervisor.internal.SharedTimer;
import org.metaruntime.testing.LeakCheck;

/** A bare JSON-RPC server (no initialize, no tools/list) with tools declared in the options. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BareServerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration T = Duration.ofSeconds(20);
    private static final List<McpSchema.Tool> DECLARED = List.of(
            McpSchema.Tool.builder("add", Map.of("type", "object")).description("adds a and b").build(),
            McpSchema.Tool.builder("text", Map.of("type", "object")).build(),
            McpSchema.Tool.builder("number", Map.of("type", "object")).build(),
            McpSchema.Tool.builder("missing", Map.of("type", "object")).build());

    @TempDir
    Path dir;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes().pidFile(() -> dir.resolve("pid")).zero("shared timer leases", SharedTimer::leases);

    private Path record() {
        return dir.resolve("stdin.jsonl");
    }

    private ProcessSpec spec(String... switches) {
        List<String> command = new ArrayList<>(List.of("--bare", "--record", record().toString()));
        command.addAll(List.of(switches));
        return Peers.python("bare", dir.resolve("pid"), command.toArray(String[]::new));
    }

    /** The methods of the lines the server read, in order; a notification is recorded as "notification:<method>". */
    private List<String> received() throws java.io.IOException {
        List<String> methods = new ArrayList<>();
        for (String line : Files.readAllLines(record())) {
            JsonNode message = JSON.readTree(line);
            methods.add((message.has("id") ? "" : "notification:") + message.path("method").asText());
        }
        return methods;
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

    @Test
    void aServerThatAnswersInitializeWithAnErrorIsServedAsBareWithItsDeclaredTools() throws Exception {
        List<String> told = new java.util.concurrent.CopyOnWriteArrayList<>();
        McpClientOptions options = McpClientOptions.builder().bareUnlessMcp(DECLARED).bareListener((id, why) -> told.add(id + ": " + why)).build();
        McpProbeResult probe = McpProbe.probe(spec(), options, T);
        McpConnection c = probe.connection();
        try {
            assertThat(c.protocolVersion()).isNull();
            assertThat(c.tools()).containsExactly("add", "text", "number", "missing");
            assertThat(c.callTool("add", JSON.createObjectNode().put("a", 2).put("b", 40), T))
                    .isEqualTo(JSON.createObjectNode().put("sum", 42));
            assertThat(((McpSchema.TextContent) c.callToolResult("number", null, McpCallOptions.of(T)).content().get(0)).text())
                    .isEqualTo("42");
        } finally {
            c.close(T);
        }
        assertThat(told).containsExactly("bare: it answered initialize with JSON-RPC error -32601: no such method");
        assertThat(received()).as("the era probe, then initialize on the same process")
                .containsExactly("server/discover", "initialize", "tools/call", "tools/call");
    }

    @Test
    void aServerThatAnswersEveryRequestAlikeIsServedAsBare() throws Exception {
        McpConnection c = McpConnection.open(spec("--status-ok"), McpClientOptions.builder().bareUnlessMcp(DECLARED).build(), T);
        try {
            assertThat(c.protocolVersion()).isNull();
            McpSchema.CallToolResult result = c.callToolResult("text", JSON.createObjectNode().put("text", "x"), McpCallOptions.of(T));
            assertThat(result.structuredContent()).isEqualTo(Map.of("status", "ok"));
            assertThat(c.callTool("add", null, T)).isEqualTo(JSON.createObjectNode().put("status", "ok"));
        } finally {
            c.close(T);
        }
        assertThat(received()).as("a line without an id would have ended it")
                .containsExactly("server/discover", "initialize", "tools/call", "tools/call");
    }

    @Test
    void anMcpServerWithDeclaredToolsStaysAnMcpSession() throws Exception {
        List<String> told = new java.util.concurrent.CopyOnWriteArrayList<>();
        McpClientOptions options = McpClientOptions.builder().bareUnlessMcp(DECLARED).bareListener((id, why) -> told.add(id + ": " + why)).build();
        McpConnection c = McpConnection.open(Peers.python("mcp", dir.resolve("pid"), "--record", record().toString()), options, T);
        try {
            assertThat(c.protocolVersion()).isEqualTo(McpConnection.PROTOCOL_VERSIONS.get(0));
            assertThat(c.listTools(T)).contains("echo", "slow").doesNotContain("missing");
            assertThat(c.callTool("echo", JSON.createObjectNode().put("text", "mcp"), T)).isEqualTo(TextNode.valueOf("mcp"));
        } finally {
            c.close(T);
        }
        assertThat(told).isEmpty();
        assertThat(received()).startsWith("server/discover", "initialize", "notification:notifications/initialized");
    }

    @Test
    void withoutDeclaredToolsAServerThatIsNotMcpFailsNamingWhatItAnswered() {
        McpBoundaryException failed = catchThrowableOfType(McpBoundaryException.class,
                () -> McpConnection.open(spec("--status-ok"), McpClientOptions.defaults(), T));
        assertThat(failed.error()).isInstanceOf(McpBoundaryError.ConnectionFailed.class);
        assertThat(failed.getMessage()).contains("answered initialize with {\"status\":\"ok\"}")
                .contains("not an MCP initialize result");
    }

    @Test
    void aBareServerIsNeverSentANotificationNotEvenForACallThatTimedOut() throws Exception {
        List<McpSchema.Tool> tools = List.of(McpSchema.Tool.builder("add", Map.of("type", "object")).build(),
                McpSchema.Tool.builder("silent", Map.of("type", "object")).build());
        for (McpClientOptions options : List.of(McpClientOptions.builder().bare(tools).build(),
                McpClientOptions.builder().bareUnlessMcp(tools).build())) {
            Files.deleteIfExists(record());
            McpConnection c = McpConnection.open(spec(), options, T);
            try {
                McpBoundaryError timedOut = catchThrowableOfType(McpBoundaryException.class,
                        () -> c.callTool("silent", null, Duration.ofMillis(200))).error();
                assertThat(timedOut).isInstanceOf(McpBoundaryError.Timeout.class);
                McpToolCall cancelled = c.startCall("silent", null, McpCallOptions.of(T));
                cancelled.cancel();
                assertThat(c.callTool("add", JSON.createObjectNode().put("a", 1).put("b", 1), T))
                        .isEqualTo(JSON.createObjectNode().put("sum", 2));
            } finally {
                c.close(T);
            }
            assertThat(received()).as("what %s was sent", options.bareTools().isPresent() ? "a bare server" : "a server found bare")
                    .allSatisfy(method -> assertThat(method).doesNotStartWith("notification:"))
                    .endsWith("tools/call", "tools/call", "tools/call");
            Peers.assertGone(dir.resolve("pid"));
        }
    }

    @Test
    void aServerThatDoesNotAnswerInitializeIsServedAsBareBeforeTheConnectTimeoutEnds() throws Exception {
        List<String> told = new java.util.concurrent.CopyOnWriteArrayList<>();
        McpClientOptions options = McpClientOptions.builder().bareUnlessMcp(DECLARED)
                .bareListener((id, why) -> told.add(id + ": " + why)).build();
        McpConnection c = McpConnection.open(spec("--silent"), options, Duration.ofSeconds(2));
        try {
            assertThat(c.protocolVersion()).isNull();
            assertThat(c.callTool("add", JSON.createObjectNode().put("a", 2).put("b", 40), T))
                    .isEqualTo(JSON.createObjectNode().put("sum", 42));
        } finally {
            c.close(T);
        }
        // the detection time (all but the last second of the connect timeout) is shared by the probe and initialize
        assertThat(told).containsExactly("bare: it did not answer initialize within 500 ms");
        assertThat(received()).containsExactly("server/discover", "initialize", "tools/call");
    }

    @Test
    void theDetectionLeavesTheLastSecondOfTheConnectTimeoutOrHalfOfAShortOne() {
        assertThat(org.metaruntime.mcp.internal.Handshake.detectionBound(10_000)).isEqualTo(9_000);
        assertThat(org.metaruntime.mcp.internal.Handshake.detectionBound(120_000)).isEqualTo(119_000);
        assertThat(org.metaruntime.mcp.internal.Handshake.detectionBound(2_000)).isEqualTo(1_000);
        assertThat(org.metaruntime.mcp.internal.Handshake.detectionBound(1_000)).isEqualTo(500);
        assertThat(org.metaruntime.mcp.internal.Handshake.detectionBound(1)).isEqualTo(1);
    }
}
