package org.metaruntime.events.internal;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.metaruntime.events.AgentEventProjection;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.EventFilter;
import org.metaruntime.events.EventLog;
import org.metaruntime.events.EventStore;
import org.metaruntime.events.Events;
import org.metaruntime.events.StoreNotification;
import org.metaruntime.events.Subscription;
import org.metaruntime.events.UnifiedEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link EventStore}: a sorted array segment {@code items[start, end)} guarded by a private monitor.
 * Appending writes at {@code end}; dropping the oldest advances {@code start}; an out-of-order insert
 * shifts whichever side of its position is shorter. The array is compacted or grown when {@code end} hits
 * its length, so every operation but the out-of-order shift is O(1) amortised.
 *
 * <p>Thread-safe: every read and write of the segment holds the monitor; subscribers are only offered
 * notifications under it (never waited for), and the subscriber array is copied on write.
 */
public final class DefaultEventStore implements EventStore {

    private static final Logger LOG = LoggerFactory.getLogger(DefaultEventStore.class);

    private static final int MAX_BOUND = 1 << 28;
    private static final SubscriptionWorker[] NO_SUBSCRIBERS = new SubscriptionWorker[0];

    private final int retention;
    private final int batch;
    private final int limit;

    private Object[] items;
    private int start;
    private int end;

    private final Object lock = new Object();
    private volatile SubscriptionWorker[] subscribers = NO_SUBSCRIBERS;
    private boolean closed;
    private final EventLog log;
    private boolean logClosedWarned;

    /** See {@link EventStore#create(int, int)}. */
    public DefaultEventStore(int retention, int batch) {
        this(retention, batch, null);
    }

    /** See {@link EventStore#create(int, int, EventLog)}; {@code log} may be null. */
    public DefaultEventStore(int retention, int batch, EventLog log) {
        this.log = log;
        if (retention < 1 || batch < 1 || (long) retention + batch > MAX_BOUND) {
            throw new IllegalArgumentException("retention and batch must be at least 1 and sum to at most "
                    + MAX_BOUND + ": retention " + retention + ", batch " + batch);
        }
        this.retention = retention;
        this.batch = batch;
        this.limit = retention + batch;
        this.items = new Object[Math.min(limit, 1024)];
    }

    @Override
    public void insert(EventEnvelope<UnifiedEvent> envelope) {
        Objects.requireNonNull(envelope, "envelope");
        // Only agent envelopes are ever projected. The envelope's source tells a module envelope apart without
        // loading its event (a cache miss of its own): the source is checked against the event when the
        // envelope is built, and module envelopes are built with this very constant.
        EventEnvelope<UnifiedEvent> stored = envelope.source() == EventEnvelope.SOURCE_MODULE
                ? envelope : AgentEventProjection.project(envelope);
        synchronized (lock) {
            int size = end - start;
            if (size == 0 || Events.compare(at(end - 1), stored) <= 0) {
                if (end == items.length) {
                    makeRoomAtEnd();
                }
                items[end++] = stored;
            } else {
                insertWithin(upperBound(stored), stored);
            }
            if (end - start >= limit) {
                int drop = end - start - retention;
                Arrays.fill(items, start, start + drop, null);
                start += drop;
            }
            if (log != null) {
                appendToLog(stored);
            }
            SubscriptionWorker[] current = subscribers;
            if (current.length > 0) {
                StoreNotification notification = new StoreNotification.Envelope(stored);
                for (SubscriptionWorker worker : current) {
                    worker.offer(notification);
                }
            }
        }
    }

    /** Under the monitor, so the log receives envelopes in insertion order; {@link EventLog#append} never blocks. */
    private void appendToLog(EventEnvelope<UnifiedEvent> stored) {
        try {
            log.append(stored);
        } catch (IllegalStateException e) {
            if (!logClosedWarned) {
                logClosedWarned = true;
                LOG.warn("the event log is closed; envelopes inserted from now on are not logged");
            }
        }
    }

    private void insertWithin(int index, EventEnvelope<UnifiedEvent> envelope) {
        int size = end - start;
        if (start > 0 && index < size - index) {
            System.arraycopy(items, start, items, start - 1, index);
            start--;
        } else {
            if (end == items.length) {
                makeRoomAtEnd();
            }
            System.arraycopy(items, start + index, items, start + index + 1, size - index);
            end++;
        }
        items[start + index] = envelope;
    }

