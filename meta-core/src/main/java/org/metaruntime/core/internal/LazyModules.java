package org.metaruntime.core.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.metaruntime.core.RuntimeOptions;
import org.metaruntime.core.StartMode;
import org.metaruntime.supervisor.Scheduler;
import org.metaruntime.supervisor.internal.health.ModuleSupervisor;
import org.metaruntime.supervisor.internal.health.StartupOutcome;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lazy modules: the first call to an idle module runs its startup (concurrent calls share it) and, with an idle
 * timeout, the child is stopped once no call has been in flight for that long. An idle stop is the runtime's own
 * stop: no transition, no event. A module has at most one idle task on the scheduler: a call that ends while it
 * waits only moves the time the module has been idle since, and the task, when it runs early for that, waits again
 * for the rest, so calls cost the scheduler nothing. Thread-safe.
 */
public final class LazyModules {

    private static final Logger LOG = LoggerFactory.getLogger(LazyModules.class);

    private final ModuleStartup startup;
    private final RuntimeOptions options;
    private final Scheduler scheduler;
    private final Executor executor;
    private final Map<String, State> states = new ConcurrentHashMap<>();
    /** The threads running a startup, with the startup's future; guarded by itself. */
    private final Map<Thread, CompletableFuture<Void>> running = new HashMap<>();
    private boolean shuttingDown; // guarded by running

