package org.metaruntime.mcp;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.metaruntime.mcp.internal.Request;
import org.metaruntime.mcp.internal.SessionOpener;
import org.metaruntime.supervisor.Deadline;
import org.metaruntime.supervisor.StopLadder;
import org.metaruntime.supervisor.internal.Failures;

/** How the blocking forms of this package wait: deadlines, interrupts, and the exception rethrown. Stateless. */
final class Waits {

    private Waits() {
    }

    /**
     * Waits for a call started without a timer: expires it at its deadline (which progress may move on); an
     * interrupt cancels it and throws {@code Interrupted}. No timer is scheduled for a blocking call.
     */
    static <T> T call(CompletableFuture<T> future, Request request) {
        try {
            while (true) {
                long remaining = request.nanosLeft();
                if (remaining <= 0) {
                    request.expire();
                    return future.get();
                }
                try {
                    return future.get(remaining, TimeUnit.NANOSECONDS);
                } catch (TimeoutException e) {
                    // the deadline passed, or progress moved it on: look again
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            McpBoundaryError error = new McpBoundaryError.Interrupted(request.moduleId(), request.operation());
            request.cancel(error, "the host's calling thread was interrupted");
            throw new McpBoundaryException(error);
        } catch (ExecutionException e) {
            throw rethrow(e);
        }
    }

    /**
     * Waits for an opening connection; on an interrupt the opening is cancelled, which stops the server at once, or,
     * when it has opened already, the connection is closed.
     */
    static McpConnection opened(CompletableFuture<McpConnection> opening, String moduleId) {
        try {
            return opening.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (!opening.cancel(false)) {
                opening.thenAccept(c -> c.closeAsync(SessionOpener.CLOSE_TIMEOUT, StopLadder.immediate()));
            }
            throw new McpBoundaryException(new McpBoundaryError.Interrupted(moduleId, "connect"));
        } catch (ExecutionException e) {
            throw rethrow(e);
        }
    }

    /** Waits for {@code future}, bounded by its own timers; an interrupt throws {@code Interrupted}. */
    static <T> T get(CompletableFuture<T> future, String moduleId, String operation) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new McpBoundaryException(new McpBoundaryError.Interrupted(moduleId, operation));
        } catch (ExecutionException e) {
            throw rethrow(e);
        }
    }

    /**
     * Waits for a closing connection and returns its close error (null when it closed cleanly); an interrupt or an
     * unexpected failure is a {@code CloseFailed}. Never throws.
     */
    static McpBoundaryError closed(CompletableFuture<McpBoundaryError> closing, String moduleId) {
        try {
            return closing.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new McpBoundaryError.CloseFailed(moduleId, "interrupted while stopping the server");
        } catch (ExecutionException e) {
            return new McpBoundaryError.CloseFailed(moduleId, String.valueOf(Failures.unwrap(e)));
        }
    }

    /** Throws {@code error} as a {@link McpBoundaryException}; nothing when it is null. */
    static void throwIfFailed(McpBoundaryError error) {
        if (error != null) {
            throw new McpBoundaryException(error);
        }
    }

    /** The failure of a future as thrown on the waiting thread (a {@link McpBoundaryException} wrapped anew). */
    static RuntimeException rethrow(Throwable cause) {
        cause = Failures.unwrap(cause);
        if (cause instanceof McpBoundaryException) {
            return ((McpBoundaryException) cause).rethrown();
        }
        if (cause instanceof RuntimeException) {
            return (RuntimeException) cause;
        }
        return new CompletionException(cause);
    }

    /** {@code timeout}, checked positive and capped at {@link Deadline#MAX_TIMEOUT}. */
    static Duration validated(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, got " + timeout);
        }
        return Deadline.clamp(timeout);
    }
}
