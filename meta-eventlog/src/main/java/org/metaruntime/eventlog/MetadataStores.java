package org.metaruntime.eventlog;

import java.nio.file.Path;
import java.util.Objects;
import org.metaruntime.eventlog.internal.SqliteMetadataStore;
import org.metaruntime.events.PersistentMetadataStore;

/**
 * Durable {@link PersistentMetadataStore}s: a SQLite file whose every {@code put} is synced before it returns.
 * Thread-safe.
 *
 * <pre>{@code
 * try (PersistentMetadataStore metadata = MetadataStores.persistentState(Path.of("state"))) {
 *     MobEventProjector mobs = MobEventProjector.start(source, metadata, log);
 * }
 * }</pre>
 */
public final class MetadataStores {

    /** The file name of the metadata store in a state directory. */
    public static final String METADATA_FILE = "meta_metadata.sqlite3";

    private MetadataStores() {
    }

    /** The store in {@code <dir>/meta_metadata.sqlite3}. */
    public static PersistentMetadataStore persistentState(Path dir) {
        return sqlite(Objects.requireNonNull(dir, "dir").resolve(METADATA_FILE));
    }

    /**
     * The store in {@code file} (created with its directory when missing).
     *
     * @throws org.metaruntime.events.EventLogException when SQLite's driver ({@code org.xerial:sqlite-jdbc}) is not
     *                                                  on the class path
     */
    public static PersistentMetadataStore sqlite(Path file) {
        return new SqliteMetadataStore(Objects.requireNonNull(file, "file"));
    }
}