    public LazyModules(ModuleStartup startup, RuntimeOptions options, Scheduler scheduler, Executor executor) {
        this.startup = Objects.requireNonNull(startup, "startup");
        this.options = Objects.requireNonNull(options, "options");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    /** The per-module record of a lazy module's startup and calls. */
    private static final class State {
        CompletableFuture<Void> starting;
        int inFlight;
        /** Counts the calls admitted: a call started since the idle task was armed changes it. */
        long generation;
        /** Whether the module's idle task waits on the scheduler. */
        boolean idleTaskArmed;
        /** {@link #generation} when the idle task was armed. */
        long armedGeneration;
        /** When the last call ended with none left in flight, on the scheduler's clock. */
        long idleSinceNanos;
    }

    private State state(ModuleSlot slot) {
        return states.computeIfAbsent(slot.id(), id -> new State());
    }

    /**
     * Admits a call to {@code slot}: counts it in flight and completes when the module has a child — at once for a
     * started module, else after the startup this call runs or shares. Fails with the startup's failure when it
     * ended {@code Stopped}. Every admitted call must be followed by {@link #callEnded}.
     */
    public CompletableFuture<Void> admit(ModuleSlot slot) {
        if (slot.module().startMode() != StartMode.LAZY) {
            return CompletableFuture.completedFuture(null);
        }
        State state = state(slot);
        CompletableFuture<Void> start;
        synchronized (state) {
            state.inFlight++;
            state.generation++;
            if (state.starting != null) {
                return state.starting;
            }
            if (slot.membership().phase() != ModuleSlot.Phase.IDLE) {
                return CompletableFuture.completedFuture(null);
            }
            start = new CompletableFuture<>();
            state.starting = start;
        }
        try {
            executor.execute(() -> runStartup(slot, state, start));
        } catch (RejectedExecutionException e) {
            finish(state, start, e);
        }
        return start;
    }

    private void runStartup(ModuleSlot slot, State state, CompletableFuture<Void> start) {
        Thread thread = Thread.currentThread();
        synchronized (running) {
            if (shuttingDown) {
                finish(state, start, new IllegalStateException("the runtime is shutting down"));
                return;
            }
            running.put(thread, start);
        }
        Exception failure = null;
        try {
            synchronized (slot.lifecycleLock()) {
                if (slot.membership().phase() == ModuleSlot.Phase.IDLE) {
                    StartupOutcome<ModuleChild> outcome = startup.start(slot, options.startupTimeoutFor(slot.module()));
                    if (!outcome.loaded()) {
                        ModuleSupervisor<ModuleChild> failed = slot.idle();
                        if (failed != null) {
                            failed.close();
                        }
                        failure = outcome.lastFailure() != null ? outcome.lastFailure()
                                : new IllegalStateException("the startup of module '" + slot.id() + "' was interrupted");
                    }
                }
            }
        } catch (RuntimeException e) {
            failure = e;
        } finally {
            synchronized (running) {
                running.remove(thread);
                if (shuttingDown) {
                    Thread.interrupted();   // the interrupt was the shutdown's, not the executor's owner's
                }
            }
        }
        finish(state, start, failure);
    }

    /**
     * The runtime is shutting down: interrupts every startup in progress, which cancels its attempt and stops the
     * child it started, and refuses the startups not yet running. Returns a future per interrupted startup that
     * completes (normally) when it has ended.
     */
    public List<CompletableFuture<Void>> interruptStartups() {
        synchronized (running) {
            shuttingDown = true;
            List<CompletableFuture<Void>> ended = new ArrayList<>();
            running.forEach((thread, start) -> {
                thread.interrupt();
                ended.add(start.handle((done, failure) -> null));
            });
            return ended;
        }
    }

    private static void finish(State state, CompletableFuture<Void> start, Exception failure) {
        synchronized (state) {
            state.starting = null;
        }
        if (failure == null) {
            start.complete(null);
        } else {
            start.completeExceptionally(failure);
        }
    }

    /** A call to {@code slot} ended; with none left in flight, the module is idle from now on. */
    public void callEnded(ModuleSlot slot) {
        if (slot.module().startMode() != StartMode.LAZY) {
            return;
        }
        Duration idleTimeout = slot.module().idleTimeout().orElse(null);
        State state = state(slot);
        synchronized (state) {
            state.inFlight--;
            if (state.inFlight > 0 || idleTimeout == null) {
                return;
            }
            state.idleSinceNanos = scheduler.nanoTime();
            if (state.idleTaskArmed) {
                return;
            }
            armIdleTask(state);
        }
        schedule(slot, state, idleTimeout);
    }

    /** Marks the idle task armed for the calls admitted so far; the caller schedules it. Holds {@code state}. */
    private static void armIdleTask(State state) {
        state.idleTaskArmed = true;
        state.armedGeneration = state.generation;
    }

    private void schedule(ModuleSlot slot, State state, Duration delay) {
        try {
            scheduler.schedule(() -> executor.execute(() -> stopIfIdle(slot, state)), delay);
        } catch (RejectedExecutionException shuttingDown) {
            synchronized (state) {
                state.idleTaskArmed = false;
            }
            LOG.debug("module '{}': the runtime is shutting down; no idle stop", slot.id());
        }
    }

    /**
     * The idle task: stops the child when none is in flight and no call started since the task was armed, or the
     * module has been idle for the whole idle timeout; waits again for the rest of it when calls came and went.
     */
    private void stopIfIdle(ModuleSlot slot, State state) {
        Duration idleTimeout = slot.module().idleTimeout().orElse(null);
        Duration rest;
        synchronized (slot.lifecycleLock()) {
            ModuleSupervisor<ModuleChild> supervisor;
            synchronized (state) {
                state.idleTaskArmed = false;
                if (idleTimeout == null || state.inFlight > 0 || state.starting != null
                        || slot.membership().phase() != ModuleSlot.Phase.LOADED) {
                    return; // the end of the calls in flight arms it again
                }
                long idleNanos = scheduler.nanoTime() - state.idleSinceNanos;
                if (state.generation != state.armedGeneration && idleNanos < idleTimeout.toNanos()) {
                    armIdleTask(state);
                    rest = idleTimeout.minusNanos(idleNanos);
                    supervisor = null;
                } else {
                    rest = null;
                    supervisor = slot.idle();
                }
            }
            if (rest != null) {
                schedule(slot, state, rest);
                return;
            }
            if (supervisor == null) {
                return;
            }
            LOG.info("module '{}': idle for {}, stopping its child", slot.id(), idleTimeout);
            java.util.Optional<ModuleChild> child = supervisor.currentChild();
            supervisor.close();
            child.ifPresent(c -> c.stop(options.stopLadderFor(slot.module())));
        }
    }
}
