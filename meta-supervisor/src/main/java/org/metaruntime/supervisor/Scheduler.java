package org.metaruntime.supervisor;

import java.time.Duration;
import org.metaruntime.supervisor.internal.ExecutorScheduler;

/**
 * Runs a task after a delay: the module supervisor schedules restarts with it. Inject a manual implementation in
 * tests so backoff is tested without sleeping.
 *
 * <p>Implementations must be thread-safe. A scheduled task runs on the scheduler's thread; the module supervisor
 * runs its restart attempt there.
 *
 * <pre>{@code
 * try (Scheduler scheduler = Scheduler.daemon()) {
 *     Scheduler.Cancellable pending = scheduler.schedule(() -> restart(), Duration.ofMillis(100));
 *     pending.cancel();
 * }
 * }</pre>
 */
public interface Scheduler extends AutoCloseable {

    /**
     * Runs {@code task} once after {@code delay} (zero: as soon as possible).
     *
     * @throws java.util.concurrent.RejectedExecutionException when the scheduler is closed
     */
    Cancellable schedule(Runnable task, Duration delay);

    /**
     * The scheduler's monotonic clock in nanoseconds, in the manner of {@link System#nanoTime()} (only differences
     * mean anything): the time its delays run on, which code that schedules on it reads to measure elapsed time and
     * deadlines, so that a test's manual scheduler drives both. {@link System#nanoTime()} by default.
     */
    default long nanoTime() {
        return System.nanoTime();
    }

    /** Releases the scheduler's threads; pending tasks do not run. Does nothing by default. */
    @Override
    default void close() {
    }

    /** A new scheduler on one daemon thread named {@code meta-supervisor-scheduler}; close it when done. */
    static Scheduler daemon() {
        return ExecutorScheduler.daemon();
    }

    /**
     * The library's one timer thread, {@code meta-supervisor-timer}, which exists only while it is needed (it ends a
     * few seconds after its last task), so it never needs closing and {@link #close()} does nothing. Its tasks must
     * be short and must never block: they share the thread with every child's stop ladder and every MCP session's
     * deadlines.
     */
    static Scheduler shared() {
        return ExecutorScheduler.SHARED;
    }

    /** A scheduled task that can still be cancelled. */
    @FunctionalInterface
    interface Cancellable {
        /**
         * Cancels the task if it has not started.
         *
         * @return whether the task was cancelled
         */
        boolean cancel();
    }
}
