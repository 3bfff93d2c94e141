package org.metaruntime.core.internal;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpBoundaryException;
import org.metaruntime.supervisor.Scheduler;
import org.metaruntime.supervisor.internal.Failures;
import org.metaruntime.supervisor.internal.health.ChildFailure;
import org.metaruntime.supervisor.internal.health.ModuleSupervisor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Health-check pings of MCP modules: for each adopted MCP child whose module has a
 * {@linkplain org.metaruntime.core.ModuleConfig#healthCheckInterval() health-check interval}, an MCP {@code ping}
 * every interval on the runtime's scheduler; a ping not answered within the interval is a miss, and {@value #MISSES}
 * misses in a row are reported to the module's supervisor as a failure of that child (which restarts it by its
 * policy). An answer (a JSON-RPC error too) resets the count. The pings of a child end with the child. Thread-safe.
 */
public final class HealthPings {

    /** Misses in a row that make a failure. */
    public static final int MISSES = 3;

    private static final Logger LOG = LoggerFactory.getLogger(HealthPings.class);

    private final Scheduler scheduler;
    private final java.util.concurrent.Executor executor;

    /** Pings on {@code scheduler}; a failure is reported on {@code executor} (stopping the child may block). */
    public HealthPings(Scheduler scheduler, java.util.concurrent.Executor executor) {
        this.scheduler = scheduler;
        this.executor = executor;
    }

    /** Starts pinging {@code child} of {@code slot} when its module asks for it; does nothing otherwise. */
    public void watch(ModuleSlot slot, ModuleChild child, CompletableFuture<ModuleSupervisor<ModuleChild>> supervisor) {
        Optional<Duration> interval = slot.module().healthCheckInterval();
        if (interval.isEmpty() || !(child instanceof McpChild) || child.exit().isDone()) {
            return;
        }
        new Watch(slot.id(), ((McpChild) child).session(), interval.get(), child, supervisor).next();
    }

    /** A JSON-RPC error is an answer: the server is there (a bare JSON-RPC server may not know {@code ping}). */
    private static boolean answered(Throwable cause) {
        return cause instanceof McpBoundaryException
                && ((McpBoundaryException) cause).error() instanceof McpBoundaryError.JsonRpcError;
    }

    /** The pings of one child. */
    private final class Watch {
        private final String moduleId;
        private final McpSession session;
        private final Duration interval;
        private final ModuleChild child;
        private final CompletableFuture<ModuleSupervisor<ModuleChild>> supervisor;
        private final AtomicInteger misses = new AtomicInteger();
        private final AtomicBoolean failed = new AtomicBoolean();

        Watch(String moduleId, McpSession session, Duration interval, ModuleChild child,
              CompletableFuture<ModuleSupervisor<ModuleChild>> supervisor) {
            this.moduleId = moduleId;
            this.session = session;
            this.interval = interval;
            this.child = child;
            this.supervisor = supervisor;
        }

        private boolean over() {
            return failed.get() || child.exit().isDone() || !session.isOpen();
        }

        void next() {
            if (over()) {
                return;
            }
            try {
                scheduler.schedule(this::ping, interval);
            } catch (RejectedExecutionException e) {
                LOG.debug("module '{}': health-check pings end: the scheduler is closed", moduleId);
            }
        }

        private void ping() {
            if (over()) {
                return;
            }
            session.pingAsync(interval).whenComplete((ok, error) -> {
                Throwable cause = Failures.unwrap(error);
                if (error == null || answered(cause)) {
                    misses.set(0);
                    return;
                }
                if (over()) {
                    return;
                }
                int n = misses.incrementAndGet();
                LOG.warn("module '{}': health-check ping missed ({} of {} in a row): {}", moduleId, n, MISSES,
                        cause.getMessage());
                if (n >= MISSES && failed.compareAndSet(false, true)) {
                    ChildFailure failure = new ChildFailure("module '" + moduleId + "' missed " + MISSES
                            + " health-check pings in a row (one every " + interval.toMillis() + " ms); last: "
                            + cause.getMessage(), OptionalInt.empty(), child.stderrTail(), cause);
                    supervisor.thenAcceptAsync(sup -> sup.childFailed(child, failure), executor);
                }
            });
            next();
        }
    }
}
