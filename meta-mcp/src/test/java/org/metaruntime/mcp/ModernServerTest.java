package org.metaruntime.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.supervisor.ProcessSpec;
import org.metaruntime.supervisor.internal.manual.ManualScheduler;
import org.metaruntime.testing.LeakCheck;

/** The MCP client against a modern (2026-07-28) server on the TypeScript SDK v2, over stdio. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ModernServerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration T = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    private static McpClientOptions.Builder namer() {
        return McpClientOptions.builder().protocolEra(McpProtocolEra.MODERN).elicitationHandler((module, params) ->
                CompletableFuture.completedFuture(
                JSON.createObjectNode().put("action", "accept").set("content", JSON.createObjectNode().put("name", "Ada"))));
    }

    @Test
    void autoFindsAModernServerAndEverythingWorks() throws Exception {
        Path marker = dir.resolve("marker");
        // the connection's deadlines run on a clock that stands still: the probe's 2 s bound cannot pass however long
        // node takes to start on a busy machine, so AUTO is decided by the server's answer alone
        ManualScheduler clock = new ManualScheduler();
        try (McpConnection c = Waits.opened(McpConnection.openAsync(Peers.modern("modern", "--marker",
                marker.toString()), namer().protocolEra(McpProtocolEra.AUTO).build(), T, clock), "modern")) {
            assertThat(clock.requestedDelays()).as("the probe's bound").contains(Duration.ofSeconds(2));
            assertThat(c.protocolVersion()).isEqualTo("2026-07-28");
            assertThat(c.protocolEra()).isEqualTo(McpProtocolEra.MODERN);
            assertThat(c.serverInfo().name()).isEqualTo("modern-test-server");
            assertThat(c.listTools(T)).contains("echo", "slow", "ask", "whoami", "grow");
            assertThat(c.callTool("echo", JSON.createObjectNode().put("text", "héllo 世界"), T))
                    .isEqualTo(TextNode.valueOf("héllo 世界"));

            // every request carries the modern _meta: version, client info, capabilities
            JsonNode meta = c.callTool("whoami", null, T);
            assertThat(meta.path("io.modelcontextprotocol/protocolVersion").asText()).isEqualTo("2026-07-28");
            assertThat(meta.path("io.modelcontextprotocol/clientInfo").path("name").asText()).isEqualTo("meta-runtime");
            assertThat(meta.path("io.modelcontextprotocol/clientCapabilities").has("elicitation")).isTrue();

            // the whole result, as the server sent it
            var whole = c.callToolResult("slow", JSON.createObjectNode().put("steps", 1).put("delayMs", 1),
                    McpCallOptions.of(T));
            assertThat(whole.structuredContent()).isEqualTo(java.util.Map.of("steps", 1));

            // progress
            List<McpProgress> progress = new CopyOnWriteArrayList<>();
            c.callToolResult("slow", JSON.createObjectNode().put("steps", 3).put("delayMs", 10),
                    McpCallOptions.builder(T).onProgress(progress::add).build());
            assertThat(progress).extracting(McpProgress::progress).containsExactly(1.0, 2.0, 3.0);

            // input_required: fulfilled by the elicitation handler, then retried
            assertThat(c.callTool("ask", null, T)).isEqualTo(TextNode.valueOf("hello Ada"));
            assertThat(c.getPrompt("greet", null, T).messages().get(0).content().toString()).contains("greet Ada");
            assertThat(c.readResource("mem://note", T).contents().get(0).toString()).contains("note of Ada");

            // health: server/discover (a modern server has no ping)
            c.ping(T);

            // cancel: notifications/cancelled reaches the server's handler
            CountDownLatch running = new CountDownLatch(1);
            McpToolCall call = c.startCall("slow", JSON.createObjectNode().put("steps", 100).put("delayMs", 100),
                    McpCallOptions.builder(T).onProgress(p -> running.countDown()).build());
            assertThat(running.await(60, TimeUnit.SECONDS)).as("the server's handler runs").isTrue();
            call.cancel();
            await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(marker)
                    && Files.readString(marker).contains("cancelled"));

            // list changes arrive on the listen stream and refresh the tools
            List<String> seen = new CopyOnWriteArrayList<>();
            c.subscribeNotifications(n -> seen.add(n.method()));
            c.callTool("grow", null, T);
            await().atMost(Duration.ofSeconds(10)).until(() -> c.tools().contains("grown"));
            assertThat(seen).contains("notifications/tools/list_changed");
        }
    }

    @Test
    void anInputRequestNoHandlerAnswersFailsTheCall() {
        try (McpConnection c = McpConnection.open(Peers.modern("modern"),
                McpClientOptions.builder().protocolEra(McpProtocolEra.MODERN).announceElicitation(true).build(), T)) {
            McpBoundaryError error = catchThrowableOfType(McpBoundaryException.class, () -> c.callTool("ask", null, T))
                    .error();
            assertThat(error).isInstanceOf(McpBoundaryError.ToolCallFailed.class);
            assertThat(error.message()).contains("elicitation/create");
        }
    }

    @Test
    void withoutTheCapabilityTheServerDoesNotAsk() {
        try (McpConnection c = McpConnection.open(Peers.modern("modern"),
                McpClientOptions.builder().protocolEra(McpProtocolEra.MODERN).build(), T)) {
            McpBoundaryError error = catchThrowableOfType(McpBoundaryException.class, () -> c.callTool("ask", null, T))
                    .error();
            assertThat(error).isInstanceOf(McpBoundaryError.JsonRpcError.class);
            assertThat(((McpBoundaryError.JsonRpcError) error).errorCode()).isEqualTo(-32021);
        }
    }

    @Test
    void thePerCallHandlerAnswersFirst() {
        try (McpConnection c = McpConnection.open(Peers.modern("modern"), namer().build(), T)) {
            McpCallOptions options = McpCallOptions.builder(T).elicitationHandler((module, params) ->
                    CompletableFuture.completedFuture(JSON.createObjectNode().put("action", "accept")
                            .set("content", JSON.createObjectNode().put("name", "Grace")))).build();
            assertThat(c.callToolResult("ask", null, options).content().get(0).toString()).contains("hello Grace");
        }
    }

    @Test
    void aServerThatAsksForeverFailsTheCallAfterTenRounds() throws Exception {
        Path marker = dir.resolve("marker");
        try (McpConnection c = McpConnection.open(Peers.modern("modern", "--marker", marker.toString()), namer().build(), T)) {
            McpBoundaryError error = catchThrowableOfType(McpBoundaryException.class, () -> c.callTool("nag", null, T))
                    .error();
            assertThat(error).isInstanceOf(McpBoundaryError.ToolCallFailed.class);
            assertThat(error.message()).contains("more than 10 times");
            assertThat(Files.readAllLines(marker)).as("the first request and 10 retries").hasSize(11);
        }
    }

    @Test
    void aSharedHandlerSeesWhichCallAsks() {
        McpClientOptions options = McpClientOptions.builder().protocolEra(McpProtocolEra.MODERN).elicitationHandler((module, params) ->
                CompletableFuture.completedFuture(JSON.createObjectNode().put("action", "accept").set("content",
                        JSON.createObjectNode().put("name", params.path("_meta").path("trace").asText("?"))))).build();
        try (McpConnection c = McpConnection.open(Peers.modern("modern"), options, T)) {
            McpCallOptions traced = McpCallOptions.builder(T).meta(JSON.createObjectNode().put("trace", "call-7")).build();
            assertThat(c.callToolResult("ask", null, traced).content().get(0).toString()).contains("hello call-7");
        }
    }

    @Test
    void withPerCallCapabilitiesTheClientsOwnRequestsDeclareNone() throws Exception {
        Path requests = dir.resolve("requests.jsonl");
        McpClientOptions options = namer().perCallCapabilities(true).protocolEra(McpProtocolEra.MODERN).build();
        try (McpConnection c = McpConnection.open(Peers.modern("modern", "--requests", requests.toString()), options, T)) {
            assertThat(c.protocolVersion()).isEqualTo("2026-07-28");
            c.listTools(T);
            c.ping(T);
            ObjectNode meta = JSON.createObjectNode();
            meta.putObject("io.modelcontextprotocol/clientCapabilities").putObject("elicitation");
            McpCallOptions declaring = McpCallOptions.builder(T).meta(meta).build();
            assertThat(c.callToolResult("ask", null, declaring).content().get(0).toString()).contains("hello Ada");
            McpBoundaryError undeclared = catchThrowableOfType(McpBoundaryException.class,
                    () -> c.callTool("ask", null, T)).error();
            assertThat(((McpBoundaryError.JsonRpcError) undeclared).errorCode()).isEqualTo(-32021);
            await().atMost(Duration.ofSeconds(10)).until(() -> Files.readAllLines(requests).stream()
                    .anyMatch(l -> l.contains("subscriptions/listen")));
        }
        List<JsonNode> seen = Files.readAllLines(requests).stream().map(l -> {
            try {
                return JSON.readTree(l);
            } catch (Exception e) {
                throw new AssertionError(l, e);
            }
        }).toList();
        assertThat(seen).extracting(r -> r.path("method").asText())
                .contains("server/discover", "tools/list", "subscriptions/listen", "tools/call");
        assertThat(seen).filteredOn(r -> !r.path("method").asText().equals("tools/call"))
                .allSatisfy(r -> assertThat(r.get("clientCapabilities")).as("%s", r).isEqualTo(JSON.createObjectNode()));
        assertThat(seen).filteredOn(r -> r.path("method").asText().equals("tools/call"))
                .extracting(r -> r.get("clientCapabilities").has("elicitation")).containsExactly(true, true, false);
    }

    @Test
    void aHandlerSeesTheServersRoundAsTheServerSentIt() {
        List<JsonNode> seen = new CopyOnWriteArrayList<>();
        McpClientOptions options = McpClientOptions.builder().protocolEra(McpProtocolEra.MODERN).elicitationHandler((module, params) -> {
            seen.add(params);
            return CompletableFuture.completedFuture(JSON.createObjectNode().put("action", "accept")
                    .set("content", JSON.createObjectNode().put("name", "Ada")));
        }).build();
        try (McpConnection c = McpConnection.open(Peers.modern("modern"), options, T)) {
            assertThat(c.callTool("ask", null, T)).isEqualTo(TextNode.valueOf("hello Ada"));
        }
        assertThat(seen).hasSize(1);
        JsonNode round = seen.get(0).path("_meta").path(McpClientRequestHandler.INPUT_ROUND_META_KEY);
        assertThat(round.path("key").asText()).as("%s", seen).isEqualTo("name");
        assertThat(round.path("keys")).containsExactly(TextNode.valueOf("name"));
        assertThat(round.path("requestState").asText()).isEqualTo("round-1");
        assertThat(round.path("request").path("method").asText()).isEqualTo("elicitation/create");
        assertThat(round.path("request").path("params").path("message").asText()).isEqualTo("Your name for ask?");
        assertThat(round.path("request").path("params").has("_meta")).isFalse();
    }

    @Test
    void legacyPinAgainstAModernOnlyServerIsUnsupported() {
        McpBoundaryException e = catchThrowableOfType(McpBoundaryException.class, () -> McpConnection.open(
                Peers.modern("modern", "--modern-only"),
                McpClientOptions.builder().protocolEra(McpProtocolEra.LEGACY).build(), T));
        assertThat(e.error()).isInstanceOf(McpBoundaryError.UnsupportedProtocol.class);
        McpBoundaryError.UnsupportedProtocol unsupported = (McpBoundaryError.UnsupportedProtocol) e.error();
        assertThat(unsupported.era()).isEqualTo(McpProtocolEra.LEGACY);
        assertThat(unsupported.serverVersions()).contains("2026-07-28");
        assertThat(unsupported.code()).isEqualTo("mcp.unsupported_protocol");
    }

    @Test
    void legacyPinAgainstADualServerSpeaksLegacy() {
        try (McpConnection c = McpConnection.open(Peers.modern("modern"),
                McpClientOptions.builder().protocolEra(McpProtocolEra.LEGACY).build(), T)) {
            assertThat(c.protocolVersion()).isEqualTo("2025-11-25");
            assertThat(c.callTool("echo", JSON.createObjectNode().put("text", "x"), T)).isEqualTo(TextNode.valueOf("x"));
        }
    }

    @Test
    void aModernPinWaitsForASlowServerBeyondTheProbeBound() {
        ProcessSpec modern = Peers.modern("slow-start", "--modern-only");
        String command = String.join(" ", modern.command().stream().map(part -> "'" + part + "'").toList());
        ProcessSpec slow = ProcessSpec.builder("slow-start").command("sh", "-c", "sleep 3; exec " + command).build();
        try (McpConnection c = McpConnection.open(slow,
                McpClientOptions.builder().protocolEra(McpProtocolEra.MODERN).build(), T)) {
            assertThat(c.protocolVersion()).isEqualTo("2026-07-28");
        }
    }

    @Test
    void modernPinWorksAgainstAModernOnlyServer() {
        try (McpConnection c = McpConnection.open(Peers.modern("modern", "--modern-only"),
                McpClientOptions.builder().protocolEra(McpProtocolEra.MODERN).build(), T)) {
            assertThat(c.protocolVersion()).isEqualTo("2026-07-28");
            assertThat(c.callTool("echo", JSON.createObjectNode().put("text", "x"), T)).isEqualTo(TextNode.valueOf("x"));
        }
    }
}
