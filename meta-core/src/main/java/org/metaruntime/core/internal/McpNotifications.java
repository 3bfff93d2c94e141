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
 * notifications to every listener. A listener that throws keeps its subscription; its first failure is logged with
 * its stack, later ones as a count. Thread-safe.
 */
public final class McpNotifications {

    private static final Logger LOG = LoggerFactory.getLogger(McpNotifications.class);

    private final String moduleId;
    private final Set<Listener> listeners = ConcurrentHashMap.newKeySet();

    /** The listeners of module {@code moduleId}. */
    McpNotifications(String moduleId) {
        this.moduleId = moduleId;
    }

    /** Forwards {@code session}'s notifications from now on. */
    void attach(McpSession session) {
        session.forwardNotifications(this::deliver);
    }

    private void deliver(McpSchema.JSONRPCNotification notification) {
        for (Listener listener : listeners) {
            try {
                listener.consumer.accept(notification);
            } catch (RuntimeException e) {
                listener.failures.failed(e);
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
        private final ListenerFailures failures = new ListenerFailures(LOG, "module '" + moduleId
                + "': a notification listener");
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
