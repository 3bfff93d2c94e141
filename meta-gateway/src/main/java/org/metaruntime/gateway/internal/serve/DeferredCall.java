package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * A call that starts later, on another thread (once its pod's backend is made): its result is the started call's;
 * cancelled before it starts, it never starts and fails as cancelled. Thread-safe.
 */
final class DeferredCall implements PodBackend.PodCall {

    private final CompletableFuture<JsonNode> result = new CompletableFuture<>();
    private PodBackend.PodCall started;
    private boolean cancelled;

    /** Starts the call with {@code starter}, unless it was cancelled. */
    void start(Supplier<PodBackend.PodCall> starter) {
        synchronized (this) {
            if (cancelled) {
                return;
            }
        }
        PodBackend.PodCall call;
        try {
            call = starter.get();
        } catch (RuntimeException e) {
            call = FailedCall.of(e);
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
        PodBackend.PodCall call;
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
