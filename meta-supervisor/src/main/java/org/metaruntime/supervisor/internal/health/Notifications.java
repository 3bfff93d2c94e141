package org.metaruntime.supervisor.internal.health;

import java.util.ArrayDeque;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers listener notifications in the order they were queued, one at a time, outside the caller's lock. A
 * notification that throws is logged and never reaches the caller.
 *
 * <p>Thread-safe: {@link #enqueue} is called while holding the owner's lock (so the order matches the order of the
 * state changes), {@link #drain} after releasing it. Whichever thread drains delivers everything queued, including
 * notifications queued by listeners while it drains.
 */
public final class Notifications {

    private static final Logger LOG = LoggerFactory.getLogger(ModuleSupervisor.LOGGER);

    private final String moduleId;
    private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
    private boolean draining;

    public Notifications(String moduleId) {
        this.moduleId = Objects.requireNonNull(moduleId, "moduleId");
    }

    /** Queues a notification; {@code what} names it in the log if it throws. */
    public synchronized void enqueue(String what, Runnable notification) {
        queue.add(() -> deliver(moduleId, what, notification));
    }

    /** Delivers queued notifications unless another thread (or an outer frame of this one) already does. */
    public void drain() {
        while (true) {
            Runnable next;
            synchronized (this) {
                if (draining) {
                    return;
                }
                next = queue.poll();
                if (next == null) {
                    return;
                }
                draining = true;
            }
            try {
                next.run();
            } finally {
                synchronized (this) {
                    draining = false;
                }
            }
        }
    }

    /** Runs {@code notification} now; an exception it throws is logged and swallowed. */
    public static void deliver(String moduleId, String what, Runnable notification) {
        try {
            notification.run();
        } catch (RuntimeException e) {
            LOG.warn("module '{}': {} threw; ignored", moduleId, what, e);
        }
    }
}
