package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.CompletableFuture;
import org.metaruntime.gateway.internal.cluster.TaskIds;
import org.metaruntime.gateway.internal.rpc.Eras;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.rpc.RpcException;

/**
 * The tasks extension ({@value #EXTENSION}) passed through to modern clients: a task-capable pod's task ids reach
 * clients as {@code <pod>+<the pod's taskId>} (pod names cannot contain {@code +}), and {@code tasks/get},
 * {@code tasks/update} and {@code tasks/cancel} with such an id go back to that pod with its own id, every other
 * field unchanged both ways. Stateless: the id names the pod, nothing is remembered between requests.
 */
final class TaskRequests {

    /** The extension's key in {@code capabilities.extensions}. */
    static final String EXTENSION = "io.modelcontextprotocol/tasks";

    /** The extension's requests a task-capable pod is sent. */
    static final java.util.Set<String> POD_METHODS = java.util.Set.of("tasks/get", "tasks/update", "tasks/cancel");

    private static final char SEPARATOR = '+';

    /** The started pods, as the task requests see them. */
    interface Pods {

        /** Whether {@code pod} is started and advertises the extension in its {@code DiscoverResult}. */
        boolean taskCapable(String pod);

        /**
         * Sends {@code method} with {@code params} to {@code pod}, its {@code _meta} carrying
         * {@code clientCapabilities}; the future is the pod's result, an {@link RpcException} its error.
         */
        CompletableFuture<JsonNode> request(String pod, String method, ObjectNode params, JsonNode clientCapabilities);
    }

    private final Pods pods;
    private final java.util.function.Supplier<String> replica;

    TaskRequests(Pods pods) {
        this(pods, () -> null);
    }

    /** @param replica the id of this replica of a cluster, null for a single process (task ids then name it) */
    TaskRequests(Pods pods, java.util.function.Supplier<String> replica) {
        this.pods = pods;
        this.replica = replica;
    }

    /** Whether {@code clientCapabilities} (a modern request's) declare the extension. */
    static boolean declared(JsonNode clientCapabilities) {
        JsonNode value = clientCapabilities == null ? null : clientCapabilities.path("extensions").get(EXTENSION);
        return value != null && !value.isNull();
    }

    /** {@code result} of {@code pod} with its {@code taskId}, if any, namespaced by the pod; the rest unchanged. */
    static JsonNode namespaced(String pod, JsonNode result) {
        return namespaced(null, pod, result);
    }

    /**
     * {@code result} of {@code pod} with its {@code taskId}, if any, namespaced by the pod and, in a cluster, by the
     * replica {@code replica} ({@link TaskIds}); the rest unchanged.
     */
    static JsonNode namespaced(String replica, String pod, JsonNode result) {
        if (result == null || !result.isObject() || !result.path("taskId").isTextual()) {
            return result;
        }
        ObjectNode out = ((ObjectNode) result).deepCopy();
        out.put("taskId", TaskIds.owned(replica, pod + SEPARATOR + result.get("taskId").asText()));
        return out;
    }

    /**
     * Serves the modern {@code method} ({@code tasks/get}, {@code tasks/update} or {@code tasks/cancel}) of a client
     * that sent {@code params} and declared {@code clientCapabilities}.
     */
    CompletableFuture<JsonNode> serve(String method, JsonNode params, JsonNode clientCapabilities) {
        if (!declared(clientCapabilities)) {
            ObjectNode data = JsonRpc.NODES.objectNode();
            data.putObject("requiredCapabilities").putObject("extensions").putObject(EXTENSION);
            return CompletableFuture.failedFuture(new RpcException(Eras.MISSING_CLIENT_CAPABILITY,
                    method + " needs the client capability extensions." + EXTENSION + ", which the request did not declare",
                    data));
        }
        JsonNode id = params.get("taskId");
        String taskId = id != null && id.isTextual() ? TaskIds.local(id.asText()) : null;
        int split = taskId == null ? -1 : taskId.indexOf(SEPARATOR);
        if (split <= 0) {
            return CompletableFuture.failedFuture(new RpcException(JsonRpc.INVALID_PARAMS,
                    "unknown task id " + quoted(taskId) + ": a task id is <pod>+<the pod's task id>"));
        }
        String pod = taskId.substring(0, split);
        if (!pods.taskCapable(pod)) {
            return CompletableFuture.failedFuture(new RpcException(JsonRpc.INVALID_PARAMS,
                    "unknown task id " + quoted(taskId) + ": no started pod " + quoted(pod) + " offers tasks"));
        }
        ObjectNode forwarded = ((ObjectNode) params).deepCopy();
        forwarded.remove("_meta");
        forwarded.put("taskId", taskId.substring(split + 1));
        String self = replica.get();
        return pods.request(pod, method, forwarded, clientCapabilities).thenApply(result -> namespaced(self, pod, result));
    }

    private static String quoted(String text) {
        return text == null ? "null" : JsonRpc.NODES.textNode(text).toString();
    }
}
