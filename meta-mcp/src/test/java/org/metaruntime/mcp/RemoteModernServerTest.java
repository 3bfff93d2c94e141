package org.metaruntime.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.supervisor.internal.SharedTimer;
import org.metaruntime.supervisor.internal.manual.ManualScheduler;
import org.metaruntime.testing.LeakCheck;

/**
 * A remote module of MCP 2026-07-28: the TypeScript SDK v2 server's HTTP handler in a node process, found by the
 * {@code server/discover} POST and spoken to without a session.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RemoteModernServerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration T = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private Process server;
    private URI url;

    @BeforeEach
    void startServer() throws Exception {
        Path port = dir.resolve("port");
        server = new ProcessBuilder(Peers.tool("node"), Peers.MODERN_SERVER.toString(), "--http", port.toString(),
                "--marker", dir.resolve("marker").toString()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("server.log").toFile()).start();
        await().atMost(Duration.ofSeconds(20)).until(() -> Files.exists(port) && !Files.readString(port).isBlank());
        url = URI.create("http://127.0.0.1:" + Files.readString(port).strip() + "/mcp");
    }

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes().zero("shared timer leases", SharedTimer::leases);

    @AfterEach
    void close() throws Exception {
        server.destroy();
        assertThat(server.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void autoFindsTheModernServerAndCallsItWithoutASession() throws Exception {
        McpClientOptions options = McpClientOptions.builder().elicitationHandler((module, params) ->
                CompletableFuture.completedFuture(JSON.createObjectNode().put("action", "accept")
                        .set("content", JSON.createObjectNode().put("name", "Ada")))).build();
        // the connection's deadlines run on a clock that stands still: the probe's 2 s bound cannot pass however slow
        // the machine is, so AUTO is decided by the server's answer alone
        ManualScheduler clock = new ManualScheduler();
        try (McpConnection c = Waits.opened(McpConnection.openAsync(McpHttpEndpoint.of("remote", url), options, T,
                clock), "remote")) {
            assertThat(clock.requestedDelays()).as("the probe's bound").contains(Duration.ofSeconds(2));
            assertThat(c.protocolVersion()).isEqualTo("2026-07-28");
            assertThat(c.sessionId()).isEmpty();
            assertThat(c.listTools(T)).contains("echo", "ask", "slow");
            assertThat(c.callTool("echo", JSON.createObjectNode().put("text", "héllo 世界"), T))
                    .isEqualTo(TextNode.valueOf("héllo 世界"));
            JsonNode meta = c.callTool("whoami", null, T);
            assertThat(meta.path("io.modelcontextprotocol/protocolVersion").asText()).isEqualTo("2026-07-28");
            assertThat(c.callTool("ask", null, T)).isEqualTo(TextNode.valueOf("hello Ada"));
            assertThat(c.readResource("mem://note", T).contents().get(0).toString()).contains("note of Ada");

            List<McpProgress> progress = new CopyOnWriteArrayList<>();
            var whole = c.callToolResult("slow", JSON.createObjectNode().put("steps", 3).put("delayMs", 10),
                    McpCallOptions.builder(T).onProgress(progress::add).build());
            assertThat(whole.structuredContent()).isEqualTo(java.util.Map.of("steps", 3));
            assertThat(progress).hasSize(3);

            c.ping(T); // server/discover

            CountDownLatch running = new CountDownLatch(1);
            McpToolCall call = c.startCall("slow", JSON.createObjectNode().put("steps", 100).put("delayMs", 100),
                    McpCallOptions.builder(T).onProgress(p -> running.countDown()).build());
            assertThat(running.await(60, TimeUnit.SECONDS)).as("the server's handler runs").isTrue();
            call.cancel(); // closes the request's stream
            await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(dir.resolve("marker"))
                    && Files.readString(dir.resolve("marker")).contains("cancelled"));
            assertThat(c.callTool("echo", JSON.createObjectNode().put("text", "after"), T)).isEqualTo(TextNode.valueOf("after"));
        }
    }

    @Test
    void aLegacyPinAgainstAModernOnlyServerIsUnsupported() throws Exception {
        Path port = dir.resolve("modern-only-port");
        Process modernOnly = new ProcessBuilder(Peers.tool("node"), Peers.MODERN_SERVER.toString(), "--modern-only",
                "--http", port.toString()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("modern-only.log").toFile()).start();
        try {
            await().atMost(Duration.ofSeconds(20)).until(() -> Files.exists(port) && !Files.readString(port).isBlank());
            URI at = URI.create("http://127.0.0.1:" + Files.readString(port).strip() + "/mcp");
            McpBoundaryException e = catchThrowableOfType(McpBoundaryException.class, () -> McpConnection.open(
                    McpHttpEndpoint.of("remote", at), McpClientOptions.builder().protocolEra(McpProtocolEra.LEGACY).build(), T));
            assertThat(e).as("the connection fails").isNotNull();
            assertThat(e.error()).isEqualTo(new McpBoundaryError.UnsupportedProtocol("remote", McpProtocolEra.LEGACY,
                    List.of("2026-07-28")));
            assertThat(e.error().code()).isEqualTo("mcp.unsupported_protocol");
        } finally {
            modernOnly.destroy();
            assertThat(modernOnly.waitFor(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void aLegacyPinSpeaksTheServersLegacyEra() {
        try (McpConnection c = McpConnection.open(McpHttpEndpoint.of("remote", url),
                McpClientOptions.builder().protocolEra(McpProtocolEra.LEGACY).build(), T)) {
            assertThat(c.protocolVersion()).isEqualTo("2025-11-25");
            assertThat(c.callTool("echo", JSON.createObjectNode().put("text", "x"), T)).isEqualTo(TextNode.valueOf("x"));
        }
    }
}
