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

    /** A call stopped by {@code cancel}. */
    static BoundaryCall of(CompletableFuture<JsonNode> payload, Runnable cancel) {
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(cancel, "cancel");
        return new BoundaryCall() {
            @Override
            public CompletableFuture<JsonNode> payload() {
                return payload;
            }

            @Override
            public void cancel() {
                cancel.run();
            }
        };
    }

    /** A call that has already failed. */
    static BoundaryCall failed(Throwable error) {
        return of(CompletableFuture.failedFuture(error), () -> { });
    }
}
