package org.metaruntime.supervisor.internal.health;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.supervisor.ModuleHealthTransition;

/**
 * The result of {@link StartupProcedure#run}: either the final healthy child (state {@code HEALTHY}, the module is
 * loaded), or no child (state {@code STOPPED}, the module stays unloaded and the caller adds a
 * {@code supervisor.warning} event built from {@link #failure()}).
 *
 * <p>Immutable and thread-safe when {@code C} is.
 *
 * <pre>{@code
 * StartupOutcome<ModuleProcess> outcome = StartupProcedure.run(id, policy, attempt, ModuleProcess::stop, log::add);
 * if (outcome.loaded()) {
 *     keep(outcome.child());
 * } else if (!outcome.interrupted()) {
 *     warn(id, outcome.failure().orElseThrow());
 * }
 * }</pre>
 *
 * @param moduleId    the module
 * @param state       {@code HEALTHY} or {@code STOPPED}
 * @param child       the final healthy child, {@code null} when stopped
 * @param attempts    how many attempts were made (the attempt number of the last transition)
 * @param lastFailure the exception of the last failed attempt, {@code null} when no attempt failed
 * @param interrupted whether the procedure ended because the calling thread was interrupted
 * @param transitions every transition recorded, in order, starting with {@code (null → Starting, 0)}
 * @param <C>         what a child is
 */
public record StartupOutcome<C>(String moduleId, ModuleHealthState state, C child, int attempts, Exception lastFailure,
                                boolean interrupted, List<ModuleHealthTransition> transitions) {

    public StartupOutcome {
        Objects.requireNonNull(moduleId, "moduleId");
        Objects.requireNonNull(state, "state");
        transitions = List.copyOf(transitions);
        if (state == ModuleHealthState.HEALTHY) {
            Objects.requireNonNull(child, "child");
            if (interrupted) {
                throw new IllegalArgumentException("a healthy outcome cannot be interrupted");
            }
        } else if (state == ModuleHealthState.STOPPED) {
            if (child != null) {
                throw new IllegalArgumentException("a stopped outcome has no child");
            }
            if (lastFailure == null && !interrupted) {
                throw new IllegalArgumentException("a stopped outcome carries its failure");
            }
        } else {
            throw new IllegalArgumentException("a startup ends HEALTHY or STOPPED, not " + state);
        }
        if (attempts < 0) {
            throw new IllegalArgumentException("attempts must be >= 0: " + attempts);
        }
    }

    /** Whether the module is loaded: a final healthy child was kept. */
    public boolean loaded() {
        return state == ModuleHealthState.HEALTHY;
    }

    /** The final healthy child, empty when stopped. */
    public Optional<C> healthyChild() {
        return Optional.ofNullable(child);
    }

    /** The last failure as a value for the {@code supervisor.warning} event, empty when no attempt failed. */
    public Optional<ChildFailure> failure() {
        return lastFailure == null ? Optional.empty() : Optional.of(ChildFailure.of(lastFailure));
    }
}
