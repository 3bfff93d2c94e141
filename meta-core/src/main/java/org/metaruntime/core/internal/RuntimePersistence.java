package org.metaruntime.core.internal;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
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

    private static final Logger LOG = LoggerFactory.getLogger(RuntimePersistence.class);
    private static final Duration CLOSE_FLUSH = Duration.ofSeconds(30);
    private static final String EMBEDDED_LOG_CLASS = "org.metaruntime.eventlog.EventLogs";
    private static final String SQLITE_DRIVER_CLASS = "org.sqlite.SQLiteDataSource";

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
     *
     * @throws org.metaruntime.core.ConfigException when an embedded store is needed and meta-eventlog is absent
     */
    public static RuntimePersistence open(Path stateDir, EventLog hostLog, PersistentMetadataStore hostMetadata,
                                          MobEventSource mobSource) {
        if (stateDir != null && (hostLog == null || hostMetadata == null)) {
            requireEmbeddedStores();
        }
        EventLog log = hostLog;
        boolean ownsLog = false;
        if (log == null && stateDir != null) {
            log = EmbeddedState.openLog(stateDir);
            ownsLog = true;
        }
        PersistentMetadataStore metadata = hostMetadata;
        boolean ownsMetadata = false;
        try {
            if (metadata == null) {
                metadata = stateDir != null ? EmbeddedState.openMetadata(stateDir) : PersistentMetadataStore.inMemory();
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

    /**
     * Checks that the embedded stores' artifacts are on the class path: {@code org.metaruntime:meta-eventlog} (an
     * optional dependency of meta-core) and SQLite's driver {@code org.xerial:sqlite-jdbc} (an optional dependency
     * of meta-eventlog, which a host that keeps its log in PostgreSQL does without).
     *
     * @throws org.metaruntime.core.ConfigException naming {@code persistentState} and the artifacts to add
     */
    static void requireEmbeddedStores() {
        boolean eventlog = present(EMBEDDED_LOG_CLASS);
        boolean sqlite = present(SQLITE_DRIVER_CLASS);
        if (eventlog && sqlite) {
            return;
        }
        String missing = !eventlog && !sqlite ? "org.metaruntime:meta-eventlog and org.xerial:sqlite-jdbc, which are"
                : (eventlog ? "org.xerial:sqlite-jdbc" : "org.metaruntime:meta-eventlog") + ", which is";
        throw new org.metaruntime.core.ConfigException("persistentState", "the embedded event log and metadata "
                + "store need " + missing + " not on the class path: add " + (!eventlog && !sqlite ? "them" : "it")
                + " as a dependency (meta-eventlog in the same version as meta-core), or pass the builder an eventLog"
                + " and persistentMetadata of your own");
    }

    private static boolean present(String className) {
        try {
            Class.forName(className, false, RuntimePersistence.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
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
