package org.metaruntime.core.internal;

import java.util.Optional;
import org.metaruntime.core.RuntimeOptions;
import org.metaruntime.core.RuntimeShutdownReport;
import org.metaruntime.events.LifecycleStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The end of a runtime, once: the JVM shutdown hook (when {@link RuntimeOptions#shutdownHook()}), then, on the first
 * {@link #run()}, {@code ShutdownRequested}, the modules stopped ({@link ShutdownSequence}), the threads, the event
 * store and the persistence released, the hook removed, {@code ShutdownComplete}; later calls return the first
 * report. Thread-safe.
 */
public final class RuntimeShutdown {

    private static final Logger LOG = LoggerFactory.getLogger(RuntimeShutdown.class);

    private final ModuleRegistry registry;
    private final RuntimeOptions options;
    private final CallRouter calls;
    private final RuntimeThreads threads;
    private final RuntimeEvents events;
    private final RuntimePersistence persistence;
    private final Thread hook;
    private volatile RuntimeShutdownReport report;

    public RuntimeShutdown(ModuleRegistry registry, RuntimeOptions options, CallRouter calls, RuntimeThreads threads,
                           RuntimeEvents events, RuntimePersistence persistence) {
        this.registry = registry;
        this.options = options;
        this.calls = calls;
        this.threads = threads;
        this.events = events;
        this.persistence = persistence;
        this.hook = options.shutdownHook()
                ? new Thread(this::run, "meta-core-" + threads.runtimeId() + "-shutdown-hook") : null;
    }

    /** Registers the JVM shutdown hook, when the options ask for one. */
    public void installHook() {
        if (hook != null) {
            Runtime.getRuntime().addShutdownHook(hook);
        }
    }

    /** Shuts the runtime down on the first call; returns the first call's report. */
    public synchronized RuntimeShutdownReport run() {
        if (report != null) {
            return report;
        }
        events.lifecycle(LifecycleStage.SHUTDOWN_REQUESTED);
        RuntimeShutdownReport done = ShutdownSequence.run(registry, options, calls);
        threads.release();
        events.close();
        persistence.close();
        if (hook != null && Thread.currentThread() != hook) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException jvmShuttingDown) {
                LOG.debug("the JVM is shutting down; the shutdown hook stays");
            }
        }
        events.lifecycle(LifecycleStage.SHUTDOWN_COMPLETE);
        report = done;
        LOG.info("runtime shut down: {}", done);
        return done;
    }

    /** The report, empty before {@link #run()} has finished. */
    public Optional<RuntimeShutdownReport> report() {
        return Optional.ofNullable(report);
    }

    /** Whether the runtime has been shut down. */
    public boolean isDone() {
        return report != null;
    }
}
