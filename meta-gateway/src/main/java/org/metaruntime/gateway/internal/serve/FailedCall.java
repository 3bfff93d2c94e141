package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.CompletableFuture;

/** A call that failed before it reached a pod: its result has failed; cancelling it does nothing. Immutable. */
record FailedCall(CompletableFuture<JsonNode> result) implements PodBackend.PodCall {

    static FailedCall of(RuntimeException error) {
        return new FailedCall(CompletableFuture.failedFuture(error));
    }

    @Override
    public void cancel() {
        // nothing runs
    }
}
