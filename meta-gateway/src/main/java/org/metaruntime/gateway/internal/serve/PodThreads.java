package org.metaruntime.gateway.internal.serve;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.metaruntime.supervisor.Scheduler;
import org.metaruntime.supervisor.internal.DaemonThreads;

/**
 * The threads every pod's runtime shares, owned by the gateway's pods and released once they are all stopped: the
 * gateway's own pod tasks (starts, tool list refreshes, resource and prompt requests: at most four at once), the
 * runtimes' blocking module I/O, and the runtimes' scheduler (restarts, pings). Thread-safe.
 */
final class PodThreads implements AutoCloseable {

    private final ExecutorService tasks;
    private final ExecutorService io;
    private final Scheduler scheduler = Scheduler.daemon();

    PodThreads() {
        ThreadPoolExecutor bounded = new ThreadPoolExecutor(4, 4, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                DaemonThreads.numbered("meta-gateway-pods-"));
        bounded.allowCoreThreadTimeOut(true);
        this.tasks = bounded;
        this.io = Executors.newCachedThreadPool(DaemonThreads.numbered("meta-gateway-pod-io-"));
    }

    /** The gateway's pod tasks: four threads, which end when idle for 30 s. */
    ExecutorService tasks() {
        return tasks;
    }

    /** The runtimes' executor of blocking module I/O. */
    ExecutorService io() {
        return io;
    }

    /** The runtimes' scheduler. */
    Scheduler scheduler() {
        return scheduler;
    }

    @Override
    public void close() {
        scheduler.close();
        tasks.shutdownNow();
        io.shutdownNow();
    }

}
