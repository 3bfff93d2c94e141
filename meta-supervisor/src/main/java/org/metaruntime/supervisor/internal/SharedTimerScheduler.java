package org.metaruntime.supervisor.internal;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.metaruntime.supervisor.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link Scheduler#shared()}: the process layer's timer ({@code meta-supervisor-timer}, whose thread exists only
 * while tasks are pending). Closing it does nothing. Thread-safe.
 */
public final class SharedTimerScheduler implements Scheduler {

    /** The one instance. */
    public static final SharedTimerScheduler INSTANCE = new SharedTimerScheduler();

    private static final Logger LOG = LoggerFactory.getLogger(Scheduler.class);

    private SharedTimerScheduler() {
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
        ScheduledFuture<?> future = SharedTimer.timer().schedule(() -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.error("a scheduled task threw", e);
            }
        }, nanos, TimeUnit.NANOSECONDS);
        return () -> future.cancel(false);
    }
}
