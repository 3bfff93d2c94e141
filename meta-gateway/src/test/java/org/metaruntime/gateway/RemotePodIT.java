package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.metaruntime.gateway.NodeClient.call;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.LeakCheck;
import org.metaruntime.testing.ListeningServer;

/**
 * Remote pods: a manifest (or a Claude Desktop config) names a {@code url} instead of a command, and the gateway
 * serves that remote MCP server's tools like a local pod's. The server is {@code @modelcontextprotocol/server-everything}
 * over Streamable HTTP on loopback.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class RemotePodIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path EVERYTHING = NodeClient.NODE_DIR.resolve(
            "node_modules/@modelcontextprotocol/server-everything/dist/index.js");

    @TempDir
    Path dir;
    private ListeningServer server;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    @AfterEach
    void nothingLeft() {
        if (server != null) {
            server.close();
        }
    }

    private void startServer() {
        String node = Repo.tool("node");
        server = ListeningServer.start("server-everything", port -> List.of(node, EVERYTHING.toString(), "streamableHttp"),
                port -> Map.of("PORT", String.valueOf(port)));
    }

    private Path manifest(String extra) throws IOException {
        Path folder = Files.createDirectories(dir.resolve("manifests"));
        Files.writeString(folder.resolve("everything.yaml"), """
                apiVersion: mcp-meta/v1
                kind: ToolPod
                metadata: { name: everything }
                spec:
                  url: http://127.0.0.1:%d/mcp
                  headers: { X-Meta-Test: "yes" }
                  callTimeout: 20s
                  startupTimeout: 20s
                %s""".formatted(server.port(), extra));
        return folder;
    }

    @Test
    void aRemotePodIsListedAndCalledByARealClient() throws Exception {
        startServer();
        JsonNode session = NodeClient.session(List.of("--manifests", manifest("").toString()), List.of(
                call("everything__echo", "{\"message\": \"日本語 🎉\"}"), call("meta__status", "{}")));
        gatewayGone(session);
        assertThat(session.at("/steps/0/ok/content/0/text").asText()).as(session.toString()).isEqualTo("Echo: 日本語 🎉");
        JsonNode status = session.at("/steps/1/ok/structuredContent/pods/everything");
        assertThat(status.get("state").asText()).as(status.toString()).isEqualTo("Healthy");
        assertThat(status.get("pid").isNull()).isTrue();
    }

    @Test
    void aClaudeDesktopEntryWithAUrlIsARemotePod() throws Exception {
        startServer();
        Path config = dir.resolve("claude_desktop_config.json");
        Files.writeString(config, """
                {"mcpServers": {"everything": {"url": "http://127.0.0.1:%d/mcp", "headers": {"X-Meta-Test": "yes"}}}}
                """.formatted(server.port()));
        JsonNode session = NodeClient.session(List.of("--config", config.toString()), List.of(
                NodeClient.step("waitTool").put("name", "everything__echo"), call("everything__get-sum", "{\"a\": 2, \"b\": 40}")));
        gatewayGone(session);
        assertThat(session.at("/steps/0/ok").isObject()).as(session.toString()).isTrue();
        assertThat(session.at("/steps/1/ok/content/0/text").asText()).as(session.toString()).contains("42");
    }

    @Test
    void aRemoteServerKilledAndStartedAgainIsServedAgainAndCallsFailFastMeanwhile() throws Exception {
        startServer();
        MetaGateway gateway = MetaGateway.builder().manifests(manifest("  preWarm: true\n")).build();
        PipedInputStream in = new PipedInputStream(1 << 20);
        OutputStream toGateway = new PipedOutputStream(in);
        Lines fromGateway = new Lines();
        Serving serving = gateway.serveStdio(in, fromGateway);
        AtomicInteger ids = new AtomicInteger();
        try {
            JsonNode first = exchange(toGateway, fromGateway, echo(ids.incrementAndGet(), "one"));
            assertThat(first.at("/result/content/0/text").asText()).as(first.toString()).isEqualTo("Echo: one");

            server.kill();
            JsonNode down = exchange(toGateway, fromGateway, echo(ids.incrementAndGet(), "two"));
            assertThat(down.at("/error/code").asInt()).as(down.toString()).isEqualTo(-32002);
            assertThat(down.at("/error/message").asText()).contains("pod everything tool echo");

            server.restart();
            await().atMost(Duration.ofSeconds(60)).pollInSameThread().pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                JsonNode back = exchange(toGateway, fromGateway, echo(ids.incrementAndGet(), "three"));
                assertThat(back.at("/result/content/0/text").asText()).as(back.toString()).isEqualTo("Echo: three");
            });
        } finally {
            toGateway.close();
            assertThat(serving.awaitEnd(Duration.ofSeconds(10))).isTrue();
            gateway.close();
        }
    }

    /** The gateway process of a client session is gone (the remote server, the test's own child, still runs). */
    private void gatewayGone(JsonNode session) {
        long pid = session.get("gatewayPid").asLong();
        await().atMost(Duration.ofSeconds(15)).until(() -> ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true));
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).map(ProcessHandle::pid))
                .as("only the remote server is left").containsExactly(server.pid());
    }

    private static String echo(int id, String message) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"everything__echo\","
                + "\"arguments\":{\"message\":\"" + message + "\"}}}";
    }

    private static JsonNode exchange(OutputStream to, Lines from, String line) throws Exception {
        to.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        to.flush();
        while (true) {
            String next = from.lines.poll(60, TimeUnit.SECONDS);
            assertThat(next).as("an answer to " + line).isNotNull();
            JsonNode answer = JSON.readTree(next);
            if (answer.has("id")) {
                return answer; // notifications (list_changed, logging) are skipped
            }
        }
    }

    /** The gateway's output as lines, whichever thread writes them. */
    private static final class Lines extends OutputStream {
        final java.util.concurrent.BlockingQueue<String> lines = new java.util.concurrent.LinkedBlockingQueue<>();
        private final java.io.ByteArrayOutputStream current = new java.io.ByteArrayOutputStream();

        @Override
        public synchronized void write(int b) {
            if (b == '\n') {
                lines.add(current.toString(StandardCharsets.UTF_8));
                current.reset();
            } else {
                current.write(b);
            }
        }
    }
}
