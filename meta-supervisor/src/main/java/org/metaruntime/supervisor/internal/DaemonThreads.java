package org.metaruntime.supervisor.internal;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The thread factory of every pool and timer of the runtime, the MCP client and the gateway: daemon threads (a host
 * never waits for them to exit), named so that a thread dump says whose they are. Stateless.
 */
public final class DaemonThreads {

    private DaemonThreads() {
    }

    /** Daemon threads named {@code prefix} followed by 1, 2, 3, ... */
    public static ThreadFactory numbered(String prefix) {
        AtomicInteger counter = new AtomicInteger();
        return runnable -> daemon(runnable, prefix + counter.incrementAndGet());
    }

    /** Daemon threads all named {@code name} (for a pool of one thread). */
    public static ThreadFactory named(String name) {
        return runnable -> daemon(runnable, name);
    }

    private static Thread daemon(Runnable runnable, String name) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }
}
