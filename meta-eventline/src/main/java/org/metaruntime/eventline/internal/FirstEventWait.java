package org.metaruntime.eventline.internal;

import java.time.Duration;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.metaruntime.eventline.EventLineError;
import org.metaruntime.eventline.EventLineException;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.EventNormalizer;
import org.metaruntime.events.NormalizationException;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.supervisor.Deadline;
import org.metaruntime.supervisor.ModuleProcess;
import org.metaruntime.supervisor.ProcessBoundaryError;
import org.metaruntime.supervisor.ProcessExit;
import org.metaruntime.supervisor.Scheduler;
import org.metaruntime.supervisor.StopLadder;

/**
 * Waits, without holding a thread, for the first stdout line of a spawned event-line process and normalises it.
 * {@link #event()} completes with the first event (the process is left running: the caller decides what to do
 * with it), or fails with an {@link EventLineException} once the process tree has been killed: timeout (the
 * scheduler fires it at the deadline, and a line that arrives after the deadline is a timeout too), over-long
 * line, read failure, empty output (after waiting, bounded, for the exit code), invalid event, or
 * {@link #cancel()}. Exactly one of these settles it. Thread-safe.
 */
public final class FirstEventWait {

    /** The ladder that ends a failed or cancelled run: the whole tree is killed at once. */
    public static final StopLadder KILL_LADDER = new StopLadder(Duration.ZERO, Duration.ZERO, Duration.ofSeconds(1));

    private final ModuleProcess process;
    private final FirstLine first;
    private final Deadline deadline;
    private final Scheduler scheduler;
    private final Duration emptyOutputGrace;
    private final CompletableFuture<EventEnvelope<UnifiedEvent>> event = new CompletableFuture<>();
    private final AtomicBoolean settled = new AtomicBoolean();
    private volatile Scheduler.Cancellable timer;

    /**
     * @param process          the spawned process, reporting to {@code first}
     * @param emptyOutputGrace how long to wait for the exit code of a process that closed stdout without a line
     */
    public FirstEventWait(ModuleProcess process, FirstLine first, Deadline deadline, Scheduler scheduler,
                          Duration emptyOutputGrace) {
        this.process = Objects.requireNonNull(process, "process");
        this.first = Objects.requireNonNull(first, "first");
        this.deadline = Objects.requireNonNull(deadline, "deadline");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.emptyOutputGrace = Objects.requireNonNull(emptyOutputGrace, "emptyOutputGrace");
    }

    /** Starts waiting: the deadline's timer, and the first outcome of stdout. */
    public FirstEventWait start() {
        try {
            timer = scheduler.schedule(this::timedOut, deadline.remaining());
        } catch (RejectedExecutionException e) {
            fail(new EventLineError.Process(new ProcessBoundaryError.Io("the runtime's scheduler is closed")), e);
            return this;
        }
        first.outcome().thenAccept(this::arrived);
        return this;
    }

    /** The first event, or the failure. */
    public CompletableFuture<EventEnvelope<UnifiedEvent>> event() {
        return event;
    }

    /** Kills the tree and fails with {@link ProcessBoundaryError.Cancelled}, unless already settled. */
    public void cancel() {
        fail(new EventLineError.Process(new ProcessBoundaryError.Cancelled()), null);
    }

    private void timedOut() {
        fail(new EventLineError.Process(new ProcessBoundaryError.Timeout(deadline.timeoutMs())), null);
    }

    private void arrived(FirstLine.Outcome outcome) {
        if (deadline.isExpired()) {
            timedOut();
        } else if (outcome instanceof FirstLine.Outcome.Line line) {
            normalise(line.line());
        } else if (outcome instanceof FirstLine.Outcome.TooLong tooLong) {
            fail(new EventLineError.Process(new ProcessBoundaryError.LineTooLong(tooLong.limit())), null);
        } else if (outcome instanceof FirstLine.Outcome.ReadFailed failed) {
            Exception cause = failed.cause();
            String reason = cause.getMessage() != null ? cause.getMessage() : cause.getClass().getName();
            fail(new EventLineError.Process(new ProcessBoundaryError.Io("reading stdout failed: " + reason)), cause);
        } else {
            emptyOutput();
        }
    }

    private void normalise(String line) {
        EventEnvelope<UnifiedEvent> normalised;
        try {
            normalised = EventNormalizer.normalize(line);
        } catch (NormalizationException e) {
            fail(new EventLineError.Normalize(e.error()), e);
            return;
        }
        if (settle()) {
            event.complete(normalised);
        }
    }

    /** Stdout closed without a byte: wait (bounded) for the exit so the error can carry its exit code. */
    private void emptyOutput() {
        CompletableFuture<ProcessExit> exit = process.exitFuture();
        Scheduler.Cancellable graceTimer;
        try {
            graceTimer = scheduler.schedule(() -> exit.complete(null), emptyOutputGrace);
        } catch (RejectedExecutionException e) {
            graceTimer = () -> false;
        }
        Scheduler.Cancellable cancelGrace = graceTimer;
        exit.thenAccept(exited -> {
            cancelGrace.cancel();
            fail(new EventLineError.Process(new ProcessBoundaryError.EmptyOutput()), null);
        });
    }

    private boolean settle() {
        if (!settled.compareAndSet(false, true)) {
            return false;
        }
        Scheduler.Cancellable pending = timer;
        if (pending != null) {
            pending.cancel();
        }
        return true;
    }

    /** Settles with {@code error} once the tree is killed; the exit code only when the process exited on its own. */
    private void fail(EventLineError error, Throwable cause) {
        if (!settle()) {
            return;
        }
        ProcessExit exitedBefore = process.exitFuture().getNow(null);
        process.stopAsync(KILL_LADDER).whenComplete((report, stopError) -> {
            ProcessExit exit = exitedBefore != null ? exitedBefore : process.exitFuture().getNow(null);
            boolean own = exit != null && !exit.requestedByRuntime();
            OptionalInt exitCode = own ? OptionalInt.of(exit.exitCode()) : OptionalInt.empty();
            String stderrTail = exit != null ? exit.stderrTail() : process.stderrTail();
            event.completeExceptionally(new EventLineException(process.moduleId(), error, exitCode, stderrTail, cause));
        });
    }
}
