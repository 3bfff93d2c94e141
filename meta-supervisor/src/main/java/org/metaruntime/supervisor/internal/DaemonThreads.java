package org.metaruntime.supervisor.internal;

import java.util.concurrent.ScheduledThreadPoolExecutor;
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

    /**
     * A timer of one daemon thread named {@code name}, its thread created with the first task. A cancelled task
     * leaves its queue at once, so a timer that arms a task per call and cancels it when the call is answered holds
     * only the tasks still pending.
     */
    public static ScheduledThreadPoolExecutor timer(String name) {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, named(name));
        timer.setRemoveOnCancelPolicy(true);
        return timer;
    }

    /** An unstarted daemon thread named {@code name} that runs {@code runnable}. */
    public static Thread thread(String name, Runnable runnable) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }
}
