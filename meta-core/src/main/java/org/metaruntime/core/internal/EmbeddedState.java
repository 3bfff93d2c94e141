package org.metaruntime.core.internal;

import java.nio.file.Path;
import org.metaruntime.eventlog.EventLogOptions;
import org.metaruntime.eventlog.EventLogs;
import org.metaruntime.eventlog.MetadataStores;
import org.metaruntime.events.EventLog;
import org.metaruntime.events.PersistentMetadataStore;

/**
 * The embedded stores of a state directory, from {@code org.metaruntime:meta-eventlog}: the only class of the
 * runtime that names that optional artifact's types, so a host without it never loads them. Call
 * {@link RuntimePersistence#requireEmbeddedStores} first. Thread-safe.
 */
final class EmbeddedState {

    private EmbeddedState() {
    }

    /** The SQLite event log in {@code dir}, written as a new instance of this process. */
    static EventLog openLog(Path dir) {
        return EventLogs.persistentState(dir, EventLogOptions.builder()
                .instanceId(EventLogOptions.defaultInstanceId()).build());
    }

    /** The SQLite metadata store in {@code dir}. */
    static PersistentMetadataStore openMetadata(Path dir) {
        return MetadataStores.persistentState(dir);
    }
}
