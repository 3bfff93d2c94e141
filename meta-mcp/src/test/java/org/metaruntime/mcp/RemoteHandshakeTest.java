package org.metaruntime.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.metaruntime.mcp.internal.SharedHttpClient;
import org.metaruntime.supervisor.internal.SharedTimer;
import org.metaruntime.testing.LeakCheck;
import org.metaruntime.testing.ListeningServer;

/**
 * The handshake over Streamable HTTP against a server that registers its tools only when the session is initialized
 * and answers the POST of {@code notifications/initialized} late: the session is ready once that POST is answered.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class RemoteHandshakeTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration T = Duration.ofSeconds(30);
    private static final Path SERVER = Path.of("src", "test", "resources", "fixtures", "late_tools_http_server.py")
            .toAbsolutePath();

    private ListeningServer server;
    private final List<McpConnection> opened = new ArrayList<>();

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes().zero("shared timer leases", SharedTimer::leases).zero("shared HTTP client leases", SharedHttpClient::leases);

    @AfterEach
    void close() {
        opened.forEach(c -> c.closeQuietly(Duration.ofSeconds(5)));
        if (server != null) {
            server.close();
        }
    }

    private McpHttpEndpoint start(Duration initializedDelay) {
        String python = Peers.tool("python3");
        server = ListeningServer.start("late-tools", port -> List.of(python, SERVER.toString(), "--port",
                String.valueOf(port), "--initialized-delay-ms", String.valueOf(initializedDelay.toMillis())),
                port -> Map.of());
        return McpHttpEndpoint.of("late", URI.create("http://127.0.0.1:" + server.port() + "/mcp"));
    }

    @Test
    void toolsRegisteredOnInitializedAreListedAndCalled() {
        McpHttpEndpoint endpoint = start(Duration.ofMillis(1500));
        McpProbeResult probe = McpProbe.probe(endpoint, McpClientOptions.defaults(), T);
        McpConnection c = probe.connection();
        opened.add(c);
        assertThat(probe.tools()).containsExactly("echo");
        assertThat(c.callTool("echo", JSON.createObjectNode().put("text", "hello"), T)).isEqualTo(TextNode.valueOf("hello"));
        List<String> session = server.output().lines().filter(l -> l.startsWith("session-1 ")).toList();
        assertThat(session).startsWith("session-1 notifications/initialized", "session-1 tools registered",
                "session-1 tools/list");
    }

    @Test
    void aServerThatNeverTakesInitializedTimesOutTheOpen() {
        McpHttpEndpoint endpoint = start(Duration.ofMinutes(10));
        McpBoundaryError error = catchThrowableOfType(McpBoundaryException.class,
                () -> opened.add(McpConnection.open(endpoint, McpClientOptions.defaults(), Duration.ofMillis(1500))))
                .error();
        assertThat(error).isEqualTo(new McpBoundaryError.Timeout("late", "connect", 1500));
        await().atMost(T).untilAsserted(() -> assertThat(server.output()).doesNotContain("tools/list"));
    }
}
