package org.metaruntime.supervisor;

import java.util.Objects;

/**
 * One recorded health transition of a module: one atomic step of the state machine in
 * {@link HealthTransitions}. Immutable and thread-safe.
 *
 * <pre>{@code
 * ModuleHealthTransition up = new ModuleHealthTransition("search", ModuleHealthState.STARTING,
 *         ModuleHealthState.HEALTHY, 0);
 * }</pre>
 *
 * @param moduleId the module
 * @param from     the previous state, {@code null} for the first transition of a block
 * @param to       the new state
 * @param attempt  the start attempt the transition belongs to (0 for the initial {@code Starting})
 */
public record ModuleHealthTransition(String moduleId, ModuleHealthState from, ModuleHealthState to, int attempt) {
    /**
     * Validates the transition.
     *
     * @throws IllegalArgumentException if {@code attempt} is negative
     */
    public ModuleHealthTransition {
        Objects.requireNonNull(moduleId, "moduleId");
        Objects.requireNonNull(to, "to");
        if (attempt < 0) {
            throw new IllegalArgumentException("attempt must be >= 0: " + attempt);
        }
    }

    @Override
    public String toString() {
        return "(" + moduleId + ": " + (from == null ? "null" : from.jsonName()) + " -> " + to.jsonName() + ", " + attempt + ")";
    }
}
