package org.metaruntime.eventline;

import java.time.Duration;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.concurrent.ExecutionException;
import java.util.function.LongSupplier;
import org.metaruntime.eventline.internal.FirstEventWait;
import org.metaruntime.eventline.internal.FirstLine;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.supervisor.Deadline;
import org.metaruntime.supervisor.ModuleProcess;
import org.metaruntime.supervisor.ProcessBoundaryError;
import org.metaruntime.supervisor.ProcessBoundaryException;
import org.metaruntime.supervisor.ProcessSpec;
import org.metaruntime.supervisor.Scheduler;
import org.metaruntime.supervisor.StopLadder;
import org.metaruntime.supervisor.internal.Failures;
import org.metaruntime.supervisor.internal.OptionChecks;

/**
 * The event-line boundary: spawns a module's process, closes its stdin at once, reads its first stdout
 * line within a timeout and normalises it into an event envelope.
 *
 * <ul>
 *   <li>{@link #call} starts the one-shot run of a routed call and returns a handle at once
 *       ({@link EventLineCall}: its result, and cancel). After the line it waits for the process to exit for at
 *       most the exit grace (default {@link #DEFAULT_EXIT_GRACE}), then stops its process tree; the event is
 *       the result either way. {@link #runOnce} is the same call, waited for on the calling thread.</li>
 *   <li>{@link #startAttempt} is one attempt of the startup state machine: the process is kept after its
 *       first line and handed back as an {@link EventLineChild} to supervise and stop.</li>
 * </ul>
 *
 * <p>Every failure is an {@link EventLineException} whose {@link EventLineError} is either
 * {@code Process(ProcessBoundaryError)} (spawn failure, read failure, timeout, empty output, over-long line,
 * cancellation) or {@code Normalize(NormalizationError)} (the line is not a valid event); a failed run or
 * attempt leaves no process behind. A line that arrives after the deadline is a timeout. A timeout longer than
 * {@link Deadline#MAX_TIMEOUT} (100 years) is clamped to it. No thread waits for a call: the timeouts run on
 * the runner's {@link Scheduler} (by default the process layer's timer), the rest on the process layer's
 * threads.
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

    /**
     * The default exit grace of a one-shot run: how long it waits, after the first line, for the process to exit
     * on its own before it stops the tree. A module that prints its event and stays alive costs a call this much.
     */
    public static final Duration DEFAULT_EXIT_GRACE = Duration.ofMillis(500);

    /**
     * How long a startup attempt whose process closed stdout without a line waits for its exit code, and the
     * bound of that wait in a one-shot run.
     */
    public static final Duration EMPTY_OUTPUT_GRACE = Duration.ofSeconds(1);

    /**
     * The default ladder that stops a one-shot process tree once the exit grace has passed: stdin is
     * already closed, so SIGTERM at once, 1 s to exit, then SIGKILL and at most 2 s for the tree to go.
     */
    public static final StopLadder DEFAULT_STOP_LADDER =
            new StopLadder(Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(2));

    /**
     * The ladder that ends a failed or cancelled run or attempt: the whole tree is killed at once (the runtime
     * needs nothing more from it), then at most 1 s for the tree to be gone before the error is reported.
     */
    public static final StopLadder KILL_LADDER = FirstEventWait.KILL_LADDER;

    private final StopLadder stopLadder;
    private final Scheduler scheduler;
    private final LongSupplier ticker;

    private EventLineRunner(Builder builder) {
        this.stopLadder = builder.stopLadder;
        this.scheduler = builder.scheduler;
        this.ticker = builder.ticker;
    }

    /** A runner with the defaults ({@link #DEFAULT_STOP_LADDER}, {@link Scheduler#shared()}). */
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
     * Starts a one-shot run and returns its handle at once; a spawn failure is the handle's failed result.
     *
     * @param spec      what to spawn
     * @param timeout   bounds the arrival of the first line; positive; clamped to {@link Deadline#MAX_TIMEOUT}
     * @param exitGrace how long to wait for the exit after the line; {@code null} means
     *                  {@link #DEFAULT_EXIT_GRACE}; zero stops the process at once
     * @throws org.metaruntime.supervisor.InvalidOptionException (field {@code exitGrace}) when the exit grace is
     *                  negative
     */
    public EventLineCall call(ProcessSpec spec, Duration timeout, Duration exitGrace) {
        Objects.requireNonNull(spec, "spec");
        Deadline deadline = Deadline.after(timeout, ticker);
        Duration grace = Deadline.clamp(
                exitGrace != null ? OptionChecks.nonNegative(exitGrace, "exitGrace") : DEFAULT_EXIT_GRACE);
        FirstLine first = new FirstLine();
        ModuleProcess process;
        try {
            process = ModuleProcess.start(spec, first);
        } catch (ProcessBoundaryException e) {
            return new EventLineCall(spec.moduleId(), spawnFailed(spec, e));
        }
        process.closeStdin();
        FirstEventWait wait = new FirstEventWait(process, first, deadline, scheduler, EMPTY_OUTPUT_GRACE).start();
        return new EventLineCall(process, wait, grace, stopLadder, scheduler);
    }

    /** One-shot run with the default exit grace, waited for on the calling thread. */
    public EventEnvelope<UnifiedEvent> runOnce(ProcessSpec spec, Duration timeout) {
        return runOnce(spec, timeout, null);
    }

    /**
     * One-shot run ({@link #call}) waited for on the calling thread: the event is returned whether or not the
     * process exited in the grace, and its tree is gone by the time this method returns. An interrupt of the
     * calling thread cancels the run ({@code Process(Cancelled)}); the interrupt flag stays set.
     *
     * @throws EventLineException on any failure; the process tree is gone when it is thrown
     */
    public EventEnvelope<UnifiedEvent> runOnce(ProcessSpec spec, Duration timeout, Duration exitGrace) {
        return call(spec, timeout, exitGrace).await();
    }

    /**
     * One startup attempt: like {@link #runOnce} but the process is kept after its first line. The caller
     * owns the returned child and must stop it. An interrupt of the calling thread ends the attempt with
     * {@code Process(Cancelled)}; the interrupt flag stays set.
     *
     * @param spec    what to spawn
     * @param timeout bounds the arrival of the first line; positive; clamped to {@link Deadline#MAX_TIMEOUT}
     * @return the first event and the live process
     * @throws EventLineException on any failure; the process tree is gone when it is thrown
     */
    public EventLineChild startAttempt(ProcessSpec spec, Duration timeout) {
        Objects.requireNonNull(spec, "spec");
        Deadline deadline = Deadline.after(timeout, ticker);
        FirstLine first = new FirstLine();
        ModuleProcess process;
        try {
            process = ModuleProcess.start(spec, first);
        } catch (ProcessBoundaryException e) {
            throw spawnFailed(spec, e);
        }
        process.closeStdin();
        FirstEventWait wait = new FirstEventWait(process, first, deadline, scheduler, EMPTY_OUTPUT_GRACE).start();
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return new EventLineChild(process, wait.event().get());
                } catch (InterruptedException e) {
                    interrupted = true;
                    wait.cancel();
                } catch (ExecutionException e) {
                    throw (EventLineException) Failures.unwrap(e);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static EventLineException spawnFailed(ProcessSpec spec, ProcessBoundaryException e) {
        return new EventLineException(spec.moduleId(), new EventLineError.Process(e.error()), OptionalInt.empty(),
                "", e);
    }

    /** Builds an {@link EventLineRunner}. Not thread-safe; the runner it builds is. */
    public static final class Builder {
        private StopLadder stopLadder = DEFAULT_STOP_LADDER;
        private Scheduler scheduler = Scheduler.shared();
        private LongSupplier ticker = System::nanoTime;

        private Builder() {
        }

        /**
         * The ladder that stops a one-shot process tree once the exit grace has passed (default
         * {@link #DEFAULT_STOP_LADDER}). Failed and cancelled runs and attempts are always killed at once
         * ({@link #KILL_LADDER}).
         */
        public Builder stopLadder(StopLadder stopLadder) {
            this.stopLadder = Objects.requireNonNull(stopLadder, "stopLadder");
            return this;
        }

        /**
         * Where the timeouts and exit graces run (default {@link Scheduler#shared()}: the process layer's timer,
         * whose thread exists only while something is pending). The caller owns a scheduler it passes and must
         * keep it open while runs are in progress.
         */
        public Builder scheduler(Scheduler scheduler) {
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
            return this;
        }

        /**
         * The monotonic nanosecond clock deadlines are measured on (default {@link System#nanoTime()}); the
         * {@linkplain #scheduler(Scheduler) scheduler} fires them, this clock decides whether a line that arrives
         * came in time.
         */
        public Builder ticker(LongSupplier ticker) {
            this.ticker = Objects.requireNonNull(ticker, "ticker");
            return this;
        }

        /** The runner. */
        public EventLineRunner build() {
            return new EventLineRunner(this);
        }
    }
}
