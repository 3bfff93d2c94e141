package org.metaruntime.gateway.internal.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.metaruntime.gateway.internal.rpc.Eras;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.rpc.RpcException;

/** Task ids namespaced per pod, {@code tasks/*} routed back to the pod, and each refusal (-32021, -32602). */
class TaskRequestsTest {

    private record Sent(String pod, String method, ObjectNode params, JsonNode capabilities) {
    }

    private final List<Sent> sent = new ArrayList<>();

    private final TaskRequests tasks = new TaskRequests(new TaskRequests.Pods() {
        @Override
        public boolean taskCapable(String pod) {
            return Set.of("worker").contains(pod);
        }

        @Override
        public CompletableFuture<JsonNode> request(String pod, String method, ObjectNode params, JsonNode capabilities) {
            sent.add(new Sent(pod, method, params, capabilities));
            ObjectNode result = JsonRpc.NODES.objectNode().put("taskId", params.get("taskId").asText())
                    .put("status", "input_required").put("ttlMs", 60000).put("pollIntervalMs", 500);
            result.putObject("inputRequests").putObject("q1").put("method", "elicitation/create");
            return CompletableFuture.completedFuture(result);
        }
    });

    private static ObjectNode declaring() {
        ObjectNode capabilities = JsonRpc.NODES.objectNode();
        capabilities.putObject("extensions").putObject(TaskRequests.EXTENSION);
        return capabilities;
    }

    private static ObjectNode params(String taskId) {
        ObjectNode params = JsonRpc.NODES.objectNode().put("taskId", taskId);
        params.putObject("_meta").put(Eras.PROTOCOL_VERSION_KEY, Eras.MODERN);
        return params;
    }

    private static RpcException refusal(CompletableFuture<JsonNode> answer) {
        assertThat(answer).isCompletedExceptionally();
        try {
            answer.get();
        } catch (ExecutionException e) {
            return (RpcException) e.getCause();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("not refused");
    }

    @Test
    void aTaskResultOfAPodIsNamespacedByThePodAndKeepsTheRest() {
        ObjectNode result = JsonRpc.NODES.objectNode().put("resultType", "task").put("taskId", "t-1").put("status", "working");
        JsonNode out = TaskRequests.namespaced("worker", result);
        assertThat(out.get("taskId").asText()).isEqualTo("worker+t-1");
        assertThat(out.get("status").asText()).isEqualTo("working");
        assertThat(out.get("resultType").asText()).isEqualTo("task");
        assertThat(result.get("taskId").asText()).isEqualTo("t-1");
    }

    @Test
    void tasksUpdateGoesToThePodWithItsOwnIdAndEveryFieldUnchanged() throws Exception {
        ObjectNode params = params("worker+t+1");
        params.putObject("inputResponses").putObject("q1").put("action", "accept");
        JsonNode out = tasks.serve("tasks/update", params, declaring()).get();

        assertThat(sent).hasSize(1);
        Sent request = sent.get(0);
        assertThat(request.pod()).isEqualTo("worker");
        assertThat(request.method()).isEqualTo("tasks/update");
        assertThat(request.params().get("taskId").asText()).isEqualTo("t+1");
        assertThat(request.params().get("inputResponses")).isEqualTo(params.get("inputResponses"));
        assertThat(request.params().has("_meta")).isFalse();
        assertThat(TaskRequests.declared(request.capabilities())).isTrue();

        assertThat(out.get("taskId").asText()).isEqualTo("worker+t+1");
        assertThat(out.get("status").asText()).isEqualTo("input_required");
        assertThat(out.get("ttlMs").asInt()).isEqualTo(60000);
        assertThat(out.get("pollIntervalMs").asInt()).isEqualTo(500);
        assertThat(out.path("inputRequests").path("q1").path("method").asText()).isEqualTo("elicitation/create");
    }

    @Test
    void aClientThatDoesNotDeclareTheExtensionGetsMinus32021NamingIt() {
        RpcException e = refusal(tasks.serve("tasks/get", params("worker+t-1"), JsonRpc.NODES.objectNode()));
        assertThat(e.code()).isEqualTo(-32021);
        assertThat(e.data().toString()).isEqualTo("{\"requiredCapabilities\":{\"extensions\":{\"" + TaskRequests.EXTENSION + "\":{}}}}");
        assertThat(sent).isEmpty();
    }

    @Test
    void anIdWithoutAPlusOrNamingNoTaskCapablePodIsMinus32602() {
        for (String id : new String[] {"t-1", "+t-1", "other+t-1"}) {
            RpcException e = refusal(tasks.serve("tasks/cancel", params(id), declaring()));
            assertThat(e.code()).isEqualTo(JsonRpc.INVALID_PARAMS);
        }
        assertThat(refusal(tasks.serve("tasks/get", JsonRpc.NODES.objectNode(), declaring())).code())
                .isEqualTo(JsonRpc.INVALID_PARAMS);
        assertThat(sent).isEmpty();
    }

    @Test
    void aResultWithoutTaskIdIsUnchanged() {
        ObjectNode result = JsonRpc.NODES.objectNode().put("resultType", "complete");
        assertThat(TaskRequests.namespaced("worker", result)).isSameAs(result);
    }
}
