package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two replicas sharing one PostgreSQL database with {@code --task-after 1s}: a modern call slower than that is
 * answered with a task handle of the replica running it; the other replica answers {@code tasks/get} from the
 * database (working, then the completed result) and forwards {@code tasks/cancel} to the owner, which cancels the call
 * at the pod. A call without the tasks extension declared is waited for. Without a PostgreSQL state the tasks are
 * kept in memory.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class GatewayTasksIT {

    private static final String TASKS = "io.modelcontextprotocol/tasks";

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    @RegisterExtension
    final FreshDatabase database = new FreshDatabase();
    private int ids;

    @Test
    void aLongCallBecomesATaskThatEveryReplicaServes() throws Exception {
        Path key = Files.writeString(dir.resolve("cluster.key"), "a-cluster-key-of-the-tasks-it-0\n");
        List<String> args = List.of("--manifests", NodeClient.manifests(dir, dir.resolve("pids"), "fixture").toString(),
                "--state", database.url(), "--cluster-key-file", key.toString(), "--task-after", "1s", "--task-ttl", "10m");
        try (HttpGateway a = HttpGateway.start(args, Map.of()); HttpGateway b = HttpGateway.start(args, Map.of())) {
            JsonNode discover = modern(b, "server/discover", "", "\"x\":0", false);
            assertThat(discover.at("/result/capabilities/extensions").has(TASKS)).as(discover.toString()).isTrue();

            JsonNode handle = modern(a, "tools/call", "fixture__sleep", "\"name\":\"fixture__sleep\",\"arguments\":{\"seconds\":4}", true);
            assertThat(handle.at("/result/resultType").asText()).as(handle.toString()).isEqualTo("task");
            assertThat(handle.at("/result/status").asText()).isEqualTo("working");
            assertThat(handle.at("/result/ttlMs").asLong()).isEqualTo(600_000);
            String taskId = handle.at("/result/taskId").asText();
            assertThat(taskId).matches("r-[0-9a-f]{12}:task-[0-9a-f]+");

            JsonNode working = modern(b, "tasks/get", taskId, "\"taskId\":\"" + taskId + "\"", true);
            assertThat(working.at("/result/status").asText()).as(working.toString()).isEqualTo("working");
            assertThat(working.at("/result/taskId").asText()).isEqualTo(taskId);
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                JsonNode done = modern(b, "tasks/get", taskId, "\"taskId\":\"" + taskId + "\"", true);
                assertThat(done.at("/result/status").asText()).as(done.toString()).isEqualTo("completed");
                assertThat(done.at("/result/result/content/0/text").asText()).isEqualTo("slept");
                assertThat(done.at("/result/result/resultType").asText()).isEqualTo("complete");
            });

            JsonNode waited = modern(a, "tools/call", "fixture__sleep", "\"name\":\"fixture__sleep\",\"arguments\":{\"seconds\":1.5}", false);
            assertThat(waited.at("/result/resultType").asText()).as("no extension declared: " + waited).isEqualTo("complete");
            assertThat(waited.at("/result/content/0/text").asText()).isEqualTo("slept");

            JsonNode slow = modern(a, "tools/call", "fixture__slow", "\"name\":\"fixture__slow\",\"arguments\":{\"seconds\":20,\"steps\":40}", true);
            String slowId = slow.at("/result/taskId").asText();
            assertThat(slowId).as(slow.toString()).contains(":task-");
            JsonNode cancelled = modern(b, "tasks/cancel", slowId, "\"taskId\":\"" + slowId + "\"", true);
            assertThat(cancelled.at("/result/status").asText()).as(cancelled.toString()).isEqualTo("cancelled");
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(NodeClient.recorded(dir))
                    .as("the pod saw the cancellation").anyMatch(line -> line.startsWith("cancelled ")));
            JsonNode after = modern(b, "tasks/get", slowId, "\"taskId\":\"" + slowId + "\"", true);
            assertThat(after.at("/result/status").asText()).as(after.toString()).isEqualTo("cancelled");

            JsonNode unknown = modern(b, "tasks/get", "r-000000000000:task-00", "\"taskId\":\"r-000000000000:task-00\"", true);
            assertThat(unknown.at("/error/code").asInt()).as(unknown.toString()).isEqualTo(-32602);

            b.stopCleanly();
            a.stopCleanly();
        }
    }

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
