package org.metaruntime.core.internal;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.metaruntime.events.Subscription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A module's notification listeners, kept across its connections: each new connection forwards its server's
 * notifications to every listener. Thread-safe.
 */
public final class McpNotifications {

    private static final Logger LOG = LoggerFactory.getLogger("org.metaruntime.core.UnifiedRuntime");

    private final Set<Listener> listeners = ConcurrentHashMap.newKeySet();

    /** Forwards {@code session}'s notifications from now on. */
    void attach(McpSession session) {
        session.forwardNotifications(this::deliver);
    }

    private void deliver(McpSchema.JSONRPCNotification notification) {
        for (Listener listener : listeners) {
            try {
                listener.consumer.accept(notification);
            } catch (RuntimeException e) {
                LOG.warn("a notification listener failed; it stays subscribed", e);
            }
        }
    }

    Subscription add(Consumer<? super McpSchema.JSONRPCNotification> consumer) {
        Listener listener = new Listener(consumer);
        listeners.add(listener);
        return listener;
    }

    private final class Listener implements Subscription {
        private final Consumer<? super McpSchema.JSONRPCNotification> consumer;
        private volatile boolean closed;

        Listener(Consumer<? super McpSchema.JSONRPCNotification> consumer) {
            this.consumer = consumer;
        }

        @Override
        public boolean isClosed() {
            return closed;
        }

        @Override
        public void close() {
            closed = true;
            listeners.remove(this);
        }
    }
}
