package org.metaruntime.eventline;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.metaruntime.supervisor.Scheduler;

/**
 * A {@link Scheduler} driven by hand, with its own nanosecond clock ({@link #nanoTime()}, a ticker for deadlines):
 * tasks run on the test's thread when {@link #advance} moves the clock past their due time.
 */
final class ManualScheduler implements Scheduler {

    private final List<Task> tasks = new ArrayList<>();
    private long now;
    private long sequence;

    /** The clock, in nanoseconds. */
    synchronized long nanoTime() {
        return now;
    }

    @Override
    public synchronized Cancellable schedule(Runnable task, Duration delay) {
        Objects.requireNonNull(task, "task");
        Task scheduled = new Task(now + delay.toNanos(), sequence++, task);
        tasks.add(scheduled);
        return () -> {
            synchronized (this) {
                return tasks.remove(scheduled);
            }
        };
    }

    /** Moves the clock forward by {@code duration}, running each task as its due time is reached. */
    void advance(Duration duration) {
        long end;
        synchronized (this) {
            end = now + duration.toNanos();
        }
        while (true) {
            Task next;
            synchronized (this) {
                Optional<Task> due = tasks.stream().filter(task -> task.due <= end)
                        .min(Comparator.comparingLong((Task task) -> task.due).thenComparingLong(task -> task.sequence));
                if (due.isEmpty()) {
                    now = end;
                    return;
                }
                next = due.get();
                tasks.remove(next);
                now = Math.max(now, next.due);
            }
            next.runnable.run();
        }
    }

    /** The time until each pending task is due, in the order they were scheduled. */
    synchronized List<Duration> pendingDelays() {
        return tasks.stream().map(task -> Duration.ofNanos(task.due - now)).toList();
    }

    /** How many tasks wait. */
    synchronized int pendingCount() {
        return tasks.size();
    }

    private record Task(long due, long sequence, Runnable runnable) {
    }
}
