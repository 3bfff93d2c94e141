package org.metaruntime.core.internal;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.metaruntime.core.ModuleRouteError;
import org.metaruntime.core.ModuleRouteException;
import org.metaruntime.core.RuntimeBoundaryError;
import org.metaruntime.supervisor.InFlight;
import org.metaruntime.supervisor.internal.HandleFuture;

/**
 * One call's lifecycle, whatever it answers with: answered once, cancelled at most once, every failure a
 * {@link ModuleRouteException}. Once the call knows its module's boundary ({@link #cancelledAs}), a cancel completes
 * the result at once with that boundary's {@code Cancelled} error and reaches whatever the call is waiting on (a lazy
 * startup, the boundary's own call); a later answer is dropped. {@code result().cancel(true)} cancels the call too.
 * What {@link #onEnd} was given is told of the end before the result completes, so a caller that saw the answer knows
 * the end was told; likewise {@link #onSettled} runs before {@link #finished()} completes. Thread-safe.
 *
 * @param <T> what the call answers with
 */
public class RoutedCall<T> implements InFlight<T> {

    private final String moduleId;
    private final HandleFuture<T> response = new HandleFuture<>(this::stop);
    private final CompletableFuture<Void> settled = new CompletableFuture<>();
    private final AtomicBoolean told = new AtomicBoolean();
    private volatile BiConsumer<? super T, ? super Throwable> onEnd = (value, error) -> { };
    private InFlight<?> boundary;
    private RuntimeBoundaryError cancelledError;
    private boolean cancelled;
    private boolean ending;
    private Runnable onSettled; // guarded by this; null once run
    private boolean isSettled; // guarded by this

    public RoutedCall(String moduleId) {
        this.moduleId = Objects.requireNonNull(moduleId, "moduleId");
    }

    /**
     * Tells {@code onEnd} once how the call ended, before its result completes (after, when the result future itself
     * is cancelled). Set it before the call can end.
     */
    public void onEnd(BiConsumer<? super T, ? super Throwable> onEnd) {
        this.onEnd = Objects.requireNonNull(onEnd, "onEnd");
        response.whenComplete(this::tell);
    }

    private void tell(T value, Throwable error) {
        if (told.compareAndSet(false, true)) {
            onEnd.accept(value, error);
        }
    }

    /**
     * Runs {@code action} once the call's boundary work has ended, before {@link #finished()} completes; at once when
     * it has ended already. One action per call.
     */
    public void onSettled(Runnable action) {
        Objects.requireNonNull(action, "action");
        synchronized (this) {
            if (!isSettled) {
                onSettled = action;
                return;
            }
        }
        action.run();
    }

    /** The call's boundary work has ended: the {@link #onSettled} action runs, then {@link #finished()} completes. */
    private void settle() {
        Runnable action;
        synchronized (this) {
            if (isSettled) {
                return;
            }
            isSettled = true;
            action = onSettled;
            onSettled = null;
        }
        try {
            if (action != null) {
                action.run();
            }
        } finally {
            settled.complete(null);
        }
    }

    /** Whether this is the one completion of the response; the caller then tells the end and completes it. */
    private synchronized boolean ends() {
        if (ending || response.isDone()) {
            return false;
        }
        ending = true;
        return true;
    }

    private void answer(T value) {
        if (ends()) {
            tell(value, null);
            response.complete(value);
        }
    }

    private void failWith(Throwable error) {
        if (ends()) {
            tell(null, error);
            response.completeExceptionally(error);
        }
    }

    @Override
    public CompletableFuture<T> result() {
        return response;
    }

    /**
     * Completes once the call's boundary work has ended (its process stopped, its session closed), which may be
     * after the response completed: a cancelled call's response completes at once.
     */
    @Override
    public CompletableFuture<Void> finished() {
        return settled;
    }

    /** Whether the call was cancelled. */
    public synchronized boolean isCancelled() {
        return cancelled;
    }

    /** The error a cancel of this call gives, now that its boundary is known. */
    public void cancelledAs(RuntimeBoundaryError error) {
        boolean now;
        synchronized (this) {
            cancelledError = Objects.requireNonNull(error, "error");
            now = cancelled;
        }
        if (now) {
            completeCancelled(error);
        }
    }

    /**
     * Hands the call to its boundary; its payload completes the response through {@code answer}. When the call was
     * cancelled already, the boundary call is cancelled at once.
     */
    public <B> void attach(InFlight<B> call, Function<? super B, ? extends T> answer) {
        boolean cancelNow;
        synchronized (this) {
            boundary = call;
            cancelNow = cancelled;
        }
        call.finished().whenComplete((ignored, error) -> settle());
        if (cancelNow) {
            call.cancel();
            return;
        }
        call.result().whenComplete((value, error) -> {
            if (error != null) {
                fail(CallRouter.toRouteException(moduleId, error));
                return;
            }
            try {
                answer(answer.apply(value));
            } catch (RuntimeException e) {
                fail(CallRouter.toRouteException(moduleId, e));
            }
        });
    }

    /**
     * Waits for the answer; an interrupt of the waiting thread cancels the call (and stays set). A failure is thrown
     * again from the waiting thread, so its stack trace shows the caller.
     *
     * @throws ModuleRouteException the call's failure
     */
    public T await() {
        try {
            return response.get();
        } catch (InterruptedException e) {
            cancel();
            Thread.currentThread().interrupt();
            if (response.isDone() && !response.isCompletedExceptionally()) {
                return response.join();
            }
            throw rethrown(response.isDone() ? response.handle((value, error) -> error).join() : e);
        } catch (ExecutionException e) {
            throw rethrown(e);
        }
    }

    private ModuleRouteException rethrown(Throwable failure) {
        ModuleRouteException error = CallRouter.toRouteException(moduleId, failure);
        return new ModuleRouteException(error.moduleId(), error.error(), error.exitCode(), error.stderrTail(), error);
    }

    /** Fails the call before it reached a boundary (a check, a failed startup, ...). */
    public void fail(ModuleRouteException error) {
        failWith(error);
        synchronized (this) {
            if (boundary == null) {
                settle();
            }
        }
    }

    @Override
    public void cancel() {
        RuntimeBoundaryError error = stop();
        if (error != null) {
            completeCancelled(error);
        }
    }

    /** Marks the call cancelled and cancels its boundary call; returns the error to complete it with, if known. */
    private RuntimeBoundaryError stop() {
        InFlight<?> call;
        RuntimeBoundaryError error;
        synchronized (this) {
            if (cancelled || response.isDone() && !response.isCancelled()) {
                return null;
            }
            cancelled = true;
            call = boundary;
            error = cancelledError;
        }
        if (call != null) {
            call.cancel();
        } else {
            settle();
        }
        return error;
    }

    private void completeCancelled(RuntimeBoundaryError error) {
        failWith(new ModuleRouteException(moduleId, new ModuleRouteError.ModuleRuntime(error)));
    }
}
