package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.metaruntime.gateway.internal.cluster.Replicas;
import org.metaruntime.gateway.internal.cluster.TaskIds;
import org.metaruntime.gateway.internal.cluster.TaskState;
import org.metaruntime.gateway.internal.cluster.TaskStore;
import org.metaruntime.gateway.internal.rpc.Dispatcher;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.rpc.RpcException;
import org.metaruntime.supervisor.internal.DaemonThreads;
import org.metaruntime.supervisor.internal.Failures;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's own tasks ({@code --task-after}): a modern client's {@code tools/call} that declared the tasks
 * extension and is not answered within the delay is answered with a task handle while the call keeps running; its
 * state and final result or error go to the {@link TaskStore}, which answers {@code tasks/get} (in a cluster, on any
 * replica). {@code tasks/cancel} cancels the call on the replica running it. Their ids are
 * {@code [<replica>:]task-<hex>}. A working task whose replica is gone (killed before the call ended) is failed with
 * -32002 naming that replica when it is next read: its call was lost with the replica.
 */
public final class GatewayTasks implements AutoCloseable {

    /** The error code of a task whose replica is gone, as of a request whose owner is gone. */
    static final int REPLICA_GONE = -32002;
    /** How often a client is told to poll a task. */
    static final long POLL_INTERVAL_MS = 1000;
    private static final Logger log = LoggerFactory.getLogger(GatewayTasks.class);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Duration after;
    private final Duration ttl;
    private final TaskStore store;
    private final Replicas replicas;
    private final ScheduledExecutorService timers;
    private final Map<String, Dispatcher.Request> running = new ConcurrentHashMap<>();
    private volatile Supplier<String> replica = () -> null;
    private volatile BiFunction<Dispatcher.Request, JsonNode, JsonNode> results = (request, result) -> result;
    private volatile UnaryOperator<RpcException> errors = UnaryOperator.identity();

    /**
     * Tasks of calls not answered within {@code after}, kept in {@code store} for {@code ttl} once finished (the store
     * expires them; every minute, or each {@code ttl} when shorter, the expired ones are removed). {@code replicas}
     * tells which replicas of the cluster are live ({@link Replicas#single} for a single process).
     */
    public GatewayTasks(Duration after, Duration ttl, TaskStore store, Replicas replicas) {
        this.after = Objects.requireNonNull(after, "after");
        this.ttl = Objects.requireNonNull(ttl, "ttl");
        this.store = Objects.requireNonNull(store, "store");
        this.replicas = Objects.requireNonNull(replicas, "replicas");
        this.timers = DaemonThreads.timer("meta-gateway-tasks");
        long sweep = Math.max(1, Math.min(ttl.toMillis(), Duration.ofMinutes(1).toMillis()));
        timers.scheduleWithFixedDelay(this::expire, sweep, sweep, TimeUnit.MILLISECONDS);
    }

    /** Names tasks by {@code replica} and shapes their results and errors as the modern answers are shaped. */
    void servedBy(Supplier<String> replica, BiFunction<Dispatcher.Request, JsonNode, JsonNode> results,
                  UnaryOperator<RpcException> errors) {
        this.replica = replica;
        this.results = results;
        this.errors = errors;
    }

    /**
     * The answer to the modern {@code tools/call} {@code request} whose outcome is {@code call}: that outcome when it
     * comes within the delay or the client did not declare the extension, else a task handle.
     */
    CompletableFuture<JsonNode> answer(Dispatcher.Request request, CompletableFuture<JsonNode> call) {
        if (!request.isModern() || !TaskRequests.declared(request.envelope().clientCapabilities())) {
            return call;
        }
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        Object lock = new Object();
        String[] task = new String[1];
        boolean[] ended = new boolean[1];
        ScheduledFuture<?> timer = timers.schedule(() -> {
            synchronized (lock) {
                if (ended[0]) {
                    return;
                }
                String id = TaskIds.GATEWAY_PREFIX + HexFormat.of().formatHex(randomBytes());
                try {
                    store.start(id);
                } catch (RuntimeException e) {
                    log.warn("the call keeps its client waiting: its task cannot be recorded: {}", e.getMessage());
                    return;
                }
                task[0] = id;
                running.put(id, request);
            }
            answer.complete(handle(TaskIds.owned(replica.get(), task[0])));
        }, after.toMillis(), TimeUnit.MILLISECONDS);
        call.whenComplete((result, error) -> {
            String id;
            synchronized (lock) {
                ended[0] = true;
                id = task[0];
            }
            if (id == null) {
                timer.cancel(false);
                if (error != null) {
                    answer.completeExceptionally(error);
                } else {
                    answer.complete(result);
                }
            } else {
                finished(id, request, result, error);
            }
        });
        return answer;
    }

