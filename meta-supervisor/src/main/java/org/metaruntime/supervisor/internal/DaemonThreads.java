package org.metaruntime.supervisor.internal;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The thread factory of every pool, timer and thread of its own of the runtime, the MCP client and the gateway: daemon
 * threads (a host never waits for them to exit), named so that a thread dump says whose they are. Stateless.
 */
public final class DaemonThreads {

    private DaemonThreads() {
    }

    /** Daemon threads named {@code prefix} followed by 1, 2, 3, ... */
    public static ThreadFactory numbered(String prefix) {
        AtomicInteger counter = new AtomicInteger();
        return runnable -> thread(prefix + counter.incrementAndGet(), runnable);
    }

    /** Daemon threads all named {@code name} (for a pool of one thread). */
    public static ThreadFactory named(String name) {
        return runnable -> thread(name, runnable);
    }

    /** An unstarted daemon thread named {@code name} that runs {@code runnable}. */
    public static Thread thread(String name, Runnable runnable) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }
}
