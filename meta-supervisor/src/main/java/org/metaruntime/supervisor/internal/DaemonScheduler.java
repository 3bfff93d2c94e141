package org.metaruntime.supervisor.internal;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.metaruntime.supervisor.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The default {@link Scheduler}: one daemon thread named {@code meta-supervisor-scheduler}. A task that throws is
 * logged. {@link #close()} cancels pending tasks, interrupts a running one and ends the thread. Thread-safe.
 */
public final class DaemonScheduler implements Scheduler {

    private static final Logger LOG = LoggerFactory.getLogger(Scheduler.class);

    private final ScheduledThreadPoolExecutor executor;

    /** Starts nothing yet: the thread is created with the first scheduled task. */
    public DaemonScheduler() {
        executor = new ScheduledThreadPoolExecutor(1, DaemonThreads.named("meta-supervisor-scheduler"));
        executor.setRemoveOnCancelPolicy(true);
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
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
                LOG.error("a scheduled supervisor task threw", e);
            }
        }, nanos, TimeUnit.NANOSECONDS);
        return () -> future.cancel(false);
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
