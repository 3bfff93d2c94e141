package org.metaruntime.core.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import org.metaruntime.core.ModuleCall;
import org.metaruntime.core.ModuleRouteError;
import org.metaruntime.core.ModuleRouteException;
import org.metaruntime.core.ModuleRouteRequest;
import org.metaruntime.core.ModuleRouteResponse;
import org.metaruntime.core.RuntimeBoundaryError;
import org.metaruntime.supervisor.InFlight;

/**
 * One call's lifecycle: answered once, cancelled at most once. Once the call knows its module's boundary
 * ({@link #cancelledAs}), a cancel completes the response at once with that boundary's {@code Cancelled} error and
 * reaches whatever the call is waiting on (a lazy startup, the boundary call); a later answer is dropped.
 * Thread-safe.
 */
public final class RealModuleCall implements ModuleCall {

    private final ModuleRouteRequest request;
    private final Response response = new Response();
    private final CompletableFuture<Void> settled = new CompletableFuture<>();
    private InFlight<JsonNode> boundary;
    private RuntimeBoundaryError cancelledError;
    private boolean cancelled;

    public RealModuleCall(ModuleRouteRequest request) {
        this.request = Objects.requireNonNull(request, "request");
    }

    @Override
    public CompletableFuture<ModuleRouteResponse> response() {
        return response;
    }

    @Override
    public ModuleRouteRequest request() {
        return request;
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
    public void attach(InFlight<JsonNode> call, Function<JsonNode, ModuleRouteResponse> answer) {
        boolean cancelNow;
        synchronized (this) {
            boundary = call;
            cancelNow = cancelled;
        }
        call.finished().whenComplete((ignored, error) -> settled.complete(null));
        if (cancelNow) {
            call.cancel();
            return;
        }
        call.result().whenComplete((payload, error) -> {
            if (error != null) {
                fail(CallRouter.toRouteException(request.moduleId(), error));
                return;
            }
            try {
                response.completeFromCall(answer.apply(payload));
            } catch (RuntimeException e) {
                fail(CallRouter.toRouteException(request.moduleId(), e));
            }
        });
    }

    /**
     * Waits for the answer; an interrupt of the waiting thread cancels the call (and stays set). A failure is thrown
     * again from the waiting thread, so its stack trace shows the caller.
     *
     * @throws ModuleRouteException the call's failure
     */
    public ModuleRouteResponse await() {
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
        ModuleRouteException error = CallRouter.toRouteException(request.moduleId(), failure);
        return new ModuleRouteException(error.moduleId(), error.error(), error.exitCode(), error.stderrTail(), error);
    }

    /** Fails the call before it reached a boundary (a check, a failed startup, ...). */
    public void fail(ModuleRouteException error) {
        response.completeExceptionallyFromCall(error);
        synchronized (this) {
            if (boundary == null) {
                settled.complete(null);
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
        InFlight<JsonNode> call;
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
            settled.complete(null);
        }
        return error;
    }

    private void completeCancelled(RuntimeBoundaryError error) {
        response.completeExceptionallyFromCall(new ModuleRouteException(request.moduleId(),
                new ModuleRouteError.ModuleRuntime(error)));
    }

    /** The response: {@code cancel(true)} on it cancels the call. */
    private final class Response extends CompletableFuture<ModuleRouteResponse> {

        void completeFromCall(ModuleRouteResponse value) {
            super.complete(value);
        }

        void completeExceptionallyFromCall(Throwable error) {
            super.completeExceptionally(error);
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            boolean done = super.cancel(mayInterruptIfRunning);
            if (done) {
                stop();
            }
            return done;
        }
    }
}
