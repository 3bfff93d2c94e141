package org.metaruntime.eventlog;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.metaruntime.events.MobEvent;
import org.metaruntime.events.Subscription;
import org.metaruntime.events.spi.MobEventSource;

/**
 * A host's mob-event ledger for the tests: events with cursors 1, 2, ...; it retains those from
 * {@code firstRetained} on; subscribers get the retained backlog, then each new event, on the appending thread.
 * It records every cursor it delivered. Thread-safe (one monitor).
 */
final class Ledger implements MobEventSource {

    private final List<MobEvent> events = new ArrayList<>();
    private final List<Consumer<MobEvent>> subscribers = new ArrayList<>();
    private final List<Long> delivered = new ArrayList<>();
    private long firstRetained = 1;

    synchronized void append(int n) {
        for (int i = 0; i < n; i++) {
            long cursor = events.size() + 1;
            String kind = cursor % 3 == 0 ? "MemberSpawned" : "StepDispatched";
            MobEvent event = new MobEvent(cursor, "mob-1", 10_000 + cursor, kind,
                    JsonNodeFactory.instance.objectNode().put("n", cursor), "run-1", "step-" + cursor, null,
                    null, null);
            events.add(event);
            for (Consumer<MobEvent> subscriber : List.copyOf(subscribers)) {
                deliver(subscriber, event);
            }
        }
    }

    synchronized void forgetBefore(long cursor) {
        firstRetained = cursor;
    }

    synchronized List<Long> delivered() {
        return List.copyOf(delivered);
    }

    @Override
    public synchronized long latestCursor() {
        return events.size();
    }

    @Override
    public synchronized boolean retains(long cursor) {
        return cursor >= firstRetained - 1 && cursor <= events.size();
    }

    @Override
    public synchronized Subscription subscribeAfter(long cursor, Consumer<MobEvent> consumer) {
        for (MobEvent event : events) {
            if (event.cursor() > cursor && event.cursor() >= firstRetained) {
                deliver(consumer, event);
            }
        }
        subscribers.add(consumer);
        return new Subscription() {
            private boolean closed;

            @Override
            public boolean isClosed() {
                return closed;
            }

            @Override
            public void close() {
                synchronized (Ledger.this) {
                    closed = true;
                    subscribers.remove(consumer);
                }
            }
        };
    }

    private void deliver(Consumer<MobEvent> consumer, MobEvent event) {
        delivered.add(event.cursor());
        consumer.accept(event);
    }
}
