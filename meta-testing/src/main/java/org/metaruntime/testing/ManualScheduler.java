package org.metaruntime.testing;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A scheduler driven by hand on a {@link ManualClock}: tasks run on the test's thread when {@link #advance} moves
 * the clock past their due time, or all at once with {@link #runPending()}. It records every requested delay.
 * It depends on no module of the project; adapt it to a module's scheduler interface with a lambda:
 *
 * <pre>{@code
 * ManualScheduler manual = new ManualScheduler(clock);
 * Scheduler scheduler = (task, delay) -> manual.schedule(task, delay)::cancel;
 * ...
 * manual.advance(Duration.ofMillis(500));   // runs what is due by then
 * }</pre>
 *
 * Thread-safe; tasks never run while its lock is held.
 */
public final class ManualScheduler {

    /** A scheduled task. */
    public interface Scheduled {
        /** Removes the task if it has not run; returns whether it was removed. */
        boolean cancel();
    }

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

    /** Schedules {@code task} to run once {@code delay} from the clock's now. */
    public synchronized Scheduled schedule(Runnable task, Duration delay) {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(delay, "delay");
        requestedDelays.add(delay);
        Task scheduled = new Task(clock.instant().plus(delay), sequence++, task);
        tasks.add(scheduled);
        return () -> {
            synchronized (this) {
                return tasks.remove(scheduled);
            }
        };
    }

    /** Moves the clock forward by {@code duration}, running each task as its due time is reached, in order. */
    public void advance(Duration duration) {
        Instant end = clock.instant().plus(duration);
        while (true) {
            Task next;
            synchronized (this) {
                Optional<Task> due = tasks.stream().filter(task -> !task.due.isAfter(end))
                        .min(Comparator.comparing((Task task) -> task.due).thenComparingLong(task -> task.sequence));
                if (due.isEmpty()) {
                    break;
                }
                next = due.get();
                tasks.remove(next);
            }
            Duration untilDue = Duration.between(clock.instant(), next.due);
            if (!untilDue.isNegative()) {
                clock.advance(untilDue);
            }
            next.runnable.run();
        }
        Duration rest = Duration.between(clock.instant(), end);
        if (!rest.isNegative()) {
            clock.advance(rest);
        }
    }

    /** Runs every task pending now, whatever its due time, in order (not the tasks they schedule). */
    public void runPending() {
        List<Task> due;
        synchronized (this) {
            due = new ArrayList<>(tasks);
            tasks.clear();
        }
        due.sort(Comparator.comparingLong(task -> task.sequence));
        due.forEach(task -> task.runnable.run());
    }

    /** How many tasks wait. */
    public synchronized int pendingCount() {
        return tasks.size();
    }

    /** The time until each pending task is due, in the order they were scheduled. */
    public synchronized List<Duration> pendingDelays() {
        Instant now = clock.instant();
        return tasks.stream().sorted(Comparator.comparingLong(task -> task.sequence))
                .map(task -> Duration.between(now, task.due)).toList();
    }

    /** The delay of the only pending task. */
    public synchronized Duration pendingDelay() {
        if (tasks.size() != 1) {
            throw new AssertionError("expected one pending task, found " + tasks.size());
        }
        return Duration.between(clock.instant(), tasks.get(0).due);
    }

    /** Every delay ever requested, in order. */
    public synchronized List<Duration> requestedDelays() {
        return List.copyOf(requestedDelays);
    }

    private record Task(Instant due, long sequence, Runnable runnable) {
    }
}
