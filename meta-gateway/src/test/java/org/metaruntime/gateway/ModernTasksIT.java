package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.LeakCheck;

/**
 * The tasks extension through the gateway over stdio, raw: a modern pod offering it ({@code task_pod.py}) answers
 * a modern client's call with a task; the client sees the task id namespaced by the pod and reaches the pod again
 * with {@code tasks/get}, {@code tasks/update} and {@code tasks/cancel}; each refusal; and a legacy client's call
 * reaching the pod without the extension.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ModernTasksIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TASKS = "io.modelcontextprotocol/tasks";

    @TempDir
    Path dir;

    private PipedGateway client;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes();

    @AfterEach
    void stop() throws Exception {
        if (client != null) {
            client.close();
        }
    }

    private void serve() throws Exception {
        Repo.tool("python3");
        Path folder = Files.createDirectories(dir.resolve("manifests"));
        Files.writeString(folder.resolve("worker.yaml"), """
                apiVersion: mcp-meta/v1
                kind: ToolPod
                metadata: { name: worker }
                spec:
                  command: ["python3", "task_pod.py"]
                  workdir: %s
                  env: { FIXTURE_RECORD: "%s" }
                  protocolEra: modern
                """.formatted(NodeClient.PODS, dir.resolve("record.jsonl")));
        client = PipedGateway.serve(MetaGateway.builder().manifests(folder).build());
    }

    private static String meta(boolean tasks) {
        return "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"t\",\"version\":\"1\"},"
                + "\"io.modelcontextprotocol/clientCapabilities\":"
                + (tasks ? "{\"extensions\":{\"" + TASKS + "\":{}}}" : "{}") + "}";
    }

    private JsonNode modern(int id, String method, String params, boolean tasks) throws Exception {
        return client.exchange("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":{"
                + (params.isEmpty() ? "" : params + ",") + meta(tasks) + "}}");
    }

    private List<JsonNode> recorded(String method) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("record.jsonl"))) {
            JsonNode request = JSON.readTree(line);
            if (request.path("method").asText().equals(method)) {
                out.add(request.get("params"));
            }
        }
        return out;
    }

    private static boolean declaresTasks(JsonNode params) {
        return params.path("_meta").path("io.modelcontextprotocol/clientCapabilities").path("extensions").has(TASKS);
    }

    @Test
    void aTaskOfAPodReachesAModernClientNamespacedAndItsRequestsGoBackToThePod() throws Exception {
        serve();
        assertThat(modern(1, "tools/list", "", true).at("/result/tools").findValuesAsText("name")).contains("worker__job");
        assertThat(modern(2, "server/discover", "", false).at("/result/capabilities/extensions").has(TASKS))
                .as("advertised while a task-capable pod is started").isTrue();

        JsonNode task = modern(3, "tools/call", "\"name\":\"worker__job\",\"arguments\":{}", true);
        assertThat(task.at("/result/resultType").asText()).as(task.toString()).isEqualTo("task");
        assertThat(task.at("/result/taskId").asText()).isEqualTo("worker+t+7");
        assertThat(task.at("/result/status").asText()).isEqualTo("working");
        assertThat(task.at("/result/ttlMs").asInt()).isEqualTo(60000);
        assertThat(task.at("/result/pollIntervalMs").asInt()).isEqualTo(100);
        assertThat(declaresTasks(recorded("tools/call").get(0))).as("the pod got the extension declared").isTrue();

        JsonNode got = modern(4, "tasks/get", "\"taskId\":\"worker+t+7\"", true);
        assertThat(got.at("/result/taskId").asText()).as(got.toString()).isEqualTo("worker+t+7");
        assertThat(got.at("/result/status").asText()).isEqualTo("input_required");
        assertThat(got.at("/result/inputRequests/q/params/message").asText()).isEqualTo("Proceed?");
        assertThat(recorded("tasks/get").get(0).path("taskId").asText()).as("the pod's own id").isEqualTo("t+7");

        JsonNode updated = modern(5, "tasks/update",
                "\"taskId\":\"worker+t+7\",\"inputResponses\":{\"q\":{\"action\":\"accept\",\"content\":{\"ok\":true}}}", true);
        assertThat(updated.at("/result/taskId").asText()).as(updated.toString()).isEqualTo("worker+t+7");
        assertThat(updated.at("/result/status").asText()).isEqualTo("completed");
        JsonNode sentUpdate = recorded("tasks/update").get(0);
        assertThat(sentUpdate.path("taskId").asText()).isEqualTo("t+7");
        assertThat(sentUpdate.path("inputResponses").toString()).isEqualTo("{\"q\":{\"action\":\"accept\",\"content\":{\"ok\":true}}}");
        assertThat(JSON.readTree(updated.at("/result/result/content/0/text").asText()))
                .isEqualTo(sentUpdate.path("inputResponses"));

        JsonNode cancelled = modern(6, "tasks/cancel", "\"taskId\":\"worker+t+7\"", true);
        assertThat(cancelled.at("/result/taskId").asText()).as(cancelled.toString()).isEqualTo("worker+t+7");
        assertThat(cancelled.at("/result/status").asText()).isEqualTo("cancelled");
        assertThat(recorded("tasks/cancel").get(0).path("taskId").asText()).isEqualTo("t+7");

        for (String id : List.of("t+7", "nobody+t+7", "+t+7")) {
            JsonNode unknown = modern(7, "tasks/get", "\"taskId\":\"" + id + "\"", true);
            assertThat(unknown.at("/error/code").asInt()).as(id + ": " + unknown).isEqualTo(-32602);
        }
        JsonNode undeclared = modern(8, "tasks/get", "\"taskId\":\"worker+t+7\"", false);
        assertThat(undeclared.at("/error/code").asInt()).as(undeclared.toString()).isEqualTo(-32021);
        assertThat(undeclared.at("/error/data/requiredCapabilities").toString())
                .isEqualTo("{\"extensions\":{\"" + TASKS + "\":{}}}");
        assertThat(recorded("tasks/get")).as("refused requests never reach the pod").hasSize(1);
    }

    @Test
    void callsWithoutTheExtensionReachThePodWithoutItAndGetAnOrdinaryResult() throws Exception {
        serve();
        client.initialize();
        JsonNode legacy = client.call("worker__job", "{}");
        assertThat(legacy.at("/result/content/0/text").asText()).as(legacy.toString()).isEqualTo("done at once");
        JsonNode modern = modern(2, "tools/call", "\"name\":\"worker__job\",\"arguments\":{}", false);
        assertThat(modern.at("/result/resultType").asText()).as(modern.toString()).isEqualTo("complete");
        assertThat(modern.at("/result/content/0/text").asText()).isEqualTo("done at once");
        List<JsonNode> calls = recorded("tools/call");
        assertThat(calls).hasSize(2);
        assertThat(calls).noneMatch(ModernTasksIT::declaresTasks);
    }
}
