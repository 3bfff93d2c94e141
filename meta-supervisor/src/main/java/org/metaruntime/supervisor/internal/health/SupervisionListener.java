package org.metaruntime.supervisor.internal.health;

import org.metaruntime.supervisor.ModuleHealthTransition;

/**
 * Told about a {@link ModuleSupervisor}'s changes, after each atomic change, in order, one call at a time, on the
 * thread that made the change (or one that is already delivering). Listeners must be fast and should not throw;
 * an exception is logged and ignored, and never hurts the supervisor. Every method does nothing by default.
 *
 * <pre>{@code
 * SupervisionListener<Child> listener = new SupervisionListener<>() {
 *     public void onTransition(ModuleHealthTransition t) { transitions.add(t); }
 *     public void onAdopted(Child child, int attempt) { child.onExit(code -> supervisor.childFailed(child, ...)); }
 *     public void onFailure(String moduleId, ChildFailure failure) { warn(moduleId, failure); }
 * };
 * }</pre>
 *
 * @param <C> what a child is
 */
public interface SupervisionListener<C> {

    /** A health transition was recorded. */
    default void onTransition(ModuleHealthTransition transition) {
    }

    /**
     * {@code child} became the module's current child at {@code attempt}: watch it from now on and report its failure
     * with {@link ModuleSupervisor#childFailed}. A child that already died is reported as soon as it is watched.
     */
    default void onAdopted(C child, int attempt) {
    }

    /** The current child, or a restart attempt, failed: the caller adds a {@code supervisor.warning} event. */
    default void onFailure(String moduleId, ChildFailure failure) {
    }

    /**
     * The restart intensity was exceeded and the module is stopped; {@code lastFailure} is the failure that stopped
     * it. The caller adds a {@code supervisor.warning} event and fails calls fast until a manual restart.
     */
    default void onStopped(String moduleId, ChildFailure lastFailure) {
    }
}
