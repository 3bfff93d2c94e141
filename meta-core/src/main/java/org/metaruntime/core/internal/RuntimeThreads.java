package org.metaruntime.core.internal;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.metaruntime.supervisor.Scheduler;
import org.metaruntime.supervisor.internal.DaemonThreads;

/**
 * The runtime's threads: the executor of blocking module I/O and the scheduler of restarts, each either the host's
 * (never shut down here) or the runtime's own (released on {@link #release()}). Thread-safe.
 */
public final class RuntimeThreads {

    private static final AtomicInteger RUNTIME_IDS = new AtomicInteger();

    private final int runtimeId = RUNTIME_IDS.incrementAndGet();
    private final Executor executor;
    private final ExecutorService ownedExecutor;
    private final Scheduler scheduler;
    private final boolean ownsScheduler;

    /** @param executor the host's executor, or null for an own daemon pool; same for {@code scheduler} */
    public RuntimeThreads(Executor executor, Scheduler scheduler) {
        if (executor != null) {
            this.executor = executor;
            this.ownedExecutor = null;
        } else {
            this.ownedExecutor = Executors.newCachedThreadPool(DaemonThreads.numbered("meta-core-" + runtimeId + "-worker-"));
            this.executor = ownedExecutor;
        }
        this.ownsScheduler = scheduler == null;
        this.scheduler = ownsScheduler ? Scheduler.daemon() : scheduler;
    }

    public int runtimeId() {
        return runtimeId;
    }

    public Executor executor() {
        return executor;
    }

    public Scheduler scheduler() {
        return scheduler;
    }

    /** Shuts down what the runtime owns. */
    public void release() {
        if (ownsScheduler) {
            scheduler.close();
        }
        if (ownedExecutor != null) {
            ownedExecutor.shutdownNow();
        }
    }

}
