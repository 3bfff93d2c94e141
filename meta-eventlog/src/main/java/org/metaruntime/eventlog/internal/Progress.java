package org.metaruntime.eventlog.internal;

/**
 * What the writer has committed so far, for {@code flush} and for tails waiting for new rows. Thread-safe:
 * one monitor.
 */
public final class Progress {

    private long done;
    private long commits;
    private boolean stopped;

    /** The writer finished {@code items} more queue items (committed or, at a failed close, given up). */
    public synchronized void advance(long items, boolean committed) {
        done += items;
        if (committed) {
            commits++;
        }
        notifyAll();
    }

    /** The writer stopped; wakes every waiter. */
    public synchronized void stop() {
        stopped = true;
        notifyAll();
    }

    /** Wakes every waiter (a tail being closed). */
    public synchronized void wakeAll() {
        notifyAll();
    }

    /** How many commits so far. */
    public synchronized long commits() {
        return commits;
    }

    /** Waits until {@code target} items are done; false on timeout or when the writer stopped short. */
    public synchronized boolean awaitDone(long target, long timeoutNanos) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutNanos;
        while (done < target) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || stopped) {
                return done >= target;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return true;
    }

    /** Waits up to {@code timeoutMillis} for a commit after the {@code seen}-th. */
    public synchronized void awaitCommitAfter(long seen, long timeoutMillis) throws InterruptedException {
        if (commits == seen && !stopped) {
            wait(timeoutMillis);
        }
    }
}
