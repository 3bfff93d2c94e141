package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.TcpForwarder;

/**
 * A replica whose PostgreSQL database goes away (its connection runs through a TCP forwarder that is closed): modern
 * requests and the legacy session it holds keep being served, a new session fails at once with -32603 "the database
 * ... cannot be reached", {@code /healthz} says the database is unreachable (the replica stays ready), and everything is back once the database is.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DatabaseOutageIT {

    private static final String TOKEN = "outage-token";
    private static final Pattern HOST_PORT = Pattern.compile("jdbc:postgresql://([^/:?]+)(?::(\\d+))?/");
    private static final String MODERN_META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    @RegisterExtension
    final FreshDatabase database = new FreshDatabase();

    @Test
    void withoutTheDatabaseHeldSessionsAndModernRequestsAreServedAndNewSessionsFailFast() throws Exception {
        Matcher m = HOST_PORT.matcher(database.url());
        assertThat(m.find()).as(database.url()).isTrue();
        String host = m.group(1);
        int port = m.group(2) == null ? 5432 : Integer.parseInt(m.group(2));
        int front;
        try (ServerSocket free = new ServerSocket(0)) {
            front = free.getLocalPort();
        }
        String url = database.url().replaceFirst("jdbc:postgresql://[^/]+/", "jdbc:postgresql://127.0.0.1:" + front + "/");
        Path key = Files.writeString(dir.resolve("cluster.key"), "the-outage-cluster-key-0123");
        List<String> args = List.of("--manifests", NodeClient.manifests(dir, dir.resolve("pids"), "fixture").toString(),
                "--state", url, "--cluster-key-file", key.toString());
        TcpForwarder link = TcpForwarder.start(front, host, port);
        try (HttpGateway gateway = HttpGateway.start(args, Map.of("META_GATEWAY_TOKEN", TOKEN))) {
            String session = initialize(gateway).headers().firstValue("Mcp-Session-Id").orElseThrow();
            link.close();

            HttpResponse<String> modern = http.send(request(gateway).header("MCP-Protocol-Version", "2026-07-28")
                    .header("Mcp-Method", "tools/list").POST(HttpRequest.BodyPublishers.ofString(
                            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{" + MODERN_META + "}}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(modern.statusCode()).as(modern.body()).isEqualTo(200);
            assertThat(modern.body()).contains("fixture__echo");

            HttpResponse<String> ping = http.send(request(gateway).header("Mcp-Session-Id", session).POST(
                    HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(ping.statusCode()).as(ping.body()).isEqualTo(200);

            long start = System.nanoTime();
            JsonNode refused = NodeClient.JSON.readTree(initialize(gateway).body());
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
            assertThat(refused.at("/error/code").asInt()).as(refused.toString()).isEqualTo(-32603);
            assertThat(refused.at("/error/message").asText()).contains("the database").contains("cannot be reached");

            HttpResponse<String> unknown = http.send(request(gateway).header("Mcp-Session-Id", "0123456789abcdef")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(unknown.body()).contains("-32603").contains("cannot be reached");

            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                HttpResponse<String> health = health(gateway);
                assertThat(health.statusCode()).as("a replica stays ready through an outage").isEqualTo(200);
                assertThat(health.body()).contains("\"database\":\"unreachable\"");
            });

            link = TcpForwarder.start(front, host, port);
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(health(gateway).body())
                    .contains("\"database\":\"reachable\""));
            // After a failure the gateway tries the database again at most every 2 s.
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                    assertThat(initialize(gateway).headers().firstValue("Mcp-Session-Id")).isPresent());
            gateway.stopCleanly();
        } finally {
            link.close();
        }
    }

    private HttpResponse<String> initialize(HttpGateway gateway) throws Exception {
        return http.send(request(gateway).POST(HttpRequest.BodyPublishers.ofString(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
                        + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}")).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> health(HttpGateway gateway) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(gateway.base() + "/healthz")).timeout(Duration.ofSeconds(10)).GET()
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder request(HttpGateway gateway) {
        return HttpRequest.newBuilder(URI.create(gateway.url())).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream");
    }
}
