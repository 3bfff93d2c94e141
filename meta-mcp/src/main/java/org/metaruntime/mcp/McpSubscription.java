package org.metaruntime.mcp;

/**
 * A registered listener of a connection's server notifications. Thread-safe. After {@link #close()} returns, the
 * listener is not called again, except for a notification being delivered at that moment on another thread.
 *
 * <pre>{@code
 * try (McpSubscription sub = connection.subscribeNotifications(n -> log.info("{}", n.method()))) {
 *     runUntilDone();
 * }
 * }</pre>
 */
public interface McpSubscription extends AutoCloseable {

    /** Whether {@link #close()} was called (or the connection was closed). */
    boolean isClosed();

    /** Removes the listener; idempotent. */
    @Override
    void close();
}