    private static byte[] randomBytes() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    private void finished(String id, Dispatcher.Request request, JsonNode result, Throwable error) {
        running.remove(id);
        try {
            if (request.isCancelled()) {
                store.finish(id, "cancelled", null, null);
            } else if (error == null) {
                store.finish(id, "completed", results.apply(request, result), null);
            } else {
                store.finish(id, "failed", null, errorObject(error));
            }
        } catch (RuntimeException e) {
            log.warn("the end of task {} cannot be recorded: {}", id, e.getMessage());
        }
    }

    private JsonNode errorObject(Throwable error) {
        Throwable cause = Failures.unwrap(error);
        ObjectNode out = JsonRpc.NODES.objectNode();
        if (cause instanceof RpcException rpc) {
            RpcException shaped = errors.apply(rpc);
            out.put("code", shaped.code()).put("message", shaped.getMessage());
            if (shaped.data() != null) {
                out.set("data", shaped.data());
            }
        } else {
            out.put("code", JsonRpc.INTERNAL_ERROR).put("message", "tools/call failed: " + cause);
        }
        return out;
    }

    /** The task handle of {@code taskId}: the client polls it with {@code tasks/get}. */
    private ObjectNode handle(String taskId) {
        ObjectNode out = JsonRpc.NODES.objectNode().put("resultType", "task").put("taskId", taskId)
                .put("status", TaskState.WORKING);
        return out.put("ttlMs", ttl.toMillis()).put("pollIntervalMs", POLL_INTERVAL_MS);
    }

    /**
     * Serves the modern {@code method} ({@code tasks/get}, {@code tasks/update} or {@code tasks/cancel}) of one of the
     * gateway's tasks, {@code taskId} as the client sent it.
     */
    CompletableFuture<JsonNode> serve(String method, String taskId) {
        String id = TaskIds.local(taskId);
        try {
            if ("tasks/cancel".equals(method)) {
                Dispatcher.Request request = running.remove(id);
                if (request != null) {
                    store.finish(id, "cancelled", null, null);
                    request.cancel();
                } else if (store.get(id).filter(t -> !t.finished()).isPresent()) {
                    // its replica is gone, or this process was restarted: the call runs no more
                    store.finish(id, "cancelled", null, null);
                }
            }
            Optional<TaskState> state = lostWithItsReplica(taskId, store.get(id));
            if (state.isEmpty()) {
                return CompletableFuture.failedFuture(new RpcException(JsonRpc.INVALID_PARAMS,
                        "unknown task id " + JsonRpc.NODES.textNode(taskId) + ": no such task, or it expired"));
            }
            if ("tasks/update".equals(method)) {
                return CompletableFuture.failedFuture(new RpcException(JsonRpc.INVALID_PARAMS,
                        "task " + JsonRpc.NODES.textNode(taskId) + " asks for no input"));
            }
            return CompletableFuture.completedFuture(answer(taskId, state.get()));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * {@code state}, or, when it is still working while the replica named by {@code taskId} is gone, the task failed
     * with -32002 naming that replica (recorded, so that every replica answers the same from now on).
     */
    private Optional<TaskState> lostWithItsReplica(String taskId, Optional<TaskState> state) {
        Optional<String> owner = TaskIds.owner(taskId);
        if (state.isEmpty() || state.get().finished() || owner.isEmpty() || owner.get().equals(replicas.self())
                || replicas.urlOf(owner.get()).isPresent()) {
            return state;
        }
        String id = TaskIds.local(taskId);
        ObjectNode error = JsonRpc.NODES.objectNode().put("code", REPLICA_GONE)
                .put("message", "the replica " + owner.get() + " that ran this task is gone: its call was lost");
        error.putObject("data").put("replica", owner.get());
        if (store.finish(id, "failed", null, error)) {
            log.info("task {} failed: its replica {} is gone", id, owner.get());
        }
        return store.get(id);
    }

    private ObjectNode answer(String taskId, TaskState state) {
        ObjectNode out = JsonRpc.NODES.objectNode().put("taskId", taskId).put("status", state.status())
                .put("ttlMs", ttl.toMillis()).put("pollIntervalMs", POLL_INTERVAL_MS);
        if (state.result() != null) {
            out.set("result", state.result());
        }
        if (state.error() != null) {
            out.set("error", state.error());
        }
        return out;
    }

    private void expire() {
        try {
            store.expire();
        } catch (RuntimeException e) {
            log.debug("removing the expired tasks failed: {}", e.getMessage());
        }
    }

    @Override
    public void close() {
        timers.shutdownNow();
    }
}
