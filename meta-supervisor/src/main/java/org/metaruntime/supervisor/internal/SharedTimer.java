package org.metaruntime.supervisor.internal;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The library's one timer thread ({@code meta-supervisor-timer}, daemon), shared by everything in the JVM that waits
 * for a moment in time without blocking: the children's stop ladders and exit drains, the looks for exits, the
 * deadlines of every open MCP session, {@link org.metaruntime.supervisor.Scheduler#shared()}. Its tasks are short
 * and never block.
 *
 * <p>The thread exists only while it is needed: while a lease is held ({@link #acquire()}: an open MCP connection
 * holds one, so that calls back to back never wait for a new thread) or a task is pending; otherwise it ends
 * {@value #KEEP_ALIVE_SECONDS} s after its last task. {@link #leases()} lets tests prove every holder gave its lease
 * back. Thread-safe.
 */
public final class SharedTimer {

    private static final long KEEP_ALIVE_SECONDS = 5;
    private static final ScheduledThreadPoolExecutor TIMER = newTimer();
    private static int leases;

    private SharedTimer() {
    }

    /** The timer, for a task that needs no lease (it keeps the thread alive until it has run or is cancelled). */
    public static ScheduledExecutorService timer() {
        return TIMER;
    }

    /** Takes a lease, which keeps the thread alive until it is given back with {@link #release()}; returns the timer. */
    public static synchronized ScheduledExecutorService acquire() {
        if (leases++ == 0) {
            TIMER.allowCoreThreadTimeOut(false);
        }
        return TIMER;
    }

    /** Gives a lease back; with none left, the thread ends once it has been idle for a few seconds. */
    public static synchronized void release() {
        if (leases == 0) {
            return;
        }
        if (--leases == 0) {
            TIMER.allowCoreThreadTimeOut(true);
        }
    }

    /** How many leases are held (for tests). */
    public static synchronized int leases() {
        return leases;
    }

    private static ScheduledThreadPoolExecutor newTimer() {
        ScheduledThreadPoolExecutor timer = DaemonThreads.timer("meta-supervisor-timer");
        timer.setKeepAliveTime(KEEP_ALIVE_SECONDS, TimeUnit.SECONDS);
        timer.allowCoreThreadTimeOut(true);
        return timer;
    }
}
