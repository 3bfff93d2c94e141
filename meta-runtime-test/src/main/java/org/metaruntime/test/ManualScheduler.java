package org.metaruntime.test;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.metaruntime.supervisor.Scheduler;

/**
 * A {@link Scheduler} driven by hand on a {@link ManualClock}: tasks never run on their own; {@link #advance} moves
 * the clock and runs each task as its due time is reached, and {@link #runPending()} runs what waits now. With
 * {@code @MetaRuntimeTest(manualTime = true)} the runtime is built with one ({@code UnifiedRuntime.Builder.scheduler})
 * and a test method receives it as a parameter, so restart backoff is tested without sleeping.
 *
 * <pre>{@code
 * @Test
 * void restartsAfterTheBackoff(UnifiedRuntime runtime, ManualScheduler scheduler) {
 *     weather.crash(1, "boom");
 *     assertThat(scheduler.pendingDelays()).containsExactly(Duration.ofMillis(500));
 *     scheduler.advance(Duration.ofMillis(500));        // the restart runs here, on this thread
 * }
 * }</pre>
 *
 * <p>Thread-safe; tasks run on the thread that calls {@link #advance} or {@link #runPending()}, never while the
 * scheduler's lock is held.
 */
public final class ManualScheduler implements Scheduler {

    private final ManualClock clock;
    private final org.metaruntime.supervisor.internal.manual.ManualScheduler tasks;

    /** A scheduler on {@code clock}. */
    public ManualScheduler(ManualClock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.tasks = new org.metaruntime.supervisor.internal.manual.ManualScheduler(clock.time());
    }

    /** A scheduler on a new {@link ManualClock}. */
    public ManualScheduler() {
        this(new ManualClock());
    }

    /** The clock it runs on. */
    public ManualClock clock() {
        return clock;
    }

    /** Keeps {@code task} to run once the clock has moved {@code delay} from now (zero: at the next advance). */
    @Override
    public Cancellable schedule(Runnable task, Duration delay) {
        return tasks.schedule(task, delay);
    }

    /** The clock's monotonic reading: nanoseconds advanced since the clock was made. */
    @Override
    public long nanoTime() {
        return tasks.nanoTime();
    }

    /**
     * Moves the clock forward by {@code duration}, running each task whose due time is reached, in due order (then
     * in the order they were scheduled), on the calling thread; tasks that those tasks schedule within the window run
     * too. The clock ends exactly {@code duration} later.
     *
     * @throws IllegalArgumentException when {@code duration} is negative
     */
    public void advance(Duration duration) {
        tasks.advance(duration);
    }

    /** Runs every task pending now, whatever its due time, in due order, without moving the clock (not the tasks they schedule). */
    public void runPending() {
        tasks.runPending();
    }

    /** How many tasks wait. */
    public int pendingCount() {
        return tasks.pendingCount();
    }

    /** The time until each pending task is due (zero when overdue), in the order they were scheduled. */
    public List<Duration> pendingDelays() {
        return tasks.pendingDelays();
    }

    @Override
    public String toString() {
        return "ManualScheduler[" + clock.instant() + ", pending=" + pendingCount() + "]";
    }
}
