package org.metaruntime.supervisor.internal.health;

import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import org.metaruntime.supervisor.Scheduler;
import org.metaruntime.supervisor.SupervisionOptions;
import org.metaruntime.supervisor.internal.DaemonThreads;

/**
 * The settings of one module's supervisor, as its builder collects them, validated, the listeners copied. A
 * {@code null} scheduler means the supervisor creates its own and closes it; a {@code null} attempt executor becomes
 * {@link #threadPerAttempt(String)}. Immutable.
 *
 * @param moduleId       the module
 * @param restartAttempt starts a new child for a restart
 * @param stopChild      stops a child the supervisor lets go of
 * @param restartable    whether a failure is followed by an automatic restart
 * @param options        backoff and restart intensity
 * @param clock          the clock of the restart window and of each transition
 * @param scheduler      the scheduler of restarts, owned by the caller; {@code null} for one of the supervisor's own
 * @param jitterSource   random values in {@code [0, 1)} for the jitter
 * @param attemptExecutor where scheduled restart attempts run
 * @param listeners      told about the supervisor's changes, in this order
 * @param <C>            what a child is
 */
public record SupervisorSettings<C>(String moduleId, StartAttempt<? extends C> restartAttempt,
                                    Consumer<? super C> stopChild, boolean restartable, SupervisionOptions options,
                                    Clock clock, Scheduler scheduler, DoubleSupplier jitterSource,
                                    Executor attemptExecutor, List<SupervisionListener<? super C>> listeners) {

    public SupervisorSettings {
        Objects.requireNonNull(moduleId, "moduleId");
        Objects.requireNonNull(restartAttempt, "restartAttempt");
        Objects.requireNonNull(stopChild, "stopChild");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(jitterSource, "jitterSource");
        attemptExecutor = attemptExecutor != null ? attemptExecutor : threadPerAttempt(moduleId);
        listeners = List.copyOf(listeners);
    }

    /**
     * Runs each attempt on a new daemon thread named {@code meta-supervisor-restart-<moduleId>}, which ends with
     * the attempt.
     */
    public static Executor threadPerAttempt(String moduleId) {
        return attempt -> {
            DaemonThreads.thread("meta-supervisor-restart-" + moduleId, attempt).start();
        };
    }
}
