package org.metaruntime.eventline;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.supervisor.ModuleProcess;
import org.metaruntime.supervisor.ProcessExit;
import org.metaruntime.supervisor.StopLadder;
import org.metaruntime.supervisor.StopReport;

/**
 * The live child of a successful {@linkplain EventLineRunner#startAttempt startup attempt}: its first event
 * and its process, kept running (the startup state machine's final healthy child). Its stdin is closed and
 * any stdout after the first line is dropped; stderr keeps draining into the bounded tail.
 *
 * <p>After startup, watch {@link #exitFuture()}: an exit with code 0 means the module has completed, a
 * non-zero exit (including death by a signal) that the runtime did not cause is a failure
 * ({@link #isFailure(ProcessExit)}). The owner must {@link #stop} or {@link #close} the child.
 *
 * <p>Thread-safe.
 *
 * <pre>{@code
 * try (EventLineChild child = runner.startAttempt(spec, Duration.ofSeconds(30))) {
 *     events.insert(child.event());
 *     child.exitFuture().thenAccept(exit -> {
 *         if (EventLineChild.isFailure(exit)) {
 *             supervisor.failed(exit);
 *         }
 *     });
 * }
 * }</pre>
 */
public final class EventLineChild implements AutoCloseable {

    private final ModuleProcess process;
    private final EventEnvelope<UnifiedEvent> event;

    EventLineChild(ModuleProcess process, EventEnvelope<UnifiedEvent> event) {
        this.process = Objects.requireNonNull(process, "process");
        this.event = Objects.requireNonNull(event, "event");
    }

    /**
     * Whether an exit of a kept event-line child is a failure: it exited with a non-zero code or by a
     * signal, and not because the runtime stopped it.
     */
    public static boolean isFailure(ProcessExit exit) {
        Objects.requireNonNull(exit, "exit");
        return !exit.requestedByRuntime() && exit.exitCode() != 0;
    }

    /** The normalised first event. */
    public EventEnvelope<UnifiedEvent> event() {
        return event;
    }

    /** The process itself (pid, stderr tail, exit future, stop). */
    public ModuleProcess process() {
        return process;
    }

    /** The module id of the spec it was started from. */
    public String moduleId() {
        return process.moduleId();
    }

    /** The process id. */
    public long pid() {
        return process.pid();
    }

    /** Whether the process is still running. */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** The bounded tail of its stderr so far. */
    public String stderrTail() {
        return process.stderrTail();
    }

    /** Completes once, when the process has exited (whoever caused it). */
    public CompletableFuture<ProcessExit> exitFuture() {
        return process.exitFuture();
    }

    /**
     * Stops the process tree with {@code ladder} without its stdin grace (stdin was closed when the child
     * started, so waiting for the child to react to it would only add the grace); blocking, bounded by the
     * ladder, idempotent.
     */
    public StopReport stop(StopLadder ladder) {
        return process.stop(Objects.requireNonNull(ladder, "ladder").withoutStdinGrace());
    }

    /** Like {@link #stop(StopLadder)} without blocking the caller. */
    public CompletableFuture<StopReport> stopAsync(StopLadder ladder) {
        return process.stopAsync(Objects.requireNonNull(ladder, "ladder").withoutStdinGrace());
    }

    /** Stops the process tree with {@link StopLadder#defaults()} (without its stdin grace). */
    @Override
    public void close() {
        stop(StopLadder.defaults());
    }

    @Override
    public String toString() {
        return "EventLineChild[module=" + moduleId() + ", pid=" + pid() + ", event=" + event.eventId() + "]";
    }
}
