package org.metaruntime.core.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Runs blocking module I/O on an executor as a {@link BoundaryCall}: cancelling it before it starts keeps it from
 * running; cancelling it while it runs interrupts its thread, which stops the process the I/O owns.
 */
final class Blocking {

    /** A piece of blocking I/O. */
    @FunctionalInterface
    interface Io {
        JsonNode run() throws Exception;
    }

    private Blocking() {
    }

    static BoundaryCall call(Executor executor, Io io) {
        CompletableFuture<JsonNode> future = new CompletableFuture<>();
        Object lock = new Object();
        Thread[] running = new Thread[1];
        boolean[] cancelled = new boolean[1];
        Runnable task = () -> {
            synchronized (lock) {
                if (cancelled[0]) {
                    return;
                }
                running[0] = Thread.currentThread();
            }
            try {
                future.complete(io.run());
            } catch (Throwable e) {
                future.completeExceptionally(e);
            } finally {
                synchronized (lock) {
                    running[0] = null;
                    Thread.interrupted();
                }
            }
        };
        try {
            executor.execute(task);
        } catch (RejectedExecutionException e) {
            future.completeExceptionally(e);
        }
        return BoundaryCall.of(future, () -> {
            synchronized (lock) {
                cancelled[0] = true;
                if (running[0] != null) {
                    running[0].interrupt();
                }
            }
        });
    }
}
