package org.metaruntime.eventline;

import java.time.Duration;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.metaruntime.eventline.internal.FirstLine;
import org.metaruntime.eventline.internal.FirstLine.Outcome;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.EventNormalizer;
import org.metaruntime.events.NormalizationException;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.supervisor.ModuleProcess;
import org.metaruntime.supervisor.ProcessBoundaryError;
import org.metaruntime.supervisor.ProcessBoundaryException;
import org.metaruntime.supervisor.ProcessExit;
import org.metaruntime.supervisor.ProcessSpec;
import org.metaruntime.supervisor.StopLadder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event-line boundary: spawns a module's process, closes its stdin at once, reads its first stdout
 * line within a timeout and normalises it into an event envelope.
 *
 * <ul>
 *   <li>{@link #runOnce} is the one-shot run of a routed call: after the line it waits for the process to
 *       exit for at most the exit grace, then stops its process tree; the event is returned either way.</li>
 *   <li>{@link #startAttempt} is one attempt of the startup state machine: the process is kept after its
 *       first line and handed back as an {@link EventLineChild} to supervise and stop.</li>
 * </ul>
 *
 * <p>Every failure is an {@link EventLineException} whose {@link EventLineError} is either
 * {@code Process(ProcessBoundaryError)} (spawn failure, read failure, timeout, empty output, over-long line)
 * or {@code Normalize(NormalizationError)} (the line is not a valid event); a failed run or attempt leaves
 * no process behind. The calling thread waits; the runner adds no thread of its own to the process layer's
 * two per live child, and every wait is bounded by the timeout, the exit grace and the stop ladder.
 *
 * <p>Immutable and thread-safe: one runner serves any number of concurrent runs.
 *
 * <pre>{@code
 * EventLineRunner runner = EventLineRunner.create();
 * ProcessSpec spec = ProcessSpec.builder("weather").command("python3", "weather.py").build();
 * EventEnvelope<UnifiedEvent> event = runner.runOnce(spec, Duration.ofSeconds(10));
 * }</pre>
 */
public final class EventLineRunner {

    /** The shortest default exit grace: a one-shot run waits at least this long for the exit. */
    public static final Duration MIN_DEFAULT_EXIT_GRACE = Duration.ofSeconds(1);

    /**
     * The default ladder that stops a one-shot process tree once the exit grace has passed: stdin is
     * already closed, so SIGTERM at once, 1 s to exit, then SIGKILL and at most 2 s for the tree to go.
     */
    public static final StopLadder DEFAULT_STOP_LADDER =
            new StopLadder(Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(2));

    /**
     * The ladder that ends a failed run or attempt: the whole tree is killed at once (the runtime needs
     * nothing more from it), then at most 1 s for the tree to be gone before the error is thrown.
     */
    public static final StopLadder KILL_LADDER = new StopLadder(Duration.ZERO, Duration.ZERO, Duration.ofSeconds(1));

    private static final Logger LOG = LoggerFactory.getLogger(EventLineRunner.class);

    private final StopLadder stopLadder;

    private EventLineRunner(Builder builder) {
        this.stopLadder = builder.stopLadder;
    }

    /** A runner with the defaults ({@link #DEFAULT_STOP_LADDER}). */
    public static EventLineRunner create() {
        return builder().build();
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** The ladder that stops a one-shot process tree once the exit grace has passed. */
    public StopLadder stopLadder() {
        return stopLadder;
    }

    /**
     * One-shot run with the default exit grace (the remaining timeout, at least 1 s).
     *
     * @see #runOnce(ProcessSpec, Duration, Duration)
     */
    public EventEnvelope<UnifiedEvent> runOnce(ProcessSpec spec, Duration timeout) {
        return runOnce(spec, timeout, null);
    }

    /**
     * One-shot run: spawns the process, closes its stdin, reads and normalises its first stdout line, then
     * waits for the process to exit for at most {@code exitGrace} and stops its process tree with the
     * {@linkplain #stopLadder() stop ladder}. The event is returned whether or not the process exited in
     * the grace. Either way its tree is stopped by the time this method returns: the process layer
     * reports an exit only after it killed the descendants that outlived the process, and a process still
     * running after the grace is stopped (tree included) before the return.
     *
     * @param spec      what to spawn
     * @param timeout   bounds the arrival of the first line; positive
     * @param exitGrace how long to wait for the exit after the line; {@code null} means the remaining
     *                  timeout, at least 1 s; zero stops the process at once
     * @return the normalised first event
     * @throws EventLineException on any failure; the process tree is gone when it is thrown
     */
    public EventEnvelope<UnifiedEvent> runOnce(ProcessSpec spec, Duration timeout, Duration exitGrace) {
        Objects.requireNonNull(spec, "spec");
        requirePositive(timeout, "timeout");
        if (exitGrace != null && exitGrace.isNegative()) {
            throw new IllegalArgumentException("exitGrace must not be negative: " + exitGrace);
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        Started started = start(spec, timeout, deadline, exitGrace);
        ModuleProcess process = started.process;
        boolean exited = false;
        try {
            exited = awaitExit(process, exitGrace != null ? exitGrace : defaultGrace(deadline)) != null;
        } finally {
            // An exit is reported only after the process layer reclaimed what was left of the tree.
            if (!exited) {
                LOG.debug("module '{}': pid {} still running after the exit grace, stopping it", spec.moduleId(),
                        process.pid());
                process.stop(stopLadder);
            }
        }
        return started.event;
    }

    /**
     * One startup attempt: like {@link #runOnce} but the process is kept after its first line. The caller
     * owns the returned child and must stop it.
     *
     * @param spec    what to spawn
     * @param timeout bounds the arrival of the first line; positive
     * @return the first event and the live process
     * @throws EventLineException on any failure; the process tree is gone when it is thrown
     */
    public EventLineChild startAttempt(ProcessSpec spec, Duration timeout) {
        Objects.requireNonNull(spec, "spec");
        requirePositive(timeout, "timeout");
        long deadline = System.nanoTime() + timeout.toNanos();
        Started started = start(spec, timeout, deadline, null);
        return new EventLineChild(started.process, started.event);
    }

    private record Started(ModuleProcess process, EventEnvelope<UnifiedEvent> event) {
    }

    /** Spawns and waits for the first event; on failure the process tree is stopped before the throw. */
    private Started start(ProcessSpec spec, Duration timeout, long deadline, Duration exitGrace) {
        String moduleId = spec.moduleId();
        FirstLine first = new FirstLine();
        ModuleProcess process;
        try {
            process = ModuleProcess.start(spec, first);
        } catch (ProcessBoundaryException e) {
            throw new EventLineException(moduleId, new EventLineError.Process(e.error()), OptionalInt.empty(),
                    "", e);
        }
        boolean started = false;
        try {
            process.closeStdin();
            Outcome outcome;
            try {
                outcome = first.await(deadline);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw fail(process, new ProcessBoundaryError.Io("interrupted while waiting for the first line"), e);
            }
            if (outcome == null) {
                throw fail(process, new ProcessBoundaryError.Timeout(timeout.toMillis()), null);
            }
            if (outcome instanceof Outcome.Line) {
                String line = ((Outcome.Line) outcome).line();
                EventEnvelope<UnifiedEvent> event;
                try {
                    event = EventNormalizer.normalize(line);
                } catch (NormalizationException e) {
                    throw fail(process, new EventLineError.Normalize(e.error()), e);
                }
                LOG.debug("module '{}': first event {} from pid {}", moduleId, event.eventId(), process.pid());
                started = true;
                return new Started(process, event);
            }
            if (outcome instanceof Outcome.TooLong) {
                int limit = ((Outcome.TooLong) outcome).limit();
                throw fail(process, new ProcessBoundaryError.LineTooLong(limit), null);
            }
            if (outcome instanceof Outcome.ReadFailed) {
                Exception cause = ((Outcome.ReadFailed) outcome).cause();
                String reason = cause.getMessage() != null ? cause.getMessage() : cause.getClass().getName();
                throw fail(process, new ProcessBoundaryError.Io("reading stdout failed: " + reason), cause);
            }
            throw emptyOutput(process, exitGrace != null ? exitGrace : defaultGrace(deadline));
        } finally {
            if (!started) {
                process.stop(KILL_LADDER);
            }
        }
    }

    /** Stdout closed without a byte: wait (bounded) for the exit so the message can carry its exit code. */
    private EventLineException emptyOutput(ModuleProcess process, Duration grace) {
        ProcessExit exit = awaitExit(process, grace);
        OptionalInt exitCode = exit != null && !exit.requestedByRuntime()
                ? OptionalInt.of(exit.exitCode()) : OptionalInt.empty();
        String stderrTail = exit != null ? exit.stderrTail() : process.stderrTail();
        return new EventLineException(process.moduleId(),
                new EventLineError.Process(new ProcessBoundaryError.EmptyOutput()), exitCode, stderrTail, null);
    }

    private EventLineException fail(ModuleProcess process, ProcessBoundaryError error, Throwable cause) {
        return fail(process, new EventLineError.Process(error), cause);
    }

    /** Kills the tree now (the failure needs nothing more from it) and describes the failure. */
    private EventLineException fail(ModuleProcess process, EventLineError error, Throwable cause) {
        ProcessExit exitedBefore = process.exitFuture().getNow(null);
        process.stop(KILL_LADDER);
        OptionalInt exitCode = exitedBefore != null && !exitedBefore.requestedByRuntime()
                ? OptionalInt.of(exitedBefore.exitCode()) : OptionalInt.empty();
        String stderrTail = exitedBefore != null ? exitedBefore.stderrTail() : process.stderrTail();
        return new EventLineException(process.moduleId(), error, exitCode, stderrTail, cause);
    }

    /** Waits for the exit for at most {@code grace}; {@code null} when the process is still running. */
    private static ProcessExit awaitExit(ModuleProcess process, Duration grace) {
        try {
            return process.exitFuture().get(grace.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (ExecutionException e) {
            return null;
        }
    }

    private static Duration defaultGrace(long deadline) {
        long remaining = deadline - System.nanoTime();
        return remaining > MIN_DEFAULT_EXIT_GRACE.toNanos() ? Duration.ofNanos(remaining) : MIN_DEFAULT_EXIT_GRACE;
    }

    private static void requirePositive(Duration d, String name) {
        Objects.requireNonNull(d, name);
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(name + " must be positive: " + d);
        }
    }

    /** Builds an {@link EventLineRunner}. Not thread-safe; the runner it builds is. */
    public static final class Builder {
        private StopLadder stopLadder = DEFAULT_STOP_LADDER;

        private Builder() {
        }

        /**
         * The ladder that stops a one-shot process tree once the exit grace has passed (default
         * {@link #DEFAULT_STOP_LADDER}). Failed runs and attempts are always killed at once
         * ({@link #KILL_LADDER}).
         */
        public Builder stopLadder(StopLadder stopLadder) {
            this.stopLadder = Objects.requireNonNull(stopLadder, "stopLadder");
            return this;
        }

        /** The runner. */
        public EventLineRunner build() {
            return new EventLineRunner(this);
        }
    }
}
