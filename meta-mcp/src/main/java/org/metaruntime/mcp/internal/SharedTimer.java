package org.metaruntime.mcp.internal;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import org.metaruntime.supervisor.internal.DaemonThreads;

/**
 * The one timer thread ({@code meta-mcp-timer}, daemon) shared by every open MCP connection. It exists only
 * while at least one connection holds a lease, so no thread of this module outlives the last connection.
 * Thread-safe.
 */
public final class SharedTimer {

    private static ScheduledThreadPoolExecutor executor;
    private static int leases;

    private SharedTimer() {
    }

    /** Takes a lease and returns the shared timer; give the lease back with {@link #release()}. */
    public static synchronized ScheduledExecutorService acquire() {
        if (executor == null) {
            ScheduledThreadPoolExecutor e = new ScheduledThreadPoolExecutor(1, DaemonThreads.named("meta-mcp-timer"));
            e.setRemoveOnCancelPolicy(true);
            e.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
            executor = e;
        }
        leases++;
        return executor;
    }

    /** Gives a lease back; the thread stops when the last lease is returned. */
    public static synchronized void release() {
        if (leases == 0) {
            return;
        }
        leases--;
        if (leases == 0) {
            executor.shutdownNow();
            executor = null;
        }
    }

    /** How many leases are held (for tests). */
    public static synchronized int leases() {
        return leases;
    }
}
