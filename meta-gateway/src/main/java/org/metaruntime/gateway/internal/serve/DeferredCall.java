package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.metaruntime.supervisor.InFlight;

/**
 * A call that starts later, on another thread (once its pod's backend is made): its result is the started call's;
 * cancelled before it starts, it never starts and fails as cancelled. Thread-safe.
 */
final class DeferredCall implements InFlight<JsonNode> {

    private final CompletableFuture<JsonNode> result = new CompletableFuture<>();
    private InFlight<JsonNode> started;
    private boolean cancelled;

    /** Starts the call with {@code starter}, unless it was cancelled. */
    void start(Supplier<InFlight<JsonNode>> starter) {
        synchronized (this) {
            if (cancelled) {
                return;
            }
        }
        InFlight<JsonNode> call;
        try {
            call = starter.get();
        } catch (RuntimeException e) {
            call = InFlight.failed(e);
        }
        boolean cancelNow;
        synchronized (this) {
            started = call;
            cancelNow = cancelled;
        }
        if (cancelNow) {
            call.cancel();
        }
        call.result().whenComplete((r, e) -> {
            if (e != null) {
                result.completeExceptionally(e);
            } else {
                result.complete(r);
            }
        });
    }

    @Override
    public CompletableFuture<JsonNode> result() {
        return result;
    }

    @Override
    public void cancel() {
        InFlight<JsonNode> call;
        synchronized (this) {
            cancelled = true;
            call = started;
        }
        if (call != null) {
            call.cancel();
        } else {
            result.completeExceptionally(new PodBackend.PodFailure(PodBackend.PodFailure.Kind.CANCELLED, "cancelled",
                    OptionalInt.empty(), ""));
        }
    }
}
