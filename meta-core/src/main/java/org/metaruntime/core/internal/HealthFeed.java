package org.metaruntime.core.internal;

import java.util.ArrayDeque;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import org.metaruntime.events.Subscription;
import org.metaruntime.supervisor.ModuleHealthTransition;
import org.metaruntime.supervisor.internal.DaemonThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The health transitions as a stream: each subscription has its own bounded queue and delivery thread, so
 * publishing never blocks and a slow or throwing listener delays nobody else. When a queue is full the newest
 * transition is dropped and counted; the count is handed to the subscription's {@code onMissed} once its queue has
 * drained. Thread-safe.
 */
public final class HealthFeed {

    /** The queue bound of one subscription. */
    public static final int DEFAULT_CAPACITY = 1024;

    private static final Logger LOG = LoggerFactory.getLogger(HealthFeed.class);
    private static final AtomicInteger IDS = new AtomicInteger();

    private final Set<Feed> feeds = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /** A subscription with the default queue bound whose missed transitions are logged as a warning. */
    public Subscription subscribe(Consumer<? super ModuleHealthTransition> listener) {
        return subscribe(listener, missed -> LOG.warn("a health listener missed {} transition(s)", missed));
    }

    /** A subscription with the default queue bound. */
    public Subscription subscribe(Consumer<? super ModuleHealthTransition> listener, IntConsumer onMissed) {
        return subscribe(listener, onMissed, DEFAULT_CAPACITY);
    }

    /** A new subscription; its thread starts at once. */
    public Subscription subscribe(Consumer<? super ModuleHealthTransition> listener, IntConsumer onMissed,
                                  int capacity) {
        Feed feed = new Feed(Objects.requireNonNull(listener, "listener"), Objects.requireNonNull(onMissed,
                "onMissed"), capacity);
        feeds.add(feed);
        if (closed) {
            feed.stop();
        } else {
            feed.thread.start();
        }
        return feed;
    }

    /** Queues {@code transition} for every subscription; never blocks. */
    void publish(ModuleHealthTransition transition) {
        for (Feed feed : feeds) {
            feed.offer(transition);
        }
    }

    /** Closes every subscription. */
    public void close() {
        closed = true;
        for (Feed feed : feeds) {
            feed.stop();
        }
    }

    private final class Feed implements Subscription {
        private final Consumer<? super ModuleHealthTransition> listener;
        private final IntConsumer onMissed;
        private final int capacity;
        private final ArrayDeque<ModuleHealthTransition> queue = new ArrayDeque<>();
        private final Thread thread;
        private int missed;
        private final ListenerFailures failures = new ListenerFailures(LOG, "a health listener");
        private boolean stopped;

        Feed(Consumer<? super ModuleHealthTransition> listener, IntConsumer onMissed, int capacity) {
            if (capacity < 1) {
                throw new IllegalArgumentException("capacity must be at least 1: " + capacity);
            }
            this.listener = listener;
            this.onMissed = onMissed;
            this.capacity = capacity;
            this.thread = DaemonThreads.thread("meta-core-health-" + IDS.incrementAndGet(), this::deliver);
        }

        synchronized void offer(ModuleHealthTransition transition) {
            if (stopped) {
                return;
            }
            if (queue.size() >= capacity) {
                missed++;
            } else {
                queue.add(transition);
            }
            notifyAll();
        }

        private void deliver() {
            while (true) {
                ModuleHealthTransition next;
                int lost = 0;
                synchronized (this) {
                    while (!stopped && queue.isEmpty() && missed == 0) {
                        try {
                            wait();
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                    if (stopped) {
                        return;
                    }
                    next = queue.poll();
                    if (next == null) {
                        lost = missed;
                        missed = 0;
                    }
                }
                if (next != null) {
                    guarded(() -> listener.accept(next));
                } else {
                    int count = lost;
                    guarded(() -> onMissed.accept(count));
                }
            }
        }

        /** Runs a delivery; a listener's first failure is logged with its stack, each later one as a count. */
        private void guarded(Runnable delivery) {
            try {
                delivery.run();
            } catch (RuntimeException | Error e) {
                failures.failed(e);
            }
        }

        @Override
        public synchronized boolean isClosed() {
            return stopped;
        }

        /** Stops delivery without waiting: a listener still running finishes on its own. */
        void stop() {
            synchronized (this) {
                stopped = true;
                queue.clear();
                notifyAll();
            }
            feeds.remove(this);
        }

        /** Stops delivery and waits for a delivery in progress (unless called from the listener itself). */
        @Override
        public void close() {
            stop();
            if (Thread.currentThread() != thread && thread.isAlive()) {
                thread.interrupt();
                try {
                    thread.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
