package org.metaruntime.supervisor.internal.health;

import java.util.List;
import java.util.Objects;
import org.metaruntime.supervisor.ModuleHealthTransition;

/**
 * Tells every {@link SupervisionListener} of one module about a change, each guarded on its own: a listener that
 * throws is logged and never keeps the others from being told. Everything but a transition is queued on the
 * module's {@link HealthMachine}, behind the transitions made so far. Thread-safe (the list is immutable).
 *
 * @param <C> what a child is
 */
public final class ListenerFanout<C> {

    private final String moduleId;
    private final List<SupervisionListener<? super C>> listeners;

    public ListenerFanout(String moduleId, List<SupervisionListener<? super C>> listeners) {
        this.moduleId = Objects.requireNonNull(moduleId, "moduleId");
        this.listeners = List.copyOf(listeners);
    }

    /** Tells each listener {@code transition} now (the machine's transition listener). */
    public void transition(ModuleHealthTransition transition) {
        for (SupervisionListener<? super C> listener : listeners) {
            Notifications.deliver(moduleId, "onTransition listener", () -> listener.onTransition(transition));
        }
    }

    /** Queues {@link SupervisionListener#onAdopted} for each listener. */
    public void adopted(HealthMachine machine, C child, int attempt) {
        for (SupervisionListener<? super C> listener : listeners) {
            machine.later("onAdopted listener", () -> listener.onAdopted(child, attempt));
        }
    }

    /** Queues {@link SupervisionListener#onFailure} for each listener. */
    public void failed(HealthMachine machine, ChildFailure failure) {
        for (SupervisionListener<? super C> listener : listeners) {
            machine.later("onFailure listener", () -> listener.onFailure(moduleId, failure));
        }
    }

    /** Queues {@link SupervisionListener#onStopped} for each listener. */
    public void stopped(HealthMachine machine, ChildFailure lastFailure) {
        for (SupervisionListener<? super C> listener : listeners) {
            machine.later("onStopped listener", () -> listener.onStopped(moduleId, lastFailure));
        }
    }
}
