package org.metaruntime.gateway.internal.serve;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.LongSupplier;
import org.metaruntime.supervisor.Deadline;
import org.metaruntime.supervisor.Scheduler;

/**
 * A {@link Scheduler} for many short-lived deadlines that are mostly cancelled: it keeps them in a set and arms one
 * task of the scheduler beneath for the earliest it knows of. Scheduling a deadline later than the armed one, and
 * cancelling any, touch only the set: no task is scheduled or cancelled beneath, so the thread beneath is not woken
 * once per deadline. When the armed task runs it runs what is due, earliest first, and arms itself again for the
 * earliest left. Its tasks run on the thread beneath: they must be short and never block. Thread-safe.
 */
final class EarliestFirstScheduler implements Scheduler {

    private final Scheduler beneath;
    private final LongSupplier ticker;
    private final Set<Entry> pending = ConcurrentHashMap.newKeySet();
    private Scheduler.Cancellable task; // guarded by this
    private long armedFor; // guarded by this

    private static final class Entry {
        final long due;
        final Runnable action;

        Entry(long due, Runnable action) {
            this.due = due;
            this.action = action;
        }
    }

    /**
     * @param beneath the scheduler whose thread runs the tasks
     * @param ticker  the time, in nanoseconds ({@link System#nanoTime()}; a test's own clock)
     */
    EarliestFirstScheduler(Scheduler beneath, LongSupplier ticker) {
        this.beneath = beneath;
        this.ticker = ticker;
    }

    @Override
    public Cancellable schedule(Runnable action, Duration delay) {
        Entry entry = new Entry(ticker.getAsLong() + Deadline.clamp(delay).toNanos(), action);
        pending.add(entry);
        armFor(entry.due);
        return () -> pending.remove(entry);
    }

    /** Makes sure the task beneath runs no later than {@code due}. */
    private synchronized void armFor(long due) {
        if (task != null && due - armedFor >= 0) {
            return;
        }
        if (task != null) {
            task.cancel();
        }
        armedFor = due;
        try {
            task = beneath.schedule(this::run, Duration.ofNanos(Math.max(0, due - ticker.getAsLong())));
        } catch (RejectedExecutionException e) {
            task = null;
            throw e;
        }
    }

    private void run() {
        synchronized (this) {
            task = null;
        }
        long now = ticker.getAsLong();
        List<Entry> due = new ArrayList<>();
        Entry earliest = null;
        for (Entry entry : pending) {
            if (entry.due - now <= 0) {
                if (pending.remove(entry)) {
                    due.add(entry);
                }
            } else if (earliest == null || entry.due - earliest.due < 0) {
                earliest = entry;
            }
        }
        due.sort(Comparator.comparingLong(e -> e.due - now));
        for (Entry entry : due) {
            entry.action.run();
        }
        if (earliest != null) {
            try {
                armFor(earliest.due);
            } catch (RejectedExecutionException e) {
                pending.clear(); // the scheduler beneath is closed: the gateway stops
            }
        }
    }
}
