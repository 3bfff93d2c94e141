package org.metaruntime.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.metaruntime.supervisor.Scheduler;

/** A scheduler that runs its tasks only when the test says so. */
final class ManualScheduler implements Scheduler {

    private final List<Runnable> tasks = new ArrayList<>();
    private final List<Duration> delays = new ArrayList<>();

    @Override
    public synchronized Cancellable schedule(Runnable task, Duration delay) {
        tasks.add(task);
        delays.add(delay);
        return () -> {
            synchronized (this) {
                return tasks.remove(task);
            }
        };
    }

    synchronized List<Duration> delays() {
        return List.copyOf(delays);
    }

    synchronized int pending() {
        return tasks.size();
    }

    /** Runs the pending tasks (not the ones they schedule). */
    void runPending() {
        List<Runnable> due;
        synchronized (this) {
            due = new ArrayList<>(tasks);
            tasks.clear();
        }
        due.forEach(Runnable::run);
    }
}
