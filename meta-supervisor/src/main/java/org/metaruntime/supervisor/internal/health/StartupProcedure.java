package org.metaruntime.supervisor.internal.health;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.supervisor.ModuleHealthTransition;
import org.metaruntime.supervisor.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The startup state machine of one module, generic over what a child is. It drives the module's health
 * through the same engine as {@link ModuleSupervisor} (one atomic step per transition, checked against
 * {@link HealthTransitions}, stamped with the clock, listeners told after it).
 *
 * <ol>
 *   <li>Record {@code (null → Starting, 0)}; {@code n = 0}, {@code prev = Starting}.</li>
 *   <li>{@code n += 1}; run the start attempt.
 *     <ul>
 *       <li>Success: record {@code (prev → Healthy, n)}. Under {@code ALWAYS} with {@code n <= alwaysRestartBudget}:
 *           record {@code (Healthy → Restarting, n)}, stop the child, wait the backoff, {@code prev = Restarting},
 *           go to 2. Otherwise keep the child: the module is loaded.</li>
 *       <li>Failure: record {@code (prev → Failed, n)}. Under {@code ON_FAILURE} with {@code n <= onFailureRetryBudget},
 *           or {@code ALWAYS} with {@code n <= alwaysRestartBudget}: record {@code (Failed → Restarting, n)}, wait the
 *           backoff, {@code prev = Restarting}, go to 2. Otherwise record {@code (Failed → Stopped, n)}: the module
 *           stays unloaded.</li>
 *     </ul>
 *   </li>
 * </ol>
 *
 * <p>The backoff is waited through a {@link Scheduler}: a task on it completes the future the calling thread waits
 * on, so the procedure waits the way every other timer of the library does, and a test drives it with a manual
 * scheduler. When the calling thread is interrupted (during an attempt or the backoff), the procedure cancels the
 * backoff's task, stops any child it holds, records {@code (prev → Stopped, n)}, returns an
 * {@linkplain StartupOutcome#interrupted() interrupted} outcome and leaves the interrupt flag set. A scheduler that
 * refuses the backoff's task (it was closed) ends the startup as a failure: {@code (Restarting → Stopped, n)}.
 *
 * <p>Stateless and thread-safe; each call runs on the calling thread.
 *
 * <pre>{@code
 * List<ModuleHealthTransition> log = new ArrayList<>();
 * StartupOutcome<Child> outcome = StartupProcedure.run("billing", StartupPolicy.of(RestartPolicy.ON_FAILURE),
 *         n -> spawnAndAwaitFirstEvent(), Child::stop, log::add);
 * }</pre>
 */
public final class StartupProcedure {

    private static final Logger LOG = LoggerFactory.getLogger(ModuleSupervisor.LOGGER);

    private StartupProcedure() {
    }

    /**
     * {@link #run(String, StartupPolicy, StartAttempt, Consumer, Consumer, Scheduler, Clock)} waiting on
     * {@link Scheduler#shared()}, on {@link Clock#systemUTC()}.
     */
    public static <C> StartupOutcome<C> run(String moduleId, StartupPolicy policy, StartAttempt<? extends C> attempt,
                                            Consumer<? super C> stopChild, Consumer<? super ModuleHealthTransition> sink) {
        return run(moduleId, policy, attempt, stopChild, sink, Scheduler.shared(), Clock.systemUTC());
    }

    /** {@link #run(String, StartupPolicy, StartAttempt, Consumer, Consumer, Scheduler, Clock)} on {@link Clock#systemUTC()}. */
    public static <C> StartupOutcome<C> run(String moduleId, StartupPolicy policy, StartAttempt<? extends C> attempt,
                                            Consumer<? super C> stopChild, Consumer<? super ModuleHealthTransition> sink,
                                            Scheduler scheduler) {
        return run(moduleId, policy, attempt, stopChild, sink, scheduler, Clock.systemUTC());
    }

    /**
     * Runs the startup state machine for one module on the calling thread.
     *
     * @param moduleId  the module
     * @param policy    the restart policy, budgets and backoff
     * @param attempt   one start attempt; an exception is a failed attempt
     * @param stopChild stops a child (a healthy child restarted under {@code ALWAYS}, or one held when interrupted);
     *                  an exception it throws is logged and ignored
     * @param sink      receives every transition, in order, after it is checked against {@link HealthTransitions};
     *                  an exception it throws is logged and ignored
     * @param scheduler times the backoff between attempts, which the calling thread waits (nothing is scheduled when
     *                  the backoff is zero)
     * @param clock     gives each transition's {@code atMs}
     * @return the final healthy child, or the failure that left the module stopped
     */
    public static <C> StartupOutcome<C> run(String moduleId, StartupPolicy policy, StartAttempt<? extends C> attempt,
                                            Consumer<? super C> stopChild, Consumer<? super ModuleHealthTransition> sink,
                                            Scheduler scheduler, Clock clock) {
        Objects.requireNonNull(moduleId, "moduleId");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(attempt, "attempt");
        Objects.requireNonNull(stopChild, "stopChild");
        Objects.requireNonNull(sink, "sink");
        Objects.requireNonNull(scheduler, "scheduler");
        Objects.requireNonNull(clock, "clock");
        return new Run<C>(moduleId, policy, attempt, stopChild, sink, scheduler, clock).execute();
    }

    private static final class Run<C> {
        private final String moduleId;
        private final StartupPolicy policy;
        private final StartAttempt<? extends C> attempt;
        private final Consumer<? super C> stopChild;
        private final Scheduler scheduler;
        private final HealthMachine machine;
        private final List<ModuleHealthTransition> transitions = new ArrayList<>();
        private int n;
        private Exception lastFailure;

        Run(String moduleId, StartupPolicy policy, StartAttempt<? extends C> attempt, Consumer<? super C> stopChild,
            Consumer<? super ModuleHealthTransition> sink, Scheduler scheduler, Clock clock) {
            this.moduleId = moduleId;
            this.policy = policy;
            this.attempt = attempt;
            this.stopChild = stopChild;
            this.scheduler = scheduler;
            this.machine = new HealthMachine(moduleId, clock, sink);
        }

        StartupOutcome<C> execute() {
            record(ModuleHealthState.STARTING);
            while (true) {
                n += 1;
                AttemptResult<? extends C> result = AttemptResult.run(attempt, n);
                if (Thread.currentThread().isInterrupted()) {
                    return interrupted(result.child());
                }
                if (!result.succeeded()) {
                    lastFailure = result.failure();
                    LOG.debug("module '{}': start attempt {} failed: {}", moduleId, n, lastFailure.toString());
                    record(ModuleHealthState.FAILED);
                    if (!policy.retriesAfterFailure(n)) {
                        record(ModuleHealthState.STOPPED);
                        // The caller reports the outcome (with the failure and its stderr tail) once.
                        LOG.debug("module '{}' stopped after {} start attempt(s)", moduleId, n);
                        return outcome(null, false);
                    }
                    record(ModuleHealthState.RESTARTING);
                    Waited waited = backoff();
                    if (waited != Waited.DONE) {
                        return waited == Waited.INTERRUPTED ? interrupted(null) : refused();
                    }
                    continue;
                }
                record(ModuleHealthState.HEALTHY);
                if (!policy.restartsAfterSuccess(n)) {
                    return outcome(result.child(), false);
                }
                record(ModuleHealthState.RESTARTING);
                stop(result.child());
                Waited waited = backoff();
                if (waited != Waited.DONE) {
                    return waited == Waited.INTERRUPTED ? interrupted(null) : refused();
                }
            }
        }

        /** Waits the backoff: a task on the scheduler completes the future this thread waits on. */
        private Waited backoff() {
            Duration backoff = policy.restartBackoff();
            if (backoff.isZero()) {
                return Thread.currentThread().isInterrupted() ? Waited.INTERRUPTED : Waited.DONE;
            }
            CompletableFuture<Void> due = new CompletableFuture<>();
            Scheduler.Cancellable task;
            try {
                task = scheduler.schedule(() -> due.complete(null), backoff);
            } catch (RejectedExecutionException closed) {
                return Waited.REFUSED;
            }
            try {
                due.get();
                return Waited.DONE;
            } catch (InterruptedException interrupted) {
                task.cancel();
                return Waited.INTERRUPTED;
            } catch (ExecutionException impossible) {
                throw new IllegalStateException(impossible);
            }
        }

        private StartupOutcome<C> refused() {
            LOG.info("module '{}': startup ended at attempt {}: the scheduler refused the backoff", moduleId, n);
            record(ModuleHealthState.STOPPED);
            return outcome(null, false);
        }

        private StartupOutcome<C> interrupted(C child) {
            LOG.info("module '{}': startup interrupted at attempt {}", moduleId, n);
            if (child != null) {
                stop(child);
            }
            record(ModuleHealthState.STOPPED);
            Thread.currentThread().interrupt();
            return outcome(null, true);
        }

        private void stop(C child) {
            try {
                stopChild.accept(child);
            } catch (RuntimeException e) {
                LOG.warn("module '{}': stopping the child of attempt {} failed", moduleId, n, e);
            }
        }

        private void record(ModuleHealthState to) {
            transitions.add(machine.move(to, n));
            machine.deliver();
        }

        private StartupOutcome<C> outcome(C child, boolean interrupted) {
            return new StartupOutcome<>(moduleId, machine.state(), child, n, lastFailure, interrupted, transitions);
        }
    }

    /** How a backoff's wait ended. */
    private enum Waited { DONE, INTERRUPTED, REFUSED }
}
