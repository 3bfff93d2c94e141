package org.metaruntime.events;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Small projection metadata the runtime keeps across restarts, such as the structural subscriber's resume
 * cursor: string values under string keys. It is not event storage. Implementations must be thread-safe and
 * make {@link #put} durable before it returns (when they are durable at all).
 *
 * <p>{@link #inMemory()} forgets everything when the JVM exits; {@code MetadataStores.persistentState(dir)}
 * in {@code meta-eventlog} keeps it in {@code <dir>/meta_metadata.sqlite3}; a host may supply its own.
 *
 * <pre>{@code
 * PersistentMetadataStore store = PersistentMetadataStore.inMemory();
 * store.put("mob_events.cursor", "41");
 * long cursor = store.get("mob_events.cursor").map(Long::parseLong).orElse(-1L);
 * }</pre>
 */
public interface PersistentMetadataStore extends AutoCloseable {

    /** The value under {@code key}, if any. */
    Optional<String> get(String key);

    /** Stores {@code value} under {@code key}, replacing any earlier value. */
    void put(String key, String value);

    /** Releases the storage; idempotent. The default does nothing. */
    @Override
    default void close() {
    }

    /** A store in this JVM's memory. */
    static PersistentMetadataStore inMemory() {
        ConcurrentMap<String, String> values = new ConcurrentHashMap<>();
        return new PersistentMetadataStore() {
            @Override
            public Optional<String> get(String key) {
                return Optional.ofNullable(values.get(Objects.requireNonNull(key, "key")));
            }

            @Override
            public void put(String key, String value) {
                values.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            }
        };
    }
}
