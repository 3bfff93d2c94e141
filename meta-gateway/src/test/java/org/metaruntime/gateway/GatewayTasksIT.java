package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A single gateway process with {@code --task-after}: a modern call slower than that is answered with a task handle
 * whose state the process keeps in memory, answering {@code tasks/get} (with the default time to live) until the
 * result; a client that did not declare the tasks extension is waited for, and refused {@code tasks/get}. Replicas sharing their
 * tasks in PostgreSQL are tested through HAProxy in {@link ScaleOutIT}.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class GatewayTasksIT {

    private static final String TASKS = "io.modelcontextprotocol/tasks";

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private int ids;

    @Test
    void aSingleProcessKeepsItsTasksInMemory() throws Exception {
        List<String> args = List.of("--manifests", NodeClient.manifests(dir, dir.resolve("pids"), "fixture").toString(),
                "--task-after", "500ms");
        try (HttpGateway gateway = HttpGateway.start(args, Map.of())) {
            JsonNode handle = modern(gateway, "tools/call", "fixture__sleep", "\"name\":\"fixture__sleep\",\"arguments\":{\"seconds\":2}", true);
            String taskId = handle.at("/result/taskId").asText();
            assertThat(taskId).as(handle.toString()).matches("task-[0-9a-f]+");
            assertThat(handle.at("/result/ttlMs").asLong()).as("the default time to live").isEqualTo(3_600_000);
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                JsonNode done = modern(gateway, "tasks/get", taskId, "\"taskId\":\"" + taskId + "\"", true);
                assertThat(done.at("/result/status").asText()).as(done.toString()).isEqualTo("completed");
                assertThat(done.at("/result/result/content/0/text").asText()).isEqualTo("slept");
            });
            JsonNode waited = modern(gateway, "tools/call", "fixture__sleep", "\"name\":\"fixture__sleep\",\"arguments\":{\"seconds\":1}", false);
            assertThat(waited.at("/result/resultType").asText()).as("no extension declared: " + waited).isEqualTo("complete");
            JsonNode undeclared = modern(gateway, "tasks/get", taskId, "\"taskId\":\"" + taskId + "\"", false);
            assertThat(undeclared.at("/error/code").asInt()).as(undeclared.toString()).isEqualTo(-32021);
            gateway.stopCleanly();
        }
    }

    /** A modern request to {@code gateway}; its answer (the last message of an event stream). */
    private JsonNode modern(HttpGateway gateway, String method, String name, String params, boolean tasks) throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":" + (++ids) + ",\"method\":\"" + method + "\",\"params\":{" + params
                + ",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"t\",\"version\":\"1\"},"
                + "\"io.modelcontextprotocol/clientCapabilities\":"
                + (tasks ? "{\"extensions\":{\"" + TASKS + "\":{}}}" : "{}") + "}}}";
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(gateway.base() + "/mcp"))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream").header("MCP-Protocol-Version", "2026-07-28")
                .header("Mcp-Method", method).header("Mcp-Name", name)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        String text = response.body();
        if (response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream")) {
            List<String> data = new ArrayList<>();
            for (String line : text.split("\n")) {
                if (line.startsWith("data:")) {
                    data.add(line.substring(5).strip());
                }
            }
            text = data.isEmpty() ? "{}" : data.get(data.size() - 1);
        }
        return NodeClient.JSON.readTree(text);
    }
}
