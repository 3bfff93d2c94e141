package org.metaruntime.eventlog.internal;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import org.metaruntime.events.EventLogException;
import org.metaruntime.events.EventPage;
import org.metaruntime.events.EventQuery;
import org.metaruntime.events.LoggedEvent;
import org.metaruntime.events.Subscription;
import org.metaruntime.supervisor.internal.DaemonThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A tail of the log on its own daemon thread: reads pages after the last delivered {@code seq}, delivers
 * them, and when it reaches the end waits for the next local commit or the poll interval (rows other
 * runtimes commit to a shared log). Delivering in {@code seq} order from the last delivered {@code seq}
 * gives each row exactly once. Thread-safe.
 */
public final class TailSubscription implements Subscription {

    private static final Logger LOG = LoggerFactory.getLogger(TailSubscription.class);
    private static final AtomicInteger THREADS = new AtomicInteger();

    private final Function<EventQuery, EventPage> query;
    private final Progress progress;
    private final long pollMillis;
    private final Consumer<? super LoggedEvent> listener;
    private final Thread thread;
    private final Consumer<TailSubscription> onClose;
    private volatile EventQuery next;
    private volatile boolean closed;

    /** Starts a tail of {@code from}. */
    public TailSubscription(Function<EventQuery, EventPage> query, Progress progress, long pollMillis,
                            EventQuery from, Consumer<? super LoggedEvent> listener,
                            Consumer<TailSubscription> onClose) {
        this.onClose = onClose;
        this.query = query;
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
                EventPage page = query.apply(next);
                warned = false;
                for (LoggedEvent row : page.events()) {
                    if (closed) {
                        return;
                    }
                    deliver(row);
                    next = next.withAfterSeq(row.seq());
                }
                atEnd = page.nextAfterSeq() == null;
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

    private void deliver(LoggedEvent row) {
        try {
            listener.accept(row);
        } catch (RuntimeException e) {
            LOG.warn("an event log subscriber threw on seq {}", row.seq(), e);
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
