package org.metaruntime.supervisor.internal.health;

import java.time.Clock;
import java.util.Objects;
import java.util.function.Consumer;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.supervisor.ModuleHealthTransition;

/**
 * The health state machine of one module: its state and attempt, changed only by {@link #move}, one atomic step
 * checked against {@link HealthTransitions} and stamped with the clock; the transition listener and every other
 * notification queued with {@link #later} are told afterwards, in order, by {@link #deliver()} (outside the
 * owner's lock). The startup procedure and the after-start supervisor both drive a module through one of these.
 *
 * <p>Thread-safe: {@link #move} and {@link #later} may be called under the owner's lock (which keeps the order of
 * the notifications the order of the changes); {@link #deliver()} must be called without it.
 */
public final class HealthMachine {

    private final String moduleId;
    private final Clock clock;
    private final Consumer<? super ModuleHealthTransition> listener;
    private final Notifications notifications;
    private ModuleHealthState state;
    private int attempt;

    /**
     * A machine before the first transition of a block ({@code state() == null}, attempt 0).
     *
     * @param listener told each transition after it was made; an exception it throws is logged and ignored
     */
    public HealthMachine(String moduleId, Clock clock, Consumer<? super ModuleHealthTransition> listener) {
        this(moduleId, clock, listener, null, 0);
    }

    /** A machine continuing from {@code state} at {@code attempt} (a supervisor taking over from a startup). */
    public HealthMachine(String moduleId, Clock clock, Consumer<? super ModuleHealthTransition> listener,
                         ModuleHealthState state, int attempt) {
        this.moduleId = Objects.requireNonNull(moduleId, "moduleId");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.notifications = new Notifications(moduleId);
        if (attempt < 0) {
            throw new IllegalArgumentException("attempt must be >= 0: " + attempt);
        }
        this.state = state;
        this.attempt = attempt;
    }

    /**
     * One atomic step: {@code (state → to, attempt)} at the clock's time, checked against the table; the listener
     * is told on the next {@link #deliver()}.
     *
     * @return the transition made
     * @throws IllegalStateException when the table does not allow it (a bug); nothing changes then
     */
    public synchronized ModuleHealthTransition move(ModuleHealthState to, int attempt) {
        ModuleHealthTransition transition = HealthTransitions.requireLegal(
                new ModuleHealthTransition(moduleId, state, to, attempt, clock.millis()));
        this.state = to;
        this.attempt = attempt;
        notifications.enqueue("health transition listener", () -> listener.accept(transition));
        return transition;
    }

    /** Queues {@code notification} behind the transitions made so far; {@code what} names it in the log. */
    public void later(String what, Runnable notification) {
        notifications.enqueue(what, notification);
    }

    /** Tells everything queued, in order; call it without holding the owner's lock. */
    public void deliver() {
        notifications.drain();
    }

    /** The current state, {@code null} before the first transition. */
    public synchronized ModuleHealthState state() {
        return state;
    }

    /** The attempt of the last transition. */
    public synchronized int attempt() {
        return attempt;
    }

    /** The module. */
    public String moduleId() {
        return moduleId;
    }
}
