package org.metaruntime.supervisor.internal;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * How a future's failure is read, for every module of the runtime: the cause inside the
 * {@link CompletionException} and {@link ExecutionException} wrappers that {@code CompletableFuture} adds.
 * Stateless.
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
}
