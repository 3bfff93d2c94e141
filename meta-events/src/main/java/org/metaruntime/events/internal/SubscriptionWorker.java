package org.metaruntime.events.internal;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.metaruntime.events.StoreNotification;
import org.metaruntime.events.Subscription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One subscription: a bounded queue and a daemon thread ({@code meta-events-subscriber-N}) delivering it.
 *
 * <p>{@link #offer} never waits for the subscriber: when the queue is full the envelope is counted as
 * skipped. The {@code lagged} notice goes at the place of the gap: queued by the next offer that finds room
 * for the notice and its envelope, or delivered by the thread when the queue runs empty first.
 */
final class SubscriptionWorker implements Subscription {

    private static final Logger LOG = LoggerFactory.getLogger("org.metaruntime.events");
    private static final AtomicInteger THREAD_IDS = new AtomicInteger();
    private static final long JOIN_MILLIS = 2_000;

    private final Consumer<? super StoreNotification> subscriber;
    private final int capacity;
    private final Consumer<SubscriptionWorker> onClose;
    private final Thread thread;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition ready = lock.newCondition();
    private final ArrayDeque<StoreNotification> queue = new ArrayDeque<>();
    private long skipped;
    private volatile boolean closed;

    SubscriptionWorker(Consumer<? super StoreNotification> subscriber, int capacity,
            Consumer<SubscriptionWorker> onClose) {
        this.subscriber = subscriber;
        this.capacity = capacity;
        this.onClose = onClose;
        this.queue.add(new StoreNotification.ResyncRequired(StoreNotification.Reason.INITIAL_SYNC, 0));
        this.thread = new Thread(this::run, "meta-events-subscriber-" + THREAD_IDS.incrementAndGet());
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Queues {@code notification}, or counts it as skipped when the queue is full. Never waits. */
    void offer(StoreNotification notification) {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            if (skipped == 0 && queue.size() < capacity) {
                queue.add(notification);
                ready.signal();
            } else if (skipped > 0 && queue.size() + 1 < capacity) {
                queue.add(new StoreNotification.ResyncRequired(StoreNotification.Reason.LAGGED, skipped));
                skipped = 0;
                queue.add(notification);
                ready.signal();
            } else {
                skipped++;
            }
        } finally {
            lock.unlock();
        }
    }

    private void run() {
        while (true) {
            StoreNotification next;
            lock.lock();
            try {
                while (!closed && queue.isEmpty() && skipped == 0) {
                    ready.awaitUninterruptibly();
                }
                if (closed) {
                    return;
                }
                if (queue.isEmpty()) {
                    next = new StoreNotification.ResyncRequired(StoreNotification.Reason.LAGGED, skipped);
                    skipped = 0;
                } else {
                    next = queue.poll();
                }
            } finally {
                lock.unlock();
            }
            deliver(next);
        }
    }

    private void deliver(StoreNotification notification) {
        try {
            subscriber.accept(notification);
        } catch (Throwable t) {
            LOG.warn("event store subscriber on {} threw on {}; the subscription continues", thread.getName(),
                    notification.type(), t);
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            queue.clear();
            ready.signal();
        } finally {
            lock.unlock();
        }
        onClose.accept(this);
        if (Thread.currentThread() != thread) {
            thread.interrupt();
            try {
                thread.join(JOIN_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (thread.isAlive()) {
                LOG.warn("event store subscriber {} did not return within {} ms of close; it ends after its callback",
                        thread.getName(), JOIN_MILLIS);
            }
        }
    }
}
