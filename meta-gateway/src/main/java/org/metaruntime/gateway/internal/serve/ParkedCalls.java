package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import org.metaruntime.gateway.internal.rpc.Dispatcher;
import org.metaruntime.gateway.internal.rpc.Principals;
import org.metaruntime.supervisor.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bridged calls that wait for their client's retry, by id, and what checks a retry before it reaches one: its
 * {@code requestState} must open ({@link RequestStates}) and name this tool, these arguments, this caller and a call
 * still parked, and wrap the {@code requestState} of the modern pod's round that call waits for (none for a legacy
 * pod); anything else is -32602 and changes nothing. Timers of the calls run on the gateway's scheduler.
 * Thread-safe.
 */
final class ParkedCalls {

    private static final Logger log = LoggerFactory.getLogger(ParkedCalls.class);

    private final RequestStates states;
    private final Scheduler scheduler;
    private final Map<String, BridgedCall> calls = new ConcurrentHashMap<>();

    /**
     * @param states    seals and opens the states
     * @param scheduler runs the calls' deadlines (never blocks in them)
     */
    ParkedCalls(RequestStates states, Scheduler scheduler) {
        this.states = states;
        this.scheduler = scheduler;
    }

    /**
     * A client's retry of a call of {@code route} with {@code arguments} (checked already): its {@code requestState}
     * checked, then handed to the parked call.
     *
     * @throws org.metaruntime.gateway.internal.rpc.RpcException -32602 when the state does not fit
     */
    CompletableFuture<JsonNode> retry(Dispatcher.Request request, ToolTable.Route route, JsonNode arguments) {
        RequestStates.Claims claims = states.open(request.params().get("requestState"));
        if (!claims.tool().equals(route.outward())) {
            throw RequestStates.invalid("requestState belongs to a call of another tool");
        }
        if (!claims.arguments().equals(RequestStates.digest(arguments))) {
            throw RequestStates.invalid("requestState belongs to a call with other arguments");
        }
        if (!claims.caller().equals(Principals.key(request.session().caller()))) {
            throw RequestStates.invalid("requestState belongs to another caller");
        }
        BridgedCall call = calls.get(claims.call());
        if (call == null) {
            throw RequestStates.invalid("the call of this requestState is gone (it ended, was abandoned, or its pod exited)");
        }
        if (!java.util.Objects.equals(claims.inner(), call.podState())) {
            throw RequestStates.invalid("requestState belongs to another round of the pod's call");
        }
        return call.retry(request, claims.round(), request.params().get("inputResponses"));
    }

    /** The states this replica seals and opens. */
    RequestStates states() {
        return states;
    }

    /** {@code call} waits for its client's retry. */
    void parked(BridgedCall call) {
        calls.put(call.id(), call);
    }

    /** {@code call} ended: no retry reaches it any more. */
    void ended(BridgedCall call) {
        calls.remove(call.id(), call);
    }

    /**
     * The state of {@code call}'s round {@code round}, valid for {@code ttl}, wrapping {@code podState} (the
     * {@code requestState} of a modern pod's round; null for none).
     */
    String seal(BridgedCall call, long round, Duration ttl, String podState) {
        return states.seal(new RequestStates.Claims(call.id(), round, call.route().outward(), call.arguments(), call.caller(),
                states.clock().millis() + ttl.toMillis(), podState));
    }

    /** Runs {@code task} after {@code delay} on the gateway's scheduler; nothing when it is closed (the gateway stops). */
    Scheduler.Cancellable schedule(Runnable task, Duration delay) {
        try {
            return scheduler.schedule(task, delay);
        } catch (RejectedExecutionException e) {
            log.debug("the gateway is stopping: a bridged call's timer is not armed");
            return () -> false;
        }
    }

    /** How many calls wait for their client now. */
    int size() {
        return calls.size();
    }

    /** Ends every parked call (the gateway stops): their pods' requests fail, the calls are cancelled. */
    void close() {
        calls.values().forEach(call -> call.abandon("the gateway is stopping"));
    }
}
