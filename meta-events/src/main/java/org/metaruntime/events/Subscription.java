package org.metaruntime.events;

/**
 * A live subscription to an {@link EventStore}. Thread-safe. Closing it stops its delivery thread: no
 * notification is delivered after {@code close()} returns, except one already being delivered when it is
 * called from that notification's own callback.
 *
 * <pre>{@code
 * try (Subscription sub = store.subscribe(this::onNotification)) {
 *     runUntilDone();
 * }
 * }</pre>
 */
public interface Subscription extends AutoCloseable {

    /** Whether {@link #close()} was called (or the store was closed). */
    boolean isClosed();

    /** Stops the subscription; idempotent. */
    @Override
    void close();
}
