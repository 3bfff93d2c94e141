package org.metaruntime.core.internal;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.metaruntime.core.RuntimeBoundaryError;
import org.metaruntime.core.RuntimeFromConfigError;
import org.metaruntime.core.RuntimeFromConfigException;
import org.metaruntime.core.RuntimeOptions;
import org.metaruntime.core.StartMode;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.supervisor.ModuleHealthTransition;
import org.metaruntime.supervisor.ProcessBoundaryError;
import org.metaruntime.supervisor.Scheduler;
import org.metaruntime.supervisor.StopLadder;
import org.metaruntime.supervisor.internal.DaemonThreads;
import org.metaruntime.supervisor.internal.Failures;
import org.metaruntime.supervisor.internal.health.ChildFailure;
import org.metaruntime.supervisor.internal.health.ModuleSupervisor;
import org.metaruntime.supervisor.internal.health.StartAttempt;
import org.metaruntime.supervisor.internal.health.StartupOutcome;
import org.metaruntime.supervisor.internal.health.StartupPolicy;
import org.metaruntime.supervisor.internal.health.StartupProcedure;
import org.metaruntime.supervisor.internal.health.SupervisionListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts modules: runs a module's startup procedure, puts a supervisor over its outcome and watches the kept child
 * so that its failures reach the supervisor. Startup of the discovered modules runs in parallel; each module's
 * block of transitions and events is appended whole, in discovery order. Thread-safe.
 */
public final class ModuleStartup {

    private static final Logger LOG = LoggerFactory.getLogger(ModuleStartup.class);

    private final RuntimeOptions options;
    private final RuntimeEvents events;
    private final RuntimeThreads threads;
    private final Clock clock;
    private final HealthPings pings;

    public ModuleStartup(RuntimeOptions options, RuntimeEvents events, RuntimeThreads threads, Clock clock) {
        this.options = Objects.requireNonNull(options, "options");
        this.events = Objects.requireNonNull(events, "events");
        this.threads = Objects.requireNonNull(threads, "threads");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.pings = new HealthPings(threads.scheduler(), threads.executor());
    }

