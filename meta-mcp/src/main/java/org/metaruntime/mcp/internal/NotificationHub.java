package org.metaruntime.mcp.internal;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.metaruntime.mcp.McpConnection;
import org.metaruntime.mcp.McpSubscription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listeners of a connection's server notifications. Each notification goes to every listener in turn on the
 * module's stdout thread, in arrival order; a listener that throws is logged and keeps its subscription.
 * Thread-safe.
 */
public final class NotificationHub {

    private static final Logger LOG = LoggerFactory.getLogger(McpConnection.class);

    private final String moduleId;
    private final CopyOnWriteArrayList<Sub> subs = new CopyOnWriteArrayList<>();

    /** A hub for {@code moduleId}'s connection. */
    public NotificationHub(String moduleId) {
        this.moduleId = moduleId;
    }

    /** Adds a listener. */
    public McpSubscription subscribe(Consumer<? super McpSchema.JSONRPCNotification> listener) {
        Sub sub = new Sub(Objects.requireNonNull(listener, "listener"));
        subs.add(sub);
        return sub;
    }

    /** Delivers {@code notification} to every open subscription. */
    public void publish(McpSchema.JSONRPCNotification notification) {
        for (Sub sub : subs) {
            if (sub.closed.get()) {
                continue;
            }
            try {
                sub.listener.accept(notification);
            } catch (RuntimeException e) {
                LOG.warn("module '{}': a notification listener threw on {}: {}", moduleId, notification.method(),
                        e.toString());
            }
        }
    }

    /** Closes every subscription (the connection closed). */
    public void closeAll() {
        for (Sub sub : subs) {
            sub.close();
        }
    }

    private final class Sub implements McpSubscription {
        final Consumer<? super McpSchema.JSONRPCNotification> listener;
        final AtomicBoolean closed = new AtomicBoolean();

        Sub(Consumer<? super McpSchema.JSONRPCNotification> listener) {
            this.listener = listener;
        }

        @Override
        public boolean isClosed() {
            return closed.get();
        }

        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                subs.remove(this);
            }
        }
    }
}
