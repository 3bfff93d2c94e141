package org.metaruntime.supervisor.internal;

import java.util.concurrent.CompletableFuture;

/**
 * A future of a call handle: cancelling it ({@code cancel(true)} or {@code cancel(false)}) completes it with a
 * {@link java.util.concurrent.CancellationException}, as any {@link CompletableFuture}, and also cancels the call.
 * Dependent futures are plain {@link CompletableFuture}s. Thread-safe.
 */
public final class HandleFuture<T> extends CompletableFuture<T> {

    private final Runnable onCancel;

    /** A future that runs {@code onCancel} when it is cancelled. */
    public HandleFuture(Runnable onCancel) {
        this.onCancel = onCancel;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        onCancel.run();
        return cancelled;
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new CompletableFuture<>();
    }
}
