package org.metaruntime.supervisor;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link Scheduler} driven by hand: tasks run on the test's thread when {@link #advance} moves the
 * {@link ManualClock} past their due time. Records every requested delay.
 */
final class ManualScheduler implements Scheduler {

    private final ManualClock clock;
    private final List<Task> tasks = new ArrayList<>();
    private final List<Duration> requestedDelays = new ArrayList<>();
    private long sequence;

    ManualScheduler(ManualClock clock) {
        this.clock = clock;
    }

    @Override
    public synchronized Cancellable schedule(Runnable task, Duration delay) {
        Objects.requireNonNull(task, "task");
        requestedDelays.add(delay);
        Task scheduled = new Task(clock.instant().plus(delay), sequence++, task);
        tasks.add(scheduled);
        return () -> {
            synchronized (this) {
                return tasks.remove(scheduled);
            }
        };
    }

    /** Moves the clock forward by {@code duration}, running each task as its due time is reached. */
    void advance(Duration duration) {
        Instant end = clock.instant().plus(duration);
        while (true) {
            Task next;
            synchronized (this) {
                Optional<Task> due = tasks.stream()
                        .filter(task -> !task.due.isAfter(end))
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

    synchronized int pendingCount() {
        return tasks.size();
    }

    /** The delay of the only pending task. */
    synchronized Duration pendingDelay() {
        if (tasks.size() != 1) {
            throw new AssertionError("expected one pending task, found " + tasks.size());
        }
        return Duration.between(clock.instant(), tasks.get(0).due);
    }

    synchronized List<Duration> requestedDelays() {
        return List.copyOf(requestedDelays);
    }

    private static final class Task {
        final Instant due;
        final long sequence;
        final Runnable runnable;

        Task(Instant due, long sequence, Runnable runnable) {
            this.due = due;
            this.sequence = sequence;
            this.runnable = runnable;
        }
    }
}
