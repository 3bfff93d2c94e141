package org.metaruntime.gateway.internal.serve;

import java.time.Duration;
import java.util.function.BiFunction;
import org.metaruntime.supervisor.Scheduler;

/**
 * The one pending deadline of a bridged call, on the gateway's scheduler: arming it again or cancelling it drops the
 * task armed before, even one that already fell due and waits for the call's lock. Guarded by the lock it is given.
 */
final class CallTimer {

    private final Object lock;
    private final BiFunction<Runnable, Duration, Scheduler.Cancellable> scheduler;
    private long generation; // guarded by lock
    private Scheduler.Cancellable task; // guarded by lock

    /**
     * @param lock      the lock its owner holds when it arms or cancels it; the action runs after taking it
     * @param scheduler schedules a task after a delay
     */
    CallTimer(Object lock, BiFunction<Runnable, Duration, Scheduler.Cancellable> scheduler) {
        this.lock = lock;
        this.scheduler = scheduler;
    }

    /** Runs {@code action} (without the lock) after {@code delay} unless armed again or cancelled first. Under the lock. */
    void arm(Duration delay, Runnable action) {
        cancel();
        long armed = generation;
        task = scheduler.apply(() -> {
            synchronized (lock) {
                if (armed != generation) {
                    return;
                }
                task = null;
            }
            action.run();
        }, delay);
    }

    /** Drops the pending task, if any. Under the lock. */
    void cancel() {
        generation++;
        if (task != null) {
            task.cancel();
            task = null;
        }
    }
}
