package org.metaruntime.mcp.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import org.metaruntime.supervisor.Scheduler;

/**
 * Expires a window's timed requests at their deadlines with one task on the shared timer, armed for the earliest
 * deadline it knows of. A request answered in time costs no timer work: nothing is scheduled or cancelled for it,
 * so the timer thread wakes once per earliest deadline rather than once per request. When the task runs it expires
 * what is due, earliest deadline first, forgets what has finished, and arms itself again for the earliest deadline
 * left. Thread-safe.
 */
final class Deadlines {

    private final Scheduler timer;
    private final Set<Request> watched = ConcurrentHashMap.newKeySet();
    private Scheduler.Cancellable task; // guarded by this
    private long armedFor; // the deadline task runs at, on the timer's clock; guarded by this
    private boolean closed; // guarded by this

    /** Deadlines read on {@code timer}'s {@link Scheduler#nanoTime() clock}, enforced by tasks on it. */
    Deadlines(Scheduler timer) {
        this.timer = timer;
    }

    /** Expires {@code r} at its {@link Request#deadline()} unless it finishes first; again after a later deadline. */
    void watch(Request r) {
        watched.add(r);
        if (!armFor(r.deadline())) {
            watched.remove(r);
            r.expire(); // the timer refused it
        }
    }

    /** {@code r} finished: it is no longer watched. */
    void forget(Request r) {
        watched.remove(r);
    }

    /**
     * The window ended: the task is cancelled, so that nothing of this window is left on the shared timer; a request
     * watched from now on is not armed (the window fails it with the reason it ended). Idempotent.
     */
    synchronized void close() {
        closed = true;
        if (task != null) {
            task.cancel();
            task = null;
        }
    }

    /** Makes sure the task runs no later than {@code deadline}; false when the timer refuses it. */
    private synchronized boolean armFor(long deadline) {
        if (closed) {
            return true; // nothing to arm: the window's end settles every request
        }
        if (task != null && deadline - armedFor >= 0) {
            return true;
        }
        if (task != null) {
            task.cancel();
        }
        armedFor = deadline;
        try {
            task = timer.schedule(this::run, Duration.ofNanos(Math.max(0, deadline - timer.nanoTime())));
            return true;
        } catch (RejectedExecutionException e) {
            task = null;
            return false;
        }
    }

    private void run() {
        synchronized (this) {
            task = null;
        }
        long now = timer.nanoTime();
        List<Request> due = new ArrayList<>();
        Request earliest = null;
        for (Request r : watched) {
            if (r.isFinished()) {
                watched.remove(r);
            } else if (r.deadline() - now <= 0) {
                watched.remove(r);
                due.add(r);
            } else if (earliest == null || r.deadline() - earliest.deadline() < 0) {
                earliest = r;
            }
        }
        due.sort((a, b) -> Long.signum(a.deadline() - b.deadline())); // the earliest first, as they fell due
        for (Request r : due) {
            r.expire();
        }
        if (earliest != null && !armFor(earliest.deadline())) {
            for (Request r : watched) {
                watched.remove(r);
                r.expire();
            }
        }
    }
}
