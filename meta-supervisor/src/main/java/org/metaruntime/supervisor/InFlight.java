package org.metaruntime.supervisor;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Work started and not yet over: its result, a way to cancel it, and when everything it owns has ended. Every call
 * handle of the runtime has this shape (a routed call, an MCP tool call, an event-line run).
 *
 * <pre>{@code
 * InFlight<String> job = InFlight.of(future, () -> worker.interrupt());
 * job.result().thenAccept(System.out::println);
 * cancelButton.onClick(job::cancel);
 * }</pre>
 *
 * <p>Implementations are thread-safe.
 *
 * @param <T> the result's type
 */
public interface InFlight<T> {

    /** Completes with the result, or exceptionally with the work's failure (a cancel included). */
    CompletableFuture<T> result();

    /** Cancels the work: idempotent, never blocks; does nothing once it completed. */
    void cancel();

    /**
     * Completes, never exceptionally, once everything the work owns (a process, a per-call server) has ended, which
     * may be after {@link #result()} completed: a cancelled call's result completes at once. By default, with the
     * result.
     */
    default CompletableFuture<Void> finished() {
        return result().handle((value, error) -> null);
    }

    /** Work cancelled by {@code cancel}, owning nothing beyond its result. */
    static <T> InFlight<T> of(CompletableFuture<T> result, Runnable cancel) {
        return of(result, cancel, result.handle((value, error) -> null));
    }

    /** Work cancelled by {@code cancel}, whose own resources have ended when {@code finished} completes. */
    static <T> InFlight<T> of(CompletableFuture<T> result, Runnable cancel, CompletableFuture<Void> finished) {
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(cancel, "cancel");
        Objects.requireNonNull(finished, "finished");
        return new InFlight<>() {
            @Override
            public CompletableFuture<T> result() {
                return result;
            }

            @Override
            public void cancel() {
                cancel.run();
            }

            @Override
            public CompletableFuture<Void> finished() {
                return finished;
            }

            @Override
            public String toString() {
                return "InFlight[" + (result.isDone() ? "done]" : "running]");
            }
        };
    }

    /** Work that has already failed with {@code error}. */
    static <T> InFlight<T> failed(Throwable error) {
        return of(CompletableFuture.failedFuture(Objects.requireNonNull(error, "error")), () -> { });
    }
}
