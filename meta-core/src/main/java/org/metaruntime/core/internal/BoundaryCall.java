package org.metaruntime.core.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * A call started on a boundary: its payload, and the way to stop it (stop waiting, tell the module, stop the process
 * when the call owns one). Thread-safe.
 */
public interface BoundaryCall {

    /** Completes with the payload, or exceptionally with a {@link BoundaryFailure}. */
    CompletableFuture<JsonNode> payload();

    /** Stops the call; idempotent and non-blocking. Its payload may still complete, and is then ignored. */
    void cancel();

    /**
     * Completes, never exceptionally, once everything the call owns (a per-call process) has ended; a cancelled
     * call's payload completes at once, this when its process is gone. By default, with the payload.
     */
    default CompletableFuture<Void> finished() {
        return payload().handle((payload, error) -> null);
    }

    /** A call stopped by {@code cancel}, owning nothing beyond its payload. */
    static BoundaryCall of(CompletableFuture<JsonNode> payload, Runnable cancel) {
        return of(payload, cancel, payload.handle((value, error) -> null));
    }

    /** A call stopped by {@code cancel}, whose own processes have ended when {@code finished} completes. */
    static BoundaryCall of(CompletableFuture<JsonNode> payload, Runnable cancel, CompletableFuture<Void> finished) {
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(cancel, "cancel");
        Objects.requireNonNull(finished, "finished");
        return new BoundaryCall() {
            @Override
            public CompletableFuture<JsonNode> payload() {
                return payload;
            }

            @Override
            public void cancel() {
                cancel.run();
            }

            @Override
            public CompletableFuture<Void> finished() {
                return finished;
            }
        };
    }

    /** A call that has already failed. */
    static BoundaryCall failed(Throwable error) {
        return of(CompletableFuture.failedFuture(error), () -> { });
    }
}
