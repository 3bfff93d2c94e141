package org.metaruntime.gateway.internal.serve;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.metaruntime.supervisor.internal.Failures;

/** Steps on futures that pass a failure on as it is (never wrapped in a {@code CompletionException}). Stateless. */
final class Completions {

    private Completions() {
    }

    /**
     * What {@code next} answers once {@code ready} completes (on this thread when it has), or {@code ready}'s
     * failure; what {@code next} throws fails the answer.
     */
    static <T> CompletableFuture<T> after(CompletableFuture<Void> ready, Supplier<CompletableFuture<T>> next) {
        if (ready.isDone() && !ready.isCompletedExceptionally()) {
            return Failures.attempt(next);
        }
        CompletableFuture<T> out = new CompletableFuture<>();
        ready.whenComplete((ok, error) ->
                relay(error != null ? CompletableFuture.<T>failedFuture(error) : Failures.attempt(next), out));
        return out;
    }

    /** Completes {@code to} as {@code from} completes, its failure as it is. */
    static <T> void relay(CompletableFuture<T> from, CompletableFuture<T> to) {
        from.whenComplete((value, error) -> {
            if (error != null) {
                to.completeExceptionally(error);
            } else {
                to.complete(value);
            }
        });
    }
}