    /** Starts {@code discovered} in parallel (bounded), then appends their blocks in order. */
    public void startAll(List<ModuleSlot> discovered) {
        discovered.forEach(ModuleSlot::buffer);
        int parallelism = Math.max(1, Math.min(options.startup().parallelism(), discovered.size()));
        ExecutorService pool = Executors.newFixedThreadPool(parallelism,
                DaemonThreads.numbered("meta-core-" + threads.runtimeId() + "-startup-"));
        try {
            List<CompletableFuture<Void>> starts = new ArrayList<>();
            for (ModuleSlot slot : discovered) {
                if (slot.module().startMode() == StartMode.LAZY) {
                    slot.idle();
                    continue;
                }
                starts.add(CompletableFuture.runAsync(
                        () -> start(slot, options.startupTimeoutFor(slot.module())), pool));
            }
            for (CompletableFuture<Void> start : starts) {
                try {
                    start.join();
                } catch (CompletionException e) {
                    LOG.error("module startup failed unexpectedly", Failures.unwrap(e));
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Appends the blocks buffered by {@link #startAll}, in the order given. */
    public void flush(List<ModuleSlot> discovered) {
        for (ModuleSlot slot : discovered) {
            slot.flush(events::appendTransition, events::insert);
        }
    }

    /**
     * Starts (or respawns) one module, appending a new block of transitions; an old supervisor and its child are
     * stopped first.
     *
     * @return the module's ready event
     * @throws RuntimeFromConfigException {@code Runtime(<boundary error>)} when the startup ended {@code Stopped}
     */
    public EventEnvelope<UnifiedEvent> respawn(ModuleSlot slot, Duration timeout) {
        slot.supervisor().ifPresent(ModuleSupervisor::close);
        StartupOutcome<ModuleChild> outcome = start(slot, timeout);
        if (!outcome.loaded()) {
            Exception failure = outcome.lastFailure();
            if (failure instanceof BoundaryFailure boundary) {
                throw new RuntimeFromConfigException(slot.id(), new RuntimeFromConfigError.Runtime(boundary.error()),
                        boundary.exitCode(), boundary.stderrTail(), failure);
            }
            throw new RuntimeFromConfigException(slot.id(), new RuntimeFromConfigError.Runtime(
                    new RuntimeBoundaryError.Process(new ProcessBoundaryError.Io(failure == null
                            ? "the startup was interrupted" : String.valueOf(failure.getMessage())))), failure);
        }
        return slot.readyEvent();
    }

    /** Runs the startup procedure of {@code slot} and puts a supervisor over its outcome. */
    public StartupOutcome<ModuleChild> start(ModuleSlot slot, Duration timeout) {
        String id = slot.id();
        ModuleRouter router = slot.router();
        slot.starting();
        StartupPolicy policy = new StartupPolicy(router.startupPolicy(), options.startup().onFailureRetryBudget(),
                options.startup().alwaysRestartBudget(), options.startup().restartBackoff());
        StopLadder graces = options.stopLadderFor(slot.module());
        LOG.info("module '{}': starting ({} boundary, restart policy {}{})", id, router.kind(),
                slot.module().restartPolicy().jsonName(), router.restartable() ? "" : ", not restarted after a failure");
        StartAttempt<ModuleChild> attempt = n -> router.start(timeout);
        // the startup's backoff blocks start() (or restartModule), so it is timed by the library's own timer: a host's
        // manual scheduler could only be advanced by the thread that start() holds
        StartupOutcome<ModuleChild> outcome = StartupProcedure.run(id, policy, attempt, child -> child.stop(graces),
                t -> slot.transition(t, events::appendTransition), Scheduler.shared(), clock);
        Watcher watcher = new Watcher(slot);
        ModuleSupervisor<ModuleChild> supervisor = ModuleSupervisor.builder(id, attempt, child -> child.stop(graces))
                .restartable(router.restartable())
                .options(options.supervision())
                .clock(clock)
                .scheduler(threads.scheduler())
                .attemptExecutor(threads.executor())
                .listener(watcher)
                .start(outcome);
        watcher.supervisor.complete(supervisor);
        if (!outcome.loaded()) {
            Exception failure = outcome.lastFailure();
            slot.startFailed(supervisor, failure);
            LOG.warn("module '{}' is not loaded: {}", id, failure == null ? "startup interrupted" : failure.getMessage());
            if (failure != null) {
                warn(slot, failure instanceof BoundaryFailure boundary ? boundary.toChildFailure()
                        : ChildFailure.of(failure), ErrorCodes.of(failure));
            }
        }
        return outcome;
    }

    /** The failure of a remote module whose session was lost. */
    private static ChildFailure lost(String moduleId, String reason) {
        return new ChildFailure("module '" + moduleId + "' lost its session: " + reason, java.util.OptionalInt.empty(), "",
                new org.metaruntime.mcp.McpBoundaryException(new org.metaruntime.mcp.McpBoundaryError.ConnectionFailed(
                        moduleId, reason)));
    }

    private void warn(ModuleSlot slot, ChildFailure failure, String errorType) {
        slot.event(events.warning(slot.id(), failure, errorType), events::insert);
    }

    /** Watches each adopted child and reports its failures to the module's supervisor. */
    private final class Watcher implements SupervisionListener<ModuleChild> {
        private final ModuleSlot slot;
        private final CompletableFuture<ModuleSupervisor<ModuleChild>> supervisor = new CompletableFuture<>();

        Watcher(ModuleSlot slot) {
            this.slot = slot;
        }

        @Override
        public void onTransition(ModuleHealthTransition transition) {
            slot.transition(transition, events::appendTransition);
        }

        @Override
        public void onAdopted(ModuleChild child, int attempt) {
            EventEnvelope<UnifiedEvent> ready = slot.router().readyEvent(child, events);
            slot.readyEvent(ready);
            supervisor.thenAccept(slot::loaded);
            slot.event(ready, events::insert);
            child.exit().thenAcceptBoth(supervisor, (exit, sup) -> {
                // Once the runtime shuts down, an exit is its doing (its stop may have begun before the supervisor
                // was closed): no failure, no restart.
                if (!exit.requestedByRuntime() && slot.membership().phase() != ModuleSlot.Phase.SHUT_DOWN
                        && slot.router().isFailure(exit)) {
                    sup.childFailed(child, exit.lostReason() != null ? lost(slot.id(), exit.lostReason())
                            : ChildFailure.exited(exit.exitCode().orElse(-1), exit.stderrTail()));
                }
            });
            pings.watch(slot, child, supervisor);
        }

        @Override
        public void onFailure(String moduleId, ChildFailure failure) {
            warn(slot, failure, failure.cause() != null ? ErrorCodes.of(failure.cause())
                    : failure.exitCode().isPresent() ? "process.exited" : ErrorCodes.UNKNOWN);
        }

        @Override
        public void onStopped(String moduleId, ChildFailure lastFailure) {
            warn(slot, new ChildFailure("module '" + moduleId + "' was stopped after more than "
                    + options.supervision().maxRestarts() + " restarts within "
                    + options.supervision().restartWindow() + "; last failure: " + lastFailure.reason(),
                    lastFailure.exitCode(), lastFailure.stderrTail(), lastFailure.cause()),
                    ErrorCodes.RESTART_INTENSITY_EXCEEDED);
        }
    }
}
