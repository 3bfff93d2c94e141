package org.metaruntime.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.metaruntime.mcp.internal.SharedHttpClient;
import org.metaruntime.supervisor.internal.SharedTimer;
import org.metaruntime.testing.LeakCheck;
import org.metaruntime.testing.ListeningServer;

/**
 * Remote MCP modules over Streamable HTTP against {@code @modelcontextprotocol/server-everything} in its
 * {@code streamableHttp} mode, on loopback: the same session code as stdio, the session id kept and renewed when the
 * server forgets it, and a server killed and started again mid-traffic.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class RemoteEverythingTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration T = Duration.ofSeconds(30);

    private ListeningServer server;
    private final List<McpConnection> opened = new ArrayList<>();

    @BeforeEach
    void startServer() {
        server = everythingOverHttp();
    }

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes().zero("shared timer leases", SharedTimer::leases).zero("shared HTTP client leases", SharedHttpClient::leases).threads("meta-mcp-http");

    @AfterEach
    void close() {
        opened.forEach(c -> c.closeQuietly(Duration.ofSeconds(5)));
        server.close();
    }

    /** server-everything's Streamable HTTP server on a free loopback port. */
    static ListeningServer everythingOverHttp() {
        String node = Peers.tool("node");
        Peers.everything("check-installed");
        return ListeningServer.start("server-everything",
                port -> List.of(node, Peers.EVERYTHING.toString(), "streamableHttp"),
                port -> Map.of("PORT", String.valueOf(port)));
    }

    private McpHttpEndpoint endpoint() {
        return McpHttpEndpoint.of("remote", URI.create("http://127.0.0.1:" + server.port() + "/mcp"));
    }

    private McpConnection open() {
        McpConnection c = McpConnection.open(endpoint(), McpClientOptions.defaults(), T);
        opened.add(c);
        return c;
    }

    @Test
    void aRemoteServerIsProbedListedAndCalledLikeAStdioOne() {
        McpProbeResult probe = McpProbe.probe(endpoint(), McpClientOptions.defaults(), T);
        McpConnection c = probe.connection();
        opened.add(c);
        assertThat(c.isRemote()).isTrue();
        assertThat(c.sessionId()).isPresent();
        assertThat(c.protocolVersion()).isIn(McpConnection.PROTOCOL_VERSIONS);
        assertThat(probe.tools()).contains("echo", "get-sum", "get-structured-content", "trigger-long-running-operation");
        assertThat(c.callTool("echo", JSON.createObjectNode().put("message", "héllo 世界 🎉"), T))
                .isEqualTo(TextNode.valueOf("Echo: héllo 世界 🎉"));
        JsonNode weather = c.callTool("get-structured-content", JSON.createObjectNode().put("location", "New York"), T);
        assertThat(weather.has("temperature")).isTrue();
        assertThat(c.callToolResult("get-tiny-image", null, McpCallOptions.of(T)).content())
                .anyMatch(block -> block instanceof io.modelcontextprotocol.spec.McpSchema.ImageContent);
        c.ping(T);

        McpBoundaryError unknown = catchThrowableOfType(McpBoundaryException.class,
                () -> c.callTool("no-such-tool", null, T)).error();
        assertThat(unknown).isInstanceOf(McpBoundaryError.ToolNotFound.class);
        assertThatNoStderrOrPid(c);

        c.close(T);
        assertThat(c.sessionEnd()).isCompletedWithValueMatching(McpSessionEnd::closedByHost);
        assertThat(server.output()).contains("Received session termination request");
    }

    private static void assertThatNoStderrOrPid(McpConnection c) {
        assertThat(c.stderrTail()).isEmpty();
        assertThat(catchThrowableOfType(IllegalStateException.class, c::pid)).hasMessageContaining("remote server");
    }

    @Test
    void progressArrivesOnTheAnswerStreamAndManyCallsShareTheSession() throws Exception {
        McpConnection c = open();
        List<McpProgress> updates = new CopyOnWriteArrayList<>();
        McpToolCall call = c.startCall("trigger-long-running-operation",
                JSON.createObjectNode().put("duration", 1).put("steps", 4),
                McpCallOptions.builder(T).onProgress(updates::add).build());
        assertThat(call.result().get().isError()).isNotEqualTo(Boolean.TRUE);
        assertThat(updates).hasSize(4);
        assertThat(updates.get(3).total()).isEqualTo(4.0);

        List<java.util.concurrent.CompletableFuture<JsonNode>> calls = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            calls.add(c.callToolAsync("get-sum", JSON.createObjectNode().put("a", i).put("b", 1000), T));
        }
        for (int i = 0; i < 64; i++) {
            assertThat(calls.get(i).get().asText()).contains(String.valueOf(i + 1000));
        }
    }

    @Test
    void callsStartNoThreadEachOnlyTheSharedClientsNamedOnes() {
        McpConnection c = open();
        assertThat(c.callTool("echo", JSON.createObjectNode().put("message", "warm"), T)).isEqualTo(TextNode.valueOf("Echo: warm"));
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Set<String> seen = ConcurrentHashMap.newKeySet();
        long startedBefore = threads.getTotalStartedThreadCount();
        for (int wave = 0; wave < 25; wave++) {
            List<java.util.concurrent.CompletableFuture<JsonNode>> calls = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                calls.add(c.callToolAsync("echo", JSON.createObjectNode().put("message", wave + "." + i), T));
            }
            for (int i = 0; i < 8; i++) {
                assertThat(calls.get(i).join()).isEqualTo(TextNode.valueOf("Echo: " + wave + "." + i));
            }
            Thread.getAllStackTraces().keySet().forEach(t -> seen.add(t.getName()));
        }
        // a thread per call in flight and a few for the client's own work, reused from one wave to the next
        long started = threads.getTotalStartedThreadCount() - startedBefore;
        assertThat(started).as("threads started during 200 calls, 8 at a time: %s", seen).isLessThanOrEqualTo(32);
        assertThat(seen).noneMatch(name -> name.matches("Thread-\\d+") || name.startsWith("ForkJoinPool"));
        assertThat(seen.stream().filter(name -> name.startsWith("meta-mcp-http-")).count()).isLessThanOrEqualTo(32);
    }

    @Test
    void aTimedOutCallIsCancelledAndItsStreamClosed() {
        McpConnection c = open();
        McpBoundaryError timeout = catchThrowableOfType(McpBoundaryException.class, () -> c.callTool(
                "trigger-long-running-operation", JSON.createObjectNode().put("duration", 30).put("steps", 5),
                Duration.ofMillis(700))).error();
        assertThat(timeout).isEqualTo(new McpBoundaryError.Timeout("remote", "call_tool:trigger-long-running-operation", 700));
        assertThat(c.callTool("echo", JSON.createObjectNode().put("message", "after"), T)).isEqualTo(TextNode.valueOf("Echo: after"));
        assertThat(c.inFlight()).isZero();
    }

    @Test
    void aForgottenSessionIsReplacedOnceAndTheCallGoesThrough() throws Exception {
        McpConnection c = open();
        String first = c.sessionId().orElseThrow();
        // end the session behind the connection's back, as a server restart or eviction would
        HttpResponse<String> deleted = HttpClient.newHttpClient().send(HttpRequest.newBuilder(endpoint().url()).DELETE()
                .header("Mcp-Session-Id", first).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(deleted.statusCode()).isEqualTo(200);

        assertThat(c.callTool("echo", JSON.createObjectNode().put("message", "again"), T)).isEqualTo(TextNode.valueOf("Echo: again"));
        assertThat(c.sessionRenewals()).isEqualTo(1);
        assertThat(c.sessionId()).isPresent().isNotEqualTo(java.util.Optional.of(first));
        assertThat(c.isOpen()).isTrue();
    }

    @Test
    void nothingListeningIsConnectionFailed() {
        McpHttpEndpoint nowhere = McpHttpEndpoint.of("remote", URI.create("http://127.0.0.1:" + ListeningServer.freePort() + "/mcp"));
        McpBoundaryError error = catchThrowableOfType(McpBoundaryException.class,
                () -> McpConnection.open(nowhere, McpClientOptions.defaults(), T)).error();
        assertThat(error).isInstanceOf(McpBoundaryError.ConnectionFailed.class);
        assertThat(((McpBoundaryError.ConnectionFailed) error).reason()).contains("cannot be reached", "connection refused");
    }

    @Test
    void aWrongPathIsConnectionFailedWithTheHttpStatus() {
        McpHttpEndpoint wrong = McpHttpEndpoint.of("remote", URI.create("http://127.0.0.1:" + server.port() + "/nope"));
        McpBoundaryError error = catchThrowableOfType(McpBoundaryException.class,
                () -> McpConnection.open(wrong, McpClientOptions.defaults(), T)).error();
        assertThat(error).isInstanceOf(McpBoundaryError.ConnectionFailed.class);
        assertThat(((McpBoundaryError.ConnectionFailed) error).reason()).contains("HTTP 404");
    }

    @Test
    void aKilledServerFailsCallsInFlightAtOnceAndLaterCallsFast() throws Exception {
        McpConnection c = open();
        List<McpToolCall> running = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            running.add(c.startCall("trigger-long-running-operation",
                    JSON.createObjectNode().put("duration", 120).put("steps", 2), McpCallOptions.of(Duration.ofMinutes(10))));
        }
        await().atMost(T).until(() -> c.inFlight() == 8);
        server.kill();
        for (McpToolCall call : running) {
            ExecutionException failed = catchThrowableOfType(ExecutionException.class, () -> call.result().get());
            McpBoundaryError error = ((McpBoundaryException) failed.getCause()).error();
            assertThat(error).isInstanceOf(McpBoundaryError.SessionLost.class);
            assertThat(error.code()).isEqualTo(McpBoundaryError.CODE_SESSION_LOST);
            assertThat(((McpBoundaryError.SessionLost) error).operation()).isEqualTo("call_tool:trigger-long-running-operation");
            assertThat(((McpBoundaryError.SessionLost) error).reason()).contains("cannot be reached");
        }
        McpSessionEnd end = c.sessionEnd().get();
        assertThat(end.closedByHost()).isFalse();
        assertThat(c.isOpen()).isFalse();
        McpBoundaryError later = catchThrowableOfType(McpBoundaryException.class,
                () -> c.callTool("echo", JSON.createObjectNode().put("message", "x"), Duration.ofMinutes(10))).error();
        assertThat(later).isInstanceOf(McpBoundaryError.SessionLost.class);

        server.restart();
        McpConnection again = open();
        assertThat(again.callTool("echo", JSON.createObjectNode().put("message", "back"), T)).isEqualTo(TextNode.valueOf("Echo: back"));
    }

    @Test
    void endpointsAreValidated() {
        assertThat(catchThrowableOfType(IllegalArgumentException.class,
                () -> McpHttpEndpoint.of("m", URI.create("ftp://host/mcp")))).hasMessageContaining("not an absolute http");
        assertThat(catchThrowableOfType(IllegalArgumentException.class,
                () -> McpHttpEndpoint.of("m", URI.create("http://127.0.0.1/mcp")).withHeader("Mcp-Session-Id", "x")))
                .hasMessageContaining("set by the MCP client");
        assertThat(catchThrowableOfType(IllegalArgumentException.class,
                () -> McpHttpEndpoint.of("m", URI.create("http://127.0.0.1/mcp")).withHeader("X-A", "a\r\nb")))
                .hasMessageContaining("line break");
        assertThat(McpHttpEndpoint.of("m", URI.create("http://127.0.0.1/mcp")).withHeader("Authorization", "Bearer s3cret")
                .toString()).doesNotContain("s3cret");
    }
}
