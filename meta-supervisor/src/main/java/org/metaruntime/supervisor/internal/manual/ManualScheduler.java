package org.metaruntime.supervisor.internal.manual;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.metaruntime.supervisor.Scheduler;

/**
 * A {@link Scheduler} driven by hand on a {@link ManualClock}: tasks never run on their own; {@link #advance} moves
 * the clock and runs each task as its due time is reached, and {@link #runPending()} runs what waits now. It
 * records every requested delay.
 *
 * <pre>{@code
 * ManualScheduler scheduler = new ManualScheduler();
 * supervisor = new ModuleSupervisor(..., scheduler, ...);
 * assertThat(scheduler.pendingDelay()).isEqualTo(Duration.ofMillis(100));
 * scheduler.advance(Duration.ofMillis(100));        // the restart runs here, on this thread
 * }</pre>
 *
 * <p>Thread-safe; tasks run on the thread that calls {@link #advance} or {@link #runPending()}, never while the
 * scheduler's lock is held.
 */
public final class ManualScheduler implements Scheduler {

    private static final Comparator<Task> ORDER = Comparator.comparing(Task::due).thenComparingLong(Task::sequence);

    private final ManualClock clock;
    private final List<Task> tasks = new ArrayList<>();
    private final List<Duration> requestedDelays = new ArrayList<>();
    private long sequence;

    /** A scheduler on {@code clock}. */
    public ManualScheduler(ManualClock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** A scheduler on a new {@link ManualClock}. */
    public ManualScheduler() {
        this(new ManualClock());
    }

    /** The clock it runs on. */
    public ManualClock clock() {
        return clock;
    }

    /** The clock's {@link ManualClock#nanoTime()}: nanoseconds advanced since the clock was made. */
    @Override
    public long nanoTime() {
        return clock.nanoTime();
    }

    /** Keeps {@code task} to run once the clock has moved {@code delay} from now (zero or less: at the next advance). */
    @Override
    public synchronized Cancellable schedule(Runnable task, Duration delay) {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(delay, "delay");
        requestedDelays.add(delay);
        Task scheduled = new Task(clock.instant().plus(delay.isNegative() ? Duration.ZERO : delay), sequence++, task);
        tasks.add(scheduled);
        return () -> {
            synchronized (this) {
                return tasks.remove(scheduled);
            }
        };
    }

    /**
     * Moves the clock forward by {@code duration}, running each task whose due time is reached, in due order (then
     * in the order they were scheduled), on the calling thread; tasks that those tasks schedule within the window run
     * too. The clock ends exactly {@code duration} later.
     *
     * @throws IllegalArgumentException when {@code duration} is negative
     */
    public void advance(Duration duration) {
        Objects.requireNonNull(duration, "duration");
        if (duration.isNegative()) {
            throw new IllegalArgumentException("a clock does not go back: " + duration);
        }
        Instant end = clock.instant().plus(duration);
        while (true) {
            Task next;
            synchronized (this) {
                next = tasks.stream().filter(task -> !task.due.isAfter(end)).min(ORDER).orElse(null);
                if (next == null) {
                    break;
                }
                tasks.remove(next);
            }
            Duration untilDue = Duration.between(clock.instant(), next.due);
            if (untilDue.compareTo(Duration.ZERO) > 0) {
                clock.advance(untilDue);
            }
            next.runnable.run();
        }
        Duration rest = Duration.between(clock.instant(), end);
        if (rest.compareTo(Duration.ZERO) > 0) {
            clock.advance(rest);
        }
    }

    /**
     * Runs every task pending now, whatever its due time, in due order, without moving the clock (not the tasks they
     * schedule).
     */
    public void runPending() {
        List<Task> due;
        synchronized (this) {
            due = new ArrayList<>(tasks);
            tasks.clear();
        }
        due.sort(ORDER);
        due.forEach(task -> task.runnable.run());
    }

    /** How many tasks wait. */
    public synchronized int pendingCount() {
        return tasks.size();
    }

    /** The time until each pending task is due (zero when overdue), in the order they were scheduled. */
    public synchronized List<Duration> pendingDelays() {
        Instant now = clock.instant();
        return tasks.stream().sorted(Comparator.comparingLong(Task::sequence))
                .map(task -> task.due.isBefore(now) ? Duration.ZERO : Duration.between(now, task.due)).toList();
    }

    /**
     * The delay of the only pending task.
     *
     * @throws AssertionError when not exactly one task waits
     */
    public synchronized Duration pendingDelay() {
        if (tasks.size() != 1) {
            throw new AssertionError("expected one pending task, found " + tasks.size());
        }
        return pendingDelays().get(0);
    }

    /** Every delay ever requested, in order, as requested. */
    public synchronized List<Duration> requestedDelays() {
        return List.copyOf(requestedDelays);
    }

    @Override
    public String toString() {
        return "ManualScheduler[" + clock.instant() + ", pending=" + pendingCount() + "]";
    }

    private record Task(Instant due, long sequence, Runnable runnable) {
    }
}
