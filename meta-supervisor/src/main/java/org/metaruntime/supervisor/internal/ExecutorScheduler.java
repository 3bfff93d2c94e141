package org.metaruntime.supervisor.internal;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.metaruntime.supervisor.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Scheduler} on a {@link ScheduledExecutorService}: {@link #daemon()} on a thread of its own, which
 * {@link #close()} ends (pending tasks are cancelled, a running one is interrupted); {@link #SHARED} on the library's
 * one timer ({@link SharedTimer}), which closing leaves alone. A task that throws is logged. Thread-safe.
 */
public final class ExecutorScheduler implements Scheduler {

    /** {@link Scheduler#shared()}: the library's one timer thread ({@code meta-supervisor-timer}). */
    public static final ExecutorScheduler SHARED = new ExecutorScheduler(SharedTimer.timer(), false);

    private static final Logger LOG = LoggerFactory.getLogger(Scheduler.class);

    private final ScheduledExecutorService executor;
    private final boolean owned;

    private ExecutorScheduler(ScheduledExecutorService executor, boolean owned) {
        this.executor = executor;
        this.owned = owned;
    }

    /**
     * {@link Scheduler#daemon()}: one daemon thread named {@code meta-supervisor-scheduler}, created with the first
     * scheduled task and ended by {@link #close()}.
     */
    public static ExecutorScheduler daemon() {
        ScheduledThreadPoolExecutor executor = DaemonThreads.timer("meta-supervisor-scheduler");
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        return new ExecutorScheduler(executor, true);
    }

    @Override
    public Cancellable schedule(Runnable task, Duration delay) {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(delay, "delay");
        long nanos;
        try {
            nanos = Math.max(0L, delay.toNanos());
        } catch (ArithmeticException tooLong) {
            nanos = Long.MAX_VALUE;
        }
        ScheduledFuture<?> future = executor.schedule(() -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.error("a scheduled task threw", e);
            }
        }, nanos, TimeUnit.NANOSECONDS);
        return () -> future.cancel(false);
    }

    @Override
    public void close() {
        if (owned) {
            executor.shutdownNow();
        }
    }
}
