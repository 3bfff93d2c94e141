package org.metaruntime.supervisor;

import java.util.Objects;

/**
 * One recorded health transition of a module: one atomic step of the runtime's health state
 * machine, checked against its table of legal moves. Immutable and thread-safe.
 *
 * <pre>{@code
 * ModuleHealthTransition up = new ModuleHealthTransition("search", ModuleHealthState.STARTING,
 *         ModuleHealthState.HEALTHY, 1, clock.millis());
 * }</pre>
 *
 * @param moduleId the module
 * @param from     the previous state, {@code null} for the first transition of a block
 * @param to       the new state
 * @param attempt  the start attempt the transition belongs to (0 for the initial {@code Starting})
 * @param atMs     when the change was made, in milliseconds since the epoch of the runtime's clock
 *                 ({@code 0} when unknown)
 */
public record ModuleHealthTransition(String moduleId, ModuleHealthState from, ModuleHealthState to, int attempt,
                                     long atMs) {
    /**
     * Validates the transition.
     *
     * @throws IllegalArgumentException if {@code attempt} or {@code atMs} is negative
     */
    public ModuleHealthTransition {
        Objects.requireNonNull(moduleId, "moduleId");
        Objects.requireNonNull(to, "to");
        if (attempt < 0) {
            throw new IllegalArgumentException("attempt must be >= 0: " + attempt);
        }
        if (atMs < 0) {
            throw new IllegalArgumentException("atMs must be >= 0: " + atMs);
        }
    }

    /** A transition whose time is unknown ({@code atMs = 0}). */
    public ModuleHealthTransition(String moduleId, ModuleHealthState from, ModuleHealthState to, int attempt) {
        this(moduleId, from, to, attempt, 0L);
    }

    @Override
    public String toString() {
        return "(" + moduleId + ": " + (from == null ? "null" : from.jsonName()) + " -> " + to.jsonName() + ", " + attempt + ")";
    }
}
