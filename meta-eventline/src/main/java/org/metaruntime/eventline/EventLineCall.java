package org.metaruntime.eventline;

import java.time.Duration;
import java.util.OptionalInt;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.metaruntime.eventline.internal.FirstEventWait;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.supervisor.InFlight;
import org.metaruntime.supervisor.ModuleProcess;
import org.metaruntime.supervisor.ProcessBoundaryError;
import org.metaruntime.supervisor.ProcessExit;
import org.metaruntime.supervisor.Scheduler;
import org.metaruntime.supervisor.StopLadder;
import org.metaruntime.supervisor.internal.Failures;
import org.metaruntime.supervisor.internal.HandleFuture;

/**
 * One one-shot event-line call in progress ({@link EventLineRunner#call}): a handle to its result and to
 * cancel it ({@link InFlight}, the runtime's one handle shape). The call spawns the module's process, closes its stdin, waits for the first stdout line within
 * the timeout and normalises it; then it waits for the process to exit for at most the exit grace and stops
 * its tree; {@link #result()} then completes with the event. Whatever happens, the process tree is gone by
 * the time {@link #result()} completes.
 *
 * <p>{@link #cancel()} kills the process tree and fails {@link #result()} with an {@link EventLineException}
 * carrying {@code Process(ProcessBoundaryError.Cancelled())}; it is idempotent, never blocks, and does nothing
 * once the result is complete. {@code result().cancel(true)} completes the result with a
 * {@link CancellationException}, as any {@code CompletableFuture} does, and kills the tree the same way.
 *
 * <p>Thread-safe. The result completes on a runtime thread: keep its dependent stages short.
 *
 * <pre>{@code
 * EventLineCall call = runner.call(spec, Duration.ofSeconds(10), null);
 * call.result().thenAccept(event -> store.insert(event));
 * ...
 * call.cancel(); // the caller lost interest: the child's tree is stopped
 * }</pre>
 */
public final class EventLineCall implements InFlight<EventEnvelope<UnifiedEvent>> {

    private final String moduleId;
    private final CompletableFuture<EventEnvelope<UnifiedEvent>> result = new HandleFuture<>(this::cancel);
    private final AtomicBoolean cancelled = new AtomicBoolean();
    private final ModuleProcess process;
    private final FirstEventWait wait;

    /** A call that failed before a process ran (spawn failure). */
    EventLineCall(String moduleId, EventLineException failure) {
        this.moduleId = moduleId;
        this.process = null;
        this.wait = null;
        result.completeExceptionally(failure);
    }

    /** A call whose process was spawned and whose first line {@code wait} awaits (already started). */
    EventLineCall(ModuleProcess process, FirstEventWait wait, Duration exitGrace, StopLadder stopLadder,
                  Scheduler scheduler) {
        this.moduleId = process.moduleId();
        this.process = process;
        this.wait = wait;
        wait.event().whenComplete((event, error) -> {
            if (error != null) {
                result.completeExceptionally(Failures.unwrap(error));
            } else {
                afterLine(event, exitGrace, stopLadder, scheduler);
            }
        });
    }

    /** The module whose process runs the call. */
    public String moduleId() {
        return moduleId;
    }

    /**
     * Completes with the normalised first event once the process tree is gone, or fails with an
     * {@link EventLineException} (timeout, empty output, over-long line, invalid event, spawn or read
     * failure, cancellation).
     */
    @Override
    public CompletableFuture<EventEnvelope<UnifiedEvent>> result() {
        return result;
    }

    /**
     * Cancels the call: kills the process tree and fails {@link #result()} with
     * {@code Process(ProcessBoundaryError.Cancelled())} once it is gone. Idempotent, never blocks; does nothing
     * once the result is complete (other than by a {@code result().cancel(...)}).
     */
    @Override
    public void cancel() {
        if (process == null || result.isDone() && !result.isCancelled() || !cancelled.compareAndSet(false, true)) {
            return;
        }
        // Before the line this settles the wait with Cancelled; after it, the call is in its exit grace and
        // the stop below ends it (finish then reports the cancellation).
        wait.cancel();
        process.stopAsync(FirstEventWait.KILL_LADDER);
    }

    /**
     * Waits for the result on the calling thread. An interrupt of the waiting thread cancels the call; the
     * interrupt flag stays set.
     *
     * @throws EventLineException on any failure of the call
     */
    EventEnvelope<UnifiedEvent> await() {
        try {
            return result.get();
        } catch (InterruptedException e) {
            cancel();
            EventEnvelope<UnifiedEvent> event;
            try {
                event = result.join();
            } catch (CompletionException | CancellationException failure) {
                Thread.currentThread().interrupt();
                throw asEventLineException(failure);
            }
            Thread.currentThread().interrupt();
            return event;
        } catch (ExecutionException e) {
            throw asEventLineException(e);
        } catch (CancellationException e) {
            throw asEventLineException(e);
        }
    }

    /** After the line: wait for the exit (at most the grace), then stop what is left, then complete. */
    private void afterLine(EventEnvelope<UnifiedEvent> event, Duration exitGrace, StopLadder stopLadder,
                           Scheduler scheduler) {
        CompletableFuture<ProcessExit> exit = process.exitFuture();
        if (!exit.isDone()) {
            try {
                Scheduler.Cancellable grace = scheduler.schedule(() -> exit.complete(null), exitGrace);
                exit.thenRun(grace::cancel);
            } catch (RejectedExecutionException e) {
                exit.complete(null);
            }
        }
        exit.thenAccept(exited -> {
            // An exit is reported only after the process layer reclaimed what was left of the tree.
            if (exited != null) {
                finish(event);
            } else {
                process.stopAsync(stopLadder).whenComplete((report, error) -> finish(event));
            }
        });
    }

    /** Completes with the event, or, when the call was cancelled meanwhile, with the cancellation once the tree is gone. */
    private void finish(EventEnvelope<UnifiedEvent> event) {
        if (!cancelled.get()) {
            result.complete(event);
            return;
        }
        process.stopAsync(FirstEventWait.KILL_LADDER).whenComplete((report, error) ->
                result.completeExceptionally(new EventLineException(moduleId,
                        new EventLineError.Process(new ProcessBoundaryError.Cancelled()), OptionalInt.empty(),
                        process.stderrTail(), null)));
    }

    private RuntimeException asEventLineException(Throwable failure) {
        Throwable cause = Failures.unwrap(failure);
        if (cause instanceof EventLineException e) {
            return e;
        }
        if (cause instanceof CancellationException) {
            return new EventLineException(moduleId, new EventLineError.Process(new ProcessBoundaryError.Cancelled()),
                    OptionalInt.empty(), process == null ? "" : process.stderrTail(), cause);
        }
        return cause instanceof RuntimeException r ? r : new IllegalStateException(cause);
    }

    @Override
    public String toString() {
        return "EventLineCall[" + moduleId + (result.isDone() ? ", done]" : ", running]");
    }
}
