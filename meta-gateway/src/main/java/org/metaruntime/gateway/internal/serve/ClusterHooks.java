package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.metaruntime.gateway.internal.cluster.TaskIds;
import org.metaruntime.gateway.internal.rpc.Dispatcher;
import org.metaruntime.gateway.internal.rpc.Eras;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.supervisor.internal.Failures;

/**
 * What the {@link GatewayServer} does as a replica of a cluster and for tasks: the replica its request states name
 * as their owner, the gateway's own tasks ({@code --task-after}) and the task requests of modern clients, answered
 * by the gateway or forwarded to the pod that made the task. Thread-safe.
 */
final class ClusterHooks implements AutoCloseable {

    private final RequestStates states;
    private final ToolTable table;
    private final PodSet backend;
    private final TaskRequests tasks;
    /** The gateway's own tasks ({@code --task-after}); null: every call is waited for. */
    private volatile GatewayTasks ownTasks;

    /**
     * @param states   the sealed request states of parked calls
     * @param table    the served pods
     * @param backend  what runs them
     * @param surface  the pods' MCP surface, which task requests are forwarded through
     */
    ClusterHooks(RequestStates states, ToolTable table, PodSet backend, Surface surface) {
        this.states = states;
        this.table = table;
        this.backend = backend;
        this.tasks = new TaskRequests(new TaskPods(surface), this::replicaId);
    }

    /**
     * Makes this server replica {@code replica} of a cluster: its {@code requestState}s are sealed under
     * {@code stateKey} (derived from the cluster key, the same on every replica) and name it as their owner.
     */
    void joinCluster(String replica, byte[] stateKey) {
        states.cluster(replica, stateKey);
    }

    /** This replica's id in a cluster; null for a single process. */
    String replicaId() {
        return states.owner();
    }

    /** The replica owning the call of {@code requestState}, when it is an intact state of this cluster. */
    Optional<String> requestStateOwner(JsonNode requestState) {
        return states.ownerOf(requestState);
    }

    /** Whether the gateway offers its own tasks, or a started pod offers the tasks extension. */
    boolean offersTasks() {
        return ownTasks != null || table.catalog().pods().stream().anyMatch(p -> backend.pod(p.name()).taskCapable());
    }

    /**
     * Answers a modern client's long {@code tools/call} with a task handle when it declared the tasks extension and
     * the call is not answered within the delay of {@code tasks} (their state goes to its store).
     */
    void offerTasks(GatewayTasks tasks) {
        tasks.servedBy(this::replicaId, EraAnswers::modernResult, EraAnswers::modernError);
        this.ownTasks = tasks;
    }

    /** {@code call}, or its task handle when the gateway offers its own tasks and the call is long. */
    CompletableFuture<JsonNode> answer(Dispatcher.Request request, CompletableFuture<JsonNode> call) {
        GatewayTasks own = ownTasks;
        return own == null ? call : own.answer(request, call);
    }

    /** A modern {@code tasks/get}, {@code tasks/update} or {@code tasks/cancel}. */
    CompletableFuture<JsonNode> task(Dispatcher.Request request) {
        GatewayTasks own = ownTasks;
        JsonNode taskId = request.params().get("taskId");
        if (own != null && taskId != null && taskId.isTextual() && TaskIds.gatewayMade(taskId.asText())) {
            JsonNode capabilities = request.envelope().clientCapabilities();
            if (!TaskRequests.declared(capabilities)) {
                // refused as every task request without the extension declared: -32021
                return tasks.serve(request.method(), request.params(), capabilities);
            }
            return own.serve(request.method(), taskId.asText());
        }
        return tasks.serve(request.method(), request.params(), request.envelope().clientCapabilities());
    }

    /** Closes the gateway's own tasks. */
    @Override
    public void close() {
        GatewayTasks own = ownTasks;
        if (own != null) {
            own.close();
        }
    }

    /** The started pods offering the tasks extension, reached through the MCP surface. */
    private final class TaskPods implements TaskRequests.Pods {

        private final Surface surface;
        TaskPods(Surface surface) {
            this.surface = surface;
        }

        @Override
        public boolean taskCapable(String pod) {
            return table.catalog().has(pod) && backend.pod(pod).taskCapable();
        }

        @Override
        public CompletableFuture<JsonNode> request(String pod, String method, ObjectNode params, JsonNode clientCapabilities) {
            ObjectNode capabilities = JsonRpc.NODES.objectNode();
            capabilities.putObject("extensions").set(TaskRequests.EXTENSION,
                    clientCapabilities.path("extensions").get(TaskRequests.EXTENSION).deepCopy());
            params.putObject("_meta").set(Eras.CLIENT_CAPABILITIES_KEY, capabilities);
            return Failures.attempt(() -> surface.forward(pod, method, params, method));
        }
    }
}
