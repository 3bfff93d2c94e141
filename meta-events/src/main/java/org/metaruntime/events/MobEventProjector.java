package org.metaruntime.events;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.metaruntime.events.spi.MobEventSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The structural subscriber: reads a host's {@link MobEventSource}, projects each event
 * ({@link MobEventProjection}), keeps it (in the {@link EventLog} when one is given, else in a bounded
 * in-memory buffer of the newest {@value #MEMORY_CAPACITY}), tells subscribers, and saves the last projected
 * cursor in a {@link PersistentMetadataStore} under {@value #CURSOR_KEY}.
 *
 * <ul>
 *   <li>Start: after the saved cursor when there is one and the source {@link MobEventSource#retains retains}
 *       it; otherwise after the source's {@link MobEventSource#latestCursor() latest} cursor (only new
 *       events). A restart with the same metadata store neither repeats nor skips an event the source still
 *       retains.</li>
 *   <li>The cursor is saved after projection, and when there is a log, after the log committed the event;
 *       an event delivered again (cursor not after the last projected one) is ignored.</li>
 * </ul>
 *
 * <p>Thread-safe. Subscribers are called on the source's delivery thread and must be fast; one that throws
 * is logged and keeps its subscription.
 *
 * <pre>{@code
 * try (MobEventProjector mobs = MobEventProjector.start(source, metadata, log);
 *      Subscription sub = mobs.subscribeMobEvents(e -> System.out.println(e.kind()))) {
 *     MobEventPage page = mobs.mobEvents(MobEventQuery.all());
 * }
 * }</pre>
 */
public final class MobEventProjector implements AutoCloseable {

    /** The metadata key of the resume cursor. */
    public static final String CURSOR_KEY = "mob_events.cursor";
    /** Events kept in memory when there is no event log. */
    public static final int MEMORY_CAPACITY = 4096;

    private static final Logger LOG = LoggerFactory.getLogger(MobEventProjector.class);
    private static final Duration COMMIT_WAIT = Duration.ofSeconds(10);

    private final PersistentMetadataStore metadata;
    private final EventLog log;
    private final long resumedAfter;
    private final boolean resumedFromSaved;
    private final Object lock = new Object();
    private final ArrayDeque<MobStructuralEventEnvelope> recent = new ArrayDeque<>();
    private final List<Consumer<? super MobStructuralEventEnvelope>> listeners = new CopyOnWriteArrayList<>();
    private final Subscription upstream;
    private long lastCursor;
    private volatile boolean closed;

    private MobEventProjector(MobEventSource source, PersistentMetadataStore metadata, EventLog log) {
        this.metadata = metadata;
        this.log = log;
        OptionalLong saved = savedCursor(metadata);
        this.resumedFromSaved = saved.isPresent() && source.retains(saved.getAsLong());
        this.resumedAfter = resumedFromSaved ? saved.getAsLong() : source.latestCursor();
        if (saved.isPresent() && !resumedFromSaved) {
            LOG.warn("saved mob-event cursor {} is stale for the source; resuming after the latest cursor {}",
                    saved.getAsLong(), resumedAfter);
        }
        this.lastCursor = resumedAfter;
        this.upstream = source.subscribeAfter(resumedAfter, this::onEvent);
    }

    /**
     * Starts the structural subscriber.
     *
     * @param log the event log to keep projected events in, or null to keep the newest in memory
     */
    public static MobEventProjector start(MobEventSource source, PersistentMetadataStore metadata, EventLog log) {
        return new MobEventProjector(Objects.requireNonNull(source, "source"),
                Objects.requireNonNull(metadata, "metadata"), log);
    }

    /** The cursor the subscriber resumed after. */
    public long resumedAfter() {
        return resumedAfter;
    }

    /** Whether it resumed after the saved cursor (false: no cursor was saved, or it was stale). */
    public boolean resumedFromSaved() {
        return resumedFromSaved;
    }

    /** The cursor of the last projected event, or the resume cursor before the first. */
    public long lastCursor() {
        synchronized (lock) {
            return lastCursor;
        }
    }

    /** The projected events matching {@code query}: from the event log when there is one, else from memory. */
    public MobEventPage mobEvents(MobEventQuery query) {
        Objects.requireNonNull(query, "query");
        if (log != null) {
            return log.mobEvents(query);
        }
        List<MobStructuralEventEnvelope> page = new ArrayList<>();
        boolean more = false;
        synchronized (lock) {
            for (MobStructuralEventEnvelope e : recent) {
                if (e.cursor() > query.afterCursor() && query.matches(e)) {
                    if (page.size() == query.limit()) {
                        more = true;
                        break;
                    }
                    page.add(e);
                }
            }
        }
        return new MobEventPage(page, more ? page.get(page.size() - 1).cursor() : null);
    }

    /** Calls {@code listener} with each event projected from now on, until the subscription is closed. */
    public Subscription subscribeMobEvents(Consumer<? super MobStructuralEventEnvelope> listener) {
        Objects.requireNonNull(listener, "listener");
        if (closed) {
            throw new IllegalStateException("the mob-event projector is closed");
        }
        listeners.add(listener);
        return new Subscription() {
            private volatile boolean done;

            @Override
            public boolean isClosed() {
                return done || closed;
            }

            @Override
            public void close() {
                done = true;
                listeners.remove(listener);
            }
        };
    }

    /** Stops reading the source; the saved cursor stays. Idempotent. Does not close the log or the store. */
    @Override
    public void close() {
        closed = true;
        upstream.close();
        listeners.clear();
    }

    private void onEvent(MobEvent event) {
        if (closed) {
            return;
        }
        MobStructuralEventEnvelope projected;
        synchronized (lock) {
            if (event.cursor() <= lastCursor) {
                return;
            }
            projected = MobEventProjection.project(event);
            if (log == null) {
                recent.addLast(projected);
                if (recent.size() > MEMORY_CAPACITY) {
                    recent.removeFirst();
                }
            }
            lastCursor = event.cursor();
        }
        boolean kept = true;
        if (log != null) {
            log.appendMobEvent(projected);
            kept = log.flush(COMMIT_WAIT);
        }
        if (kept) {
            metadata.put(CURSOR_KEY, Long.toString(projected.cursor()));
        } else {
            LOG.warn("the event log did not commit mob event {} within {} s; its cursor is not saved",
                    projected.eventId(), COMMIT_WAIT.toSeconds());
        }
        for (Consumer<? super MobStructuralEventEnvelope> listener : listeners) {
            try {
                listener.accept(projected);
            } catch (RuntimeException e) {
                LOG.warn("a mob-event subscriber threw", e);
            }
        }
    }

    private static OptionalLong savedCursor(PersistentMetadataStore metadata) {
        Optional<String> saved = metadata.get(CURSOR_KEY);
        if (saved.isEmpty()) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(saved.get()));
        } catch (NumberFormatException e) {
            LOG.warn("ignoring an unreadable saved mob-event cursor: {}", saved.get());
            return OptionalLong.empty();
        }
    }
}
