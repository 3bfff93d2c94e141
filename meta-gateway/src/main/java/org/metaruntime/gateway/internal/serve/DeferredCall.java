package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.metaruntime.supervisor.InFlight;

/**
 * A pod call handed out before the call it stands for exists: the gateway's one handle whose call comes later. The
 * call is started later on another thread ({@link #start}: a pod's first call, once its backend is made), or
 * attached once started ({@link #attach}: a call whose bridge to its client, which may cancel it, is made first). Its
 * result is that call's; its {@link #finished()} is that call's once there is one. A cancel reaches the call; one
 * that comes before the call completes the result at once as cancelled, and the call, if it comes, is cancelled as it
 * comes ({@link #start} then never starts it). Thread-safe.
 */
final class DeferredCall implements InFlight<JsonNode> {

    private final CompletableFuture<JsonNode> result = new CompletableFuture<>();
    private InFlight<JsonNode> call;
    private boolean cancelled;
    /** Whether it was cancelled before it started, so that no call comes. */
    private boolean abandoned;
    /** {@link #finished()} asked for before the call came; null until then. */
    private CompletableFuture<Void> finished;

    /** Starts the call with {@code starter} on this thread, unless it was cancelled; a starter that throws fails it. */
    void start(Supplier<InFlight<JsonNode>> starter) {
        CompletableFuture<Void> waiting;
        synchronized (this) {
            if (!cancelled) {
                waiting = null;
            } else {
                abandoned = true;
                waiting = finished == null ? CompletableFuture.completedFuture(null) : finished;
            }
        }
        if (waiting != null) {
            waiting.complete(null);
            return;
        }
        InFlight<JsonNode> started;
        try {
            started = starter.get();
        } catch (RuntimeException e) {
            started = InFlight.failed(e);
        }
        attach(started);
    }

    /** The call this handle stands for, now started; a cancel asked for before is applied to it now. Called once. */
    void attach(InFlight<JsonNode> started) {
        boolean cancelNow;
        CompletableFuture<Void> waiting;
        synchronized (this) {
            if (call != null || abandoned) {
                throw new IllegalStateException("the call is attached already, or was abandoned");
            }
            call = started;
            cancelNow = cancelled;
            waiting = finished;
        }
        if (waiting != null) {
            started.finished().whenComplete((ignored, error) -> waiting.complete(null));
        }
        if (cancelNow) {
            started.cancel();
        }
        started.result().whenComplete((value, error) -> {
            if (error != null) {
                result.completeExceptionally(error);
            } else {
                result.complete(value);
            }
        });
    }

    @Override
    public CompletableFuture<JsonNode> result() {
        return result;
    }

    @Override
    public CompletableFuture<Void> finished() {
        synchronized (this) {
            if (call == null) {
                if (finished == null) {
                    finished = abandoned ? CompletableFuture.completedFuture(null) : new CompletableFuture<>();
                }
                return finished;
            }
        }
        return call.finished();
    }

    @Override
    public void cancel() {
        InFlight<JsonNode> now;
        synchronized (this) {
            cancelled = true;
            now = call;
        }
        if (now != null) {
            now.cancel();
        } else {
            result.completeExceptionally(new PodBackend.PodFailure(PodBackend.PodFailure.Kind.CANCELLED, "cancelled",
                    OptionalInt.empty(), ""));
        }
    }
}
