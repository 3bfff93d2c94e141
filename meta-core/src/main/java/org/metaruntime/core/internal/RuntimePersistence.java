package org.metaruntime.core.internal;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
import org.metaruntime.eventlog.EventLogOptions;
import org.metaruntime.eventlog.EventLogs;
import org.metaruntime.eventlog.MetadataStores;
import org.metaruntime.events.EventLog;
import org.metaruntime.events.MobEventPage;
import org.metaruntime.events.MobEventProjector;
import org.metaruntime.events.MobEventQuery;
import org.metaruntime.events.MobStructuralEventEnvelope;
import org.metaruntime.events.PersistentMetadataStore;
import org.metaruntime.events.Subscription;
import org.metaruntime.events.spi.MobEventSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the runtime keeps beyond its own life: the event log (the host's, or the embedded one in the state
 * directory), the projection metadata store, and the structural subscriber of the host's mob events. It closes
 * what it opened, never what the host passed in. Thread-safe.
 */
public final class RuntimePersistence implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger("org.metaruntime.core.UnifiedRuntime");
    private static final Duration CLOSE_FLUSH = Duration.ofSeconds(30);

    private final EventLog log;
    private final boolean ownsLog;
    private final PersistentMetadataStore metadata;
    private final boolean ownsMetadata;
    private final MobEventProjector mobs;

    private RuntimePersistence(EventLog log, boolean ownsLog, PersistentMetadataStore metadata,
                               boolean ownsMetadata, MobEventSource source) {
        this.log = log;
        this.ownsLog = ownsLog;
        this.metadata = metadata;
        this.ownsMetadata = ownsMetadata;
        this.mobs = source == null ? null : MobEventProjector.start(source, metadata, log);
    }

    /**
     * Opens what the builder asked for: {@code hostLog} or, with a state directory, the embedded log in it;
     * {@code hostMetadata} or, with a state directory, {@code meta_metadata.sqlite3}, else an in-memory store.
     */
    public static RuntimePersistence open(Path stateDir, EventLog hostLog, PersistentMetadataStore hostMetadata,
                                          MobEventSource mobSource, String instanceId) {
        EventLog log = hostLog;
        boolean ownsLog = false;
        if (log == null && stateDir != null) {
            log = EventLogs.persistentState(stateDir, EventLogOptions.builder().instanceId(instanceId).build());
            ownsLog = true;
        }
        PersistentMetadataStore metadata = hostMetadata;
        boolean ownsMetadata = false;
        try {
            if (metadata == null) {
                metadata = stateDir != null ? MetadataStores.persistentState(stateDir)
                        : PersistentMetadataStore.inMemory();
                ownsMetadata = true;
            }
            return new RuntimePersistence(log, ownsLog, metadata, ownsMetadata, mobSource);
        } catch (RuntimeException e) {
            if (ownsMetadata && metadata != null) {
                metadata.close();
            }
            if (ownsLog) {
                log.close();
            }
            throw e;
        }
    }

    /** The event log, if one is configured. */
    public Optional<EventLog> log() {
        return Optional.ofNullable(log);
    }

    /** The structural mob events matching {@code query}. */
    public MobEventPage mobEvents(MobEventQuery query) {
        return requireMobs().mobEvents(query);
    }

    /** Each structural mob event projected from now on. */
    public Subscription subscribeMobEvents(Consumer<? super MobStructuralEventEnvelope> listener) {
        return requireMobs().subscribeMobEvents(listener);
    }

    private MobEventProjector requireMobs() {
        if (mobs == null) {
            throw new IllegalStateException("no mob-event source is configured (UnifiedRuntime.Builder.mobEventSource)");
        }
        return mobs;
    }

    /** Stops the structural subscriber; commits the log; closes what this runtime opened. Idempotent. */
    @Override
    public void close() {
        if (mobs != null) {
            mobs.close();
        }
        if (log != null) {
            if (ownsLog) {
                log.close();
            } else if (!log.flush(CLOSE_FLUSH)) {
                LOG.warn("the event log did not commit this runtime's last events within {} s", CLOSE_FLUSH.toSeconds());
            }
        }
        if (ownsMetadata) {
            metadata.close();
        }
    }
}
