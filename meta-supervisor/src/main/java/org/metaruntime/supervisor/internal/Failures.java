package org.metaruntime.supervisor.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/**
 * How a future's failure is read and made, for every module of the runtime: the cause inside the
 * {@link CompletionException} and {@link ExecutionException} wrappers that {@code CompletableFuture} adds, and a
 * method that fails through its future instead of throwing. Stateless.
 */
public final class Failures {

    private Failures() {
    }

    /**
     * {@code failure} without its {@link CompletionException} and {@link ExecutionException} wrappers (a wrapper
     * without a cause is returned as it is); {@code null} stays {@code null}.
     */
    public static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** What {@code next} returns, or a future failed with what it throws. */
    public static <T> CompletableFuture<T> attempt(Supplier<CompletableFuture<T>> next) {
        try {
            return next.get();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** What {@code value} returns, as a completed future (it runs on this thread), or a future failed with what it throws. */
    public static <T> CompletableFuture<T> answered(Supplier<T> value) {
        return attempt(() -> CompletableFuture.completedFuture(value.get()));
    }
}
