package org.metaruntime.supervisor.internal.health;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import java.util.function.Function;
import org.metaruntime.supervisor.ModuleException;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.supervisor.ModuleSupervisorReport;
import org.metaruntime.supervisor.Scheduler;
import org.metaruntime.supervisor.SupervisionOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Supervises one module after startup: it holds the module's
 * current child, turns a reported failure into health transitions and, when the module is restartable, restarts it
 * with exponential backoff, jitter and a cap, within a restart intensity.
 *
 * <p>A failure of the current child at attempt {@code n} records {@code (Healthy → Failed, n+1)} and tells the
 * listeners (for the {@code supervisor.warning} event). A restartable module then records
 * {@code (Failed → Restarting, n+1)}, waits the backoff on the {@link Scheduler}, runs the restart attempt
 * {@code n+2} and records {@code (Restarting → Healthy, n+2)} (the new child is adopted) or
 * {@code (Restarting → Failed, n+2)} and applies the same rule again. When more than
 * {@link SupervisionOptions#maxRestarts()} restarts would fall in one sliding
 * {@link SupervisionOptions#restartWindow()}, it records {@code (Failed → Stopped)} instead. A module that is not
 * restartable stays {@code Failed}. A stopped or failed module is restarted only by hand ({@link #restartNow()}).
 *
 * <p>A failure reported for a child that is not the current one (an earlier incarnation, or a child the supervisor
 * stopped itself) is ignored: an exit the runtime caused is never a failure. {@link #close()} stops supervising and
 * records no transition.
 *
 * <p>Thread-safe. Each state change is one atomic step; listeners are told after it, in order. The backoff is
 * waited on the {@link Scheduler}; a scheduled restart attempt then runs on the attempt executor (by default a
 * short-lived daemon thread), and {@link #restartNow()} runs its attempt on the caller's thread. A restart attempt
 * is bounded by its own startup timeout; {@link #close()} does not wait for it.
 *
 * <pre>{@code
 * StartupOutcome<Child> outcome = StartupProcedure.run(id, policy, attempt, Child::stop, log::add);
 * ModuleSupervisor<Child> supervisor = ModuleSupervisor.builder(id, attempt, Child::stop)
 *         .restartable(policy.policy() != RestartPolicy.NEVER)
 *         .scheduler(sharedScheduler)
 *         .listener(listener)            // onAdopted: watch the child and call supervisor.childFailed(...)
 *         .start(outcome);
 * if (!supervisor.acceptsCalls()) {
 *     throw moduleUnavailable(id, supervisor.state());
 * }
 * }</pre>
 *
 * @param <C> what a child is
 */
public final class ModuleSupervisor<C> implements AutoCloseable {

    /**
     * The logger of the health engine's warnings (a failed child, a failed restart, a throwing listener): one name
     * that hosts configure, under the supervisor's public package rather than the engine's internal classes.
     */
    static final String LOGGER = "org.metaruntime.supervisor.health";

    private static final Logger LOG = LoggerFactory.getLogger(LOGGER);

    private final SupervisorSettings<C> settings;
    private final String moduleId;
    private final ListenerFanout<C> listeners;
    private final HealthMachine machine;

    private final Object lock = new Object();
    private final RestartPlanner planner;
    private final RestartRunner runner;
    private int restarts;
    private ChildFailure lastFailure;
    private C current;
    private boolean closed;

    private ModuleSupervisor(SupervisorSettings<C> settings, ModuleHealthState state, C child, int attempt,
                             ChildFailure failure) {
        this.settings = settings;
        this.moduleId = settings.moduleId();
        this.listeners = new ListenerFanout<>(moduleId, settings.listeners());
        this.machine = new HealthMachine(moduleId, settings.clock(), listeners::transition, state, attempt);
        this.planner = new RestartPlanner(settings.options(), settings.clock(), settings.jitterSource());
        this.runner = new RestartRunner(moduleId, settings.scheduler(), settings.attemptExecutor());
        this.current = child;
        this.lastFailure = failure;
    }

    /**
     * A builder for the supervisor of {@code moduleId}.
     *
     * @param moduleId       the module
     * @param restartAttempt starts a new child for a restart (the same attempt the startup procedure used)
     * @param stopChild      stops a child the supervisor lets go of; an exception it throws is logged and ignored
     */
    public static <C> Builder<C> builder(String moduleId, StartAttempt<? extends C> restartAttempt,
                                         Consumer<? super C> stopChild) {
        return new Builder<>(moduleId, restartAttempt, stopChild);
    }

    /** A healthy supervisor holding {@code child}; listeners are told it was adopted before this returns. */
    private static <C> ModuleSupervisor<C> adopting(SupervisorSettings<C> settings, C child, int attempt) {
        Objects.requireNonNull(child, "child");
        if (attempt < 1) {
            throw new IllegalArgumentException("a kept child has an attempt >= 1: " + attempt);
        }
        ModuleSupervisor<C> supervisor = new ModuleSupervisor<>(settings, ModuleHealthState.HEALTHY, child, attempt, null);
        supervisor.listeners.adopted(supervisor.machine, child, attempt);
        supervisor.machine.deliver();
        return supervisor;
    }

    /** A supervisor continuing from {@code outcome}: adopting its child, or stopped with its failure. */
    private static <C> ModuleSupervisor<C> continuing(SupervisorSettings<C> settings,
                                                      StartupOutcome<? extends C> outcome) {
        Objects.requireNonNull(outcome, "outcome");
        if (!outcome.moduleId().equals(settings.moduleId())) {
            throw new IllegalArgumentException("the outcome is for module '" + outcome.moduleId()
                    + "', not '" + settings.moduleId() + "'");
        }
        if (outcome.loaded()) {
            return adopting(settings, outcome.child(), outcome.attempts());
        }
        return new ModuleSupervisor<>(settings, ModuleHealthState.STOPPED, null, outcome.attempts(),
                outcome.failure().orElse(null));
    }

    /**
     * Reports that {@code child} failed. Ignored (returns {@code false}) when {@code child} is not the current child
     * (a stale incarnation, or one the supervisor already let go of), when the module is not healthy, or after
     * {@link #close()}; reported several times, the same failure counts once. Otherwise records
     * {@code (Healthy → Failed, n+1)}, tells the listeners, stops the child and applies the restart rule.
     *
     * @return whether the failure was taken into account
     */
    public boolean childFailed(C child, ChildFailure failure) {
        Objects.requireNonNull(child, "child");
        Objects.requireNonNull(failure, "failure");
        synchronized (lock) {
            if (closed || current != child) {
                LOG.debug("module '{}': ignored a failure of a child that is not current: {}", moduleId, failure.reason());
                return false;
            }
            LOG.warn("module '{}': child failed at attempt {}: {}", moduleId, machine.attempt(), failure.reason());
            current = null;
            fail(failure, machine.attempt() + 1);
        }
        machine.deliver();
        stop(child);
        return true;
    }

    /**
     * Restarts the module by hand, from {@code Stopped}, {@code Failed} or {@code Healthy}: forgets the restarts
     * counted by the intensity window, records {@code (state → Restarting, n)}, stops the current child if any and
     * runs restart attempt {@code n+1} on the calling thread.
     *
     * @return the state after the attempt ({@code HEALTHY}, or what the restart rule made of the failure)
     * @throws IllegalStateException when the module is restarting already, or the supervisor is closed
     */
    public ModuleHealthState restartNow() {
        C old;
        long ticket;
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("module '" + moduleId + "': the supervisor is closed");
            }
            ModuleHealthState state = machine.state();
            if (state == ModuleHealthState.RESTARTING) {
                throw new IllegalStateException("module '" + moduleId + "' cannot be restarted by hand while "
                        + state.jsonName());
            }
            LOG.info("module '{}': manual restart from {}", moduleId, state.jsonName());
            planner.reset();
            old = current;
            current = null;
            restarts += 1;
            machine.move(ModuleHealthState.RESTARTING, machine.attempt());
            ticket = runner.newTicket();
        }
        machine.deliver();
        stop(old);
        runAttempt(ticket);
        return machine.state();
    }

    /**
     * Stops supervising: cancels a pending restart, stops the current child (an exit this causes is not a failure),
     * and closes the scheduler if the supervisor created it. A restart attempt still running stops its child when
     * it returns. Records no transition. Idempotent.
     */
    @Override
    public void close() {
        C child;
        Scheduler.Cancellable pendingRestart;
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            pendingRestart = runner.dropAll();
            child = current;
            current = null;
        }
        if (pendingRestart != null) {
            pendingRestart.cancel();
        }
        stop(child);
        runner.close();
    }

    /** The module. */
    public String moduleId() {
        return moduleId;
    }

    /** The current health state. */
    public ModuleHealthState state() {
        return machine.state();
    }

    /** The attempt number of the last transition. */
    public int attempt() {
        return machine.attempt();
    }

    /** Restarts made after startup, automatic and manual. */
    public int restarts() {
        synchronized (lock) {
            return restarts;
        }
    }

    /** The last failure, empty when the module never failed. */
    public Optional<ChildFailure> lastFailure() {
        synchronized (lock) {
            return Optional.ofNullable(lastFailure);
        }
    }

    /** The current healthy child, empty while failed, restarting, stopped or after close. */
    public Optional<C> currentChild() {
        synchronized (lock) {
            return Optional.ofNullable(current);
        }
    }

    /** Whether calls may go to the module: it is healthy and supervised. Calls made otherwise should fail fast. */
    public boolean acceptsCalls() {
        synchronized (lock) {
            return !closed && machine.state() == ModuleHealthState.HEALTHY;
        }
    }

    /** Whether {@link #close()} was called. */
    public boolean isClosed() {
        synchronized (lock) {
            return closed;
        }
    }

    /**
     * This module's line of {@code supervisorReport()}.
     *
     * @param pidOf        the process id of a child (empty when the child is not a process)
     * @param stderrTailOf the stderr tail of a child
     */
    public ModuleSupervisorReport report(Function<? super C, OptionalLong> pidOf,
                                         Function<? super C, String> stderrTailOf) {
        Objects.requireNonNull(pidOf, "pidOf");
        Objects.requireNonNull(stderrTailOf, "stderrTailOf");
        ModuleHealthState reportedState;
        int reportedAttempt;
        int reportedRestarts;
        ChildFailure failure;
        C child;
        synchronized (lock) {
            reportedState = machine.state();
            reportedAttempt = machine.attempt();
            reportedRestarts = restarts;
            failure = lastFailure;
            child = current;
        }
        OptionalLong pid = child == null ? OptionalLong.empty() : pidOf.apply(child);
        String stderrTail = child != null ? stderrTailOf.apply(child) : failure != null ? failure.stderrTail() : "";
        return new ModuleSupervisorReport(moduleId, reportedState, reportedAttempt, pid, reportedRestarts,
                failure == null ? null : failure.reason(), stderrTail == null ? "" : stderrTail);
    }

    @Override
    public String toString() {
        synchronized (lock) {
            return "ModuleSupervisor[" + moduleId + ", " + machine.state().jsonName() + ", attempt " + machine.attempt()
                    + ", restarts " + restarts + (closed ? ", closed" : "") + "]";
        }
    }

    /** Runs restart attempt {@code n+1} unless its ticket is stale; on the runner's executor or the caller's thread. */
    private void runAttempt(long ticket) {
        int n;
        synchronized (lock) {
            if (closed || machine.state() != ModuleHealthState.RESTARTING || !runner.begin(ticket)) {
                return;
            }
            n = machine.attempt() + 1;
        }
        AttemptResult<? extends C> result = AttemptResult.run(settings.restartAttempt(), n);
        C toStop = null;
        synchronized (lock) {
            runner.end();
            if (closed) {
                toStop = result.child();
            } else if (result.succeeded()) {
                LOG.info("module '{}': restarted, healthy at attempt {}", moduleId, n);
                current = result.child();
                machine.move(ModuleHealthState.HEALTHY, n);
                listeners.adopted(machine, current, n);
            } else {
                LOG.warn("module '{}': restart attempt {} failed: {}", moduleId, n, describe(result.failure()));
                fail(ChildFailure.of(result.failure()), n);
            }
        }
        machine.deliver();
        stop(toStop);
    }

    /** A failure as a log line shows it: its message (which names the module) and, for a module's error, its code. */
    private static String describe(Throwable failure) {
        String message = failure.getMessage() != null ? failure.getMessage() : failure.getClass().getSimpleName();
        return failure instanceof ModuleException error ? message + " [" + error.code() + "]" : message;
    }

    /** Records the failure at attempt {@code n} and applies the restart rule. Holds the lock. */
    private void fail(ChildFailure failure, int n) {
        lastFailure = failure;
        machine.move(ModuleHealthState.FAILED, n);
        listeners.failed(machine, failure);
        if (!settings.restartable()) {
            return;
        }
        Optional<Duration> delay = planner.next();
        if (delay.isEmpty()) {
            LOG.warn("module '{}' stopped: {}", moduleId, planner.intensity());
            machine.move(ModuleHealthState.STOPPED, n);
            listeners.stopped(machine, failure);
            return;
        }
        restarts += 1;
        machine.move(ModuleHealthState.RESTARTING, n);
        LOG.info("module '{}': restart {} in {} ms", moduleId, restarts, delay.get().toMillis());
        runner.schedule(runner.newTicket(), delay.get(), this::runAttempt);
    }

    private void stop(C child) {
        if (child == null) {
            return;
        }
        try {
            settings.stopChild().accept(child);
        } catch (RuntimeException e) {
            LOG.warn("module '{}': stopping a child failed", moduleId, e);
        }
    }

    /**
     * Builds a {@link ModuleSupervisor}; not thread-safe. Finish with {@link #adopt} (the startup kept a child) or
     * {@link #start} (from the startup's outcome, healthy or stopped).
     *
     * @param <C> what a child is
     */
    public static final class Builder<C> {
        private final String moduleId;
        private final StartAttempt<? extends C> restartAttempt;
        private final Consumer<? super C> stopChild;
        private boolean restartable = true;
        private SupervisionOptions options = SupervisionOptions.defaults();
        private Clock clock = Clock.systemUTC();
        private Scheduler scheduler;
        private DoubleSupplier jitterSource = () -> ThreadLocalRandom.current().nextDouble();
        private Executor attemptExecutor;
        private final List<SupervisionListener<? super C>> listeners = new ArrayList<>();

        private Builder(String moduleId, StartAttempt<? extends C> restartAttempt, Consumer<? super C> stopChild) {
            this.moduleId = Objects.requireNonNull(moduleId, "moduleId");
            this.restartAttempt = Objects.requireNonNull(restartAttempt, "restartAttempt");
            this.stopChild = Objects.requireNonNull(stopChild, "stopChild");
        }

        /**
         * Whether a failure is followed by an automatic restart (default {@code true}). An MCP module in
         * {@code PERSISTENT} mode and an event-line module whose policy is not {@code NEVER} are restartable.
         */
        public Builder<C> restartable(boolean restartable) {
            this.restartable = restartable;
            return this;
        }

        /** Backoff and restart intensity (default {@link SupervisionOptions#defaults()}). */
        public Builder<C> options(SupervisionOptions options) {
            this.options = Objects.requireNonNull(options, "options");
            return this;
        }

        /** The clock of the restart window and of each transition's {@code atMs} (default {@link Clock#systemUTC()}). */
        public Builder<C> clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * The scheduler of restarts; the caller owns it and closes it. Default: the supervisor creates
         * {@link Scheduler#daemon()} and closes it on {@link ModuleSupervisor#close()}.
         */
        public Builder<C> scheduler(Scheduler scheduler) {
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
            return this;
        }

        /** Random values in {@code [0, 1)} for the jitter (default {@link ThreadLocalRandom}). */
        public Builder<C> jitterSource(DoubleSupplier jitterSource) {
            this.jitterSource = Objects.requireNonNull(jitterSource, "jitterSource");
            return this;
        }

        /**
         * Where scheduled restart attempts run. Default: a new daemon thread named
         * {@code meta-supervisor-restart-<moduleId>} per attempt, which ends with the attempt (restarts are bounded
         * by the restart intensity). Tests pass {@code Runnable::run} to run attempts on the scheduler's thread.
         */
        public Builder<C> attemptExecutor(Executor attemptExecutor) {
            this.attemptExecutor = Objects.requireNonNull(attemptExecutor, "attemptExecutor");
            return this;
        }

        /** Adds a listener. */
        public Builder<C> listener(SupervisionListener<? super C> listener) {
            listeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /**
         * A supervisor holding {@code child}, the final healthy child of the startup at attempt {@code attempt};
         * listeners are told {@link SupervisionListener#onAdopted} before this returns.
         */
        public ModuleSupervisor<C> adopt(C child, int attempt) {
            return adopting(settings(), child, attempt);
        }

        /**
         * A supervisor continuing from a startup's outcome: it adopts the final healthy child, or starts
         * {@code Stopped} with the startup's failure (restartable only by hand).
         */
        public ModuleSupervisor<C> start(StartupOutcome<? extends C> outcome) {
            return continuing(settings(), outcome);
        }

        private SupervisorSettings<C> settings() {
            return new SupervisorSettings<>(moduleId, restartAttempt, stopChild, restartable, options, clock, scheduler,
                    jitterSource, attemptExecutor, listeners);
        }
    }
}
