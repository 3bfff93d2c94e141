package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code subscriptions/listen} over HTTP against {@code bin/meta-gateway --transport http}: the POST's event stream is
 * acknowledged, gets the tool list change a pod makes, and when the gateway stops gets the listen request's result
 * before it ends; no session is opened.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ModernListenHttpIT {

    private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private static HttpRequest.Builder modern(String url, String method, String body) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header("MCP-Protocol-Version", "2026-07-28").header("Mcp-Method", method)
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    /** The next JSON-RPC message of the event stream. */
    private static JsonNode next(BlockingQueue<String> lines) throws Exception {
        while (true) {
            String line = lines.poll(30, TimeUnit.SECONDS);
            assertThat(line).as("no event within 30 s").isNotNull();
            if (line.startsWith("data: ")) {
                return NodeClient.JSON.readTree(line.substring(6));
            }
            assertThat(line).as("the stream ended").isNotEqualTo("<end>");
        }
    }

    @Test
    void aListenStreamIsAcknowledgedGetsChangesAndIsAnsweredWhenTheGatewayStops() throws Exception {
        Path manifests = NodeClient.manifests(dir, dir.resolve("pids"), "live");
        JsonNode session = NodeClient.JSON.createObjectNode();
        try (HttpGateway gateway = HttpGateway.start(List.of("--manifests", manifests.toString()))) {
            HttpResponse<String> listed = http.send(modern(gateway.url(), "tools/list", "{\"jsonrpc\":\"2.0\",\"id\":1,"
                    + "\"method\":\"tools/list\",\"params\":{" + META + "}}").build(), HttpResponse.BodyHandlers.ofString());
            assertThat(listed.body()).contains("live__grow");

            BlockingQueue<String> lines = new LinkedBlockingQueue<>();
            HttpResponse<Stream<String>> listen = http.send(modern(gateway.url(), "subscriptions/listen",
                    "{\"jsonrpc\":\"2.0\",\"id\":\"L1\",\"method\":\"subscriptions/listen\",\"params\":{\"notifications\":"
                            + "{\"toolsListChanged\":true}," + META + "}}").build(), HttpResponse.BodyHandlers.ofLines());
            assertThat(listen.statusCode()).isEqualTo(200);
            assertThat(listen.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
            assertThat(listen.headers().firstValue("Mcp-Session-Id")).isEmpty();
            Thread reader = new Thread(() -> {
                listen.body().forEach(lines::add);
                lines.add("<end>");
            }, "listen-reader");
            reader.setDaemon(true);
            reader.start();
            JsonNode ack = next(lines);
            assertThat(ack.get("method").asText()).isEqualTo("notifications/subscriptions/acknowledged");
            assertThat(ack.at("/params/_meta/io.modelcontextprotocol~1subscriptionId").asText()).isEqualTo("L1");

            HttpResponse<String> grown = http.send(modern(gateway.url(), "tools/call", "{\"jsonrpc\":\"2.0\",\"id\":2,"
                    + "\"method\":\"tools/call\",\"params\":{\"name\":\"live__grow\"," + META + "}}").header("Mcp-Name", "live__grow")
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(grown.statusCode()).as(grown.body()).isEqualTo(200);
            JsonNode changed = next(lines);
            assertThat(changed.get("method").asText()).isEqualTo("notifications/tools/list_changed");
            assertThat(changed.at("/params/_meta/io.modelcontextprotocol~1subscriptionId").asText()).isEqualTo("L1");

            gateway.stopCleanly();
            JsonNode result = next(lines);
            assertThat(result.get("id").asText()).isEqualTo("L1");
            assertThat(result.at("/result/resultType").asText()).isEqualTo("complete");
            assertThat(result.at("/result/_meta/io.modelcontextprotocol~1subscriptionId").asText()).isEqualTo("L1");
            assertThat(lines.poll(30, TimeUnit.SECONDS)).as("the stream ends after the result").isIn("", "<end>");
            ((com.fasterxml.jackson.databind.node.ObjectNode) session).put("gatewayPid", gateway.pid());
        }
        NodeClient.assertAllGone(session, dir.resolve("pids"));
    }
}
