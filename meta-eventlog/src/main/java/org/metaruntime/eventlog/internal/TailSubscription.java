package org.metaruntime.eventlog.internal;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import org.metaruntime.events.EventLogException;
import org.metaruntime.events.Subscription;
import org.metaruntime.supervisor.internal.DaemonThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A tail of the log on its own daemon thread: reads pages after the last delivered position (a {@code seq}, or a
 * mob event's cursor), delivers them, and when it reaches the end waits for the next local commit or the poll
 * interval (rows other runtimes commit to a shared log). Delivering in order from the last delivered position gives
 * each row exactly once. Thread-safe.
 *
 * @param <Q> the query of a page, which holds the position it reads after
 * @param <R> a row
 */
public final class TailSubscription<Q, R> implements Subscription {

    private static final Logger LOG = LoggerFactory.getLogger(TailSubscription.class);
    private static final AtomicInteger THREADS = new AtomicInteger();

    /** One page a tail read: its rows, in order, and whether the log holds more after them. */
    public record Page<R>(List<R> rows, boolean more) {
        /** Copies the rows. */
        public Page {
            rows = List.copyOf(rows);
        }
    }

    private final Function<Q, Page<R>> read;
    private final BiFunction<Q, R, Q> after;
    private final Progress progress;
    private final long pollMillis;
    private final Consumer<? super R> listener;
    private final Thread thread;
    private final Consumer<TailSubscription<?, ?>> onClose;
    private volatile Q next;
    private volatile boolean closed;

    /**
     * Starts a tail of {@code from}.
     *
     * @param read  reads the page a query asks for
     * @param after the query for the rows after a delivered row
     */
    public TailSubscription(Function<Q, Page<R>> read, BiFunction<Q, R, Q> after, Progress progress, long pollMillis,
                            Q from, Consumer<? super R> listener, Consumer<TailSubscription<?, ?>> onClose) {
        this.onClose = onClose;
        this.read = read;
        this.after = after;
        this.progress = progress;
        this.pollMillis = pollMillis;
        this.listener = listener;
        this.next = from;
        this.thread = DaemonThreads.thread("meta-eventlog-tail-" + THREADS.incrementAndGet(), this::run);
        thread.start();
    }

    private void run() {
        boolean warned = false;
        while (!closed) {
            long seen = progress.commits();
            boolean atEnd = true;
            try {
                Page<R> page = read.apply(next);
                warned = false;
                for (R row : page.rows()) {
                    if (closed) {
                        return;
                    }
                    deliver(row);
                    next = after.apply(next, row);
                }
                atEnd = !page.more();
            } catch (EventLogException e) {
                if (!warned) {
                    warned = true;
                    LOG.warn("an event log tail could not read the log; retrying", e);
                }
            }
            if (atEnd) {
                try {
                    progress.awaitCommitAfter(seen, pollMillis);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    private void deliver(R row) {
        try {
            listener.accept(row);
        } catch (RuntimeException e) {
            LOG.warn("an event log subscriber threw", e);
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    /** Stops the tail and waits (bounded) for its thread, unless called from a delivery. */
    @Override
    public void close() {
        closed = true;
        progress.wakeAll();
        onClose.accept(this);
        if (Thread.currentThread() != thread) {
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
