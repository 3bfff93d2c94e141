package org.metaruntime.core.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/** Runs blocking module I/O on an executor and hands back a future. */
final class Blocking {

    /** A piece of blocking I/O. */
    @FunctionalInterface
    interface Io<T> {
        T run() throws Exception;
    }

    private Blocking() {
    }

    static <T> CompletableFuture<T> supply(Executor executor, Io<T> io) {
        CompletableFuture<T> future = new CompletableFuture<>();
        try {
            executor.execute(() -> {
                try {
                    future.complete(io.run());
                } catch (Throwable e) {
                    future.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            future.completeExceptionally(e);
        }
        return future;
    }
}