    /** Compacts the segment to the front when at most half the array is in use, else doubles the array. */
    private void makeRoomAtEnd() {
        int size = end - start;
        if (size <= items.length / 2) {
            System.arraycopy(items, start, items, 0, size);
            Arrays.fill(items, size, end, null);
        } else {
            Object[] grown = new Object[items.length * 2];
            System.arraycopy(items, start, grown, 0, size);
            items = grown;
        }
        start = 0;
        end = size;
    }

    /** The first offset (from {@code start}) whose element sorts after {@code envelope}. */
    private int upperBound(EventEnvelope<?> envelope) {
        int low = 0;
        int high = end - start;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (Events.compare(at(start + mid), envelope) <= 0) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    /** The first offset (from {@code start}) whose timestamp is at least {@code timestampMs}. */
    private int lowerBoundTime(long timestampMs) {
        int low = 0;
        int high = end - start;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (at(start + mid).timestampMs() < timestampMs) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    @SuppressWarnings("unchecked")
    private EventEnvelope<UnifiedEvent> at(int index) {
        return (EventEnvelope<UnifiedEvent>) items[index];
    }

    @Override
    @SuppressWarnings("unchecked")
    public List<EventEnvelope<UnifiedEvent>> snapshot() {
        synchronized (lock) {
            Object[] copy = Arrays.copyOfRange(items, start, end);
            return (List<EventEnvelope<UnifiedEvent>>) (List<?>) Collections.unmodifiableList(Arrays.asList(copy));
        }
    }

    @Override
    public List<EventEnvelope<UnifiedEvent>> query(EventFilter filter) {
        Objects.requireNonNull(filter, "filter");
        synchronized (lock) {
            Object[] found = new Object[16];
            int count = 0;
            for (int i = start + lowerBoundTime(filter.fromMs()); i < end; i++) {
                EventEnvelope<UnifiedEvent> envelope = at(i);
                if (envelope.timestampMs() > filter.toMs()) {
                    break;
                }
                if (filter.matches(envelope)) {
                    if (count == found.length) {
                        found = Arrays.copyOf(found, count * 2);
                    }
                    found[count++] = envelope;
                }
            }
            @SuppressWarnings("unchecked")
            List<EventEnvelope<UnifiedEvent>> result = (List<EventEnvelope<UnifiedEvent>>) (List<?>)
                    Collections.unmodifiableList(Arrays.asList(Arrays.copyOf(found, count)));
            return result;
        }
    }

    @Override
    public Optional<EventEnvelope<UnifiedEvent>> newest() {
        synchronized (lock) {
            return end == start ? Optional.empty() : Optional.of(at(end - 1));
        }
    }

    @Override
    public int size() {
        synchronized (lock) {
            return end - start;
        }
    }

    @Override
    public int retention() {
        return retention;
    }

    @Override
    public int dropBatch() {
        return batch;
    }

    @Override
    public Subscription subscribe(Consumer<? super StoreNotification> subscriber, int queueCapacity) {
        Objects.requireNonNull(subscriber, "subscriber");
        if (queueCapacity < 1) {
            throw new IllegalArgumentException("queueCapacity must be at least 1: " + queueCapacity);
        }
        SubscriptionWorker worker;
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("the event store is closed");
            }
            worker = new SubscriptionWorker(subscriber, queueCapacity, this::remove);
            SubscriptionWorker[] current = subscribers;
            SubscriptionWorker[] next = Arrays.copyOf(current, current.length + 1);
            next[current.length] = worker;
            subscribers = next;
        }
        worker.start();
        return worker;
    }

    private void remove(SubscriptionWorker worker) {
        synchronized (lock) {
            SubscriptionWorker[] current = subscribers;
            for (int i = 0; i < current.length; i++) {
                if (current[i] == worker) {
                    SubscriptionWorker[] next = new SubscriptionWorker[current.length - 1];
                    System.arraycopy(current, 0, next, 0, i);
                    System.arraycopy(current, i + 1, next, i, current.length - i - 1);
                    subscribers = next;
                    return;
                }
            }
        }
    }

    @Override
    public void close() {
        SubscriptionWorker[] toClose;
        synchronized (lock) {
            closed = true;
            toClose = subscribers;
            subscribers = NO_SUBSCRIBERS;
        }
        for (SubscriptionWorker worker : toClose) {
            worker.close();
        }
    }
}
