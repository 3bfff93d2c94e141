package org.metaruntime.core.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.core.StartMode;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.supervisor.ModuleHealthTransition;
import org.metaruntime.supervisor.internal.health.ModuleSupervisor;

/**
 * The runtime's state for one configured module: its router, and its {@link Membership} — the one record that says
 * whether the module is loaded, its supervisor and, when its startup failed, why. While its startup block is being
 * recorded, its transitions and events are buffered so that each module's block lands whole, in discovery order.
 * Thread-safe.
 */
public final class ModuleSlot {

    /** Where a module is in its life in the runtime. */
    public enum Phase {
        /** Configured; never started. */
        CONFIGURED,
        /** Its startup procedure is running. */
        STARTING,
        /** Its startup succeeded: it takes calls while its supervisor accepts them. */
        LOADED,
        /** A lazy module with no child now: loaded; its next call starts it. */
        IDLE,
        /** Its startup ended {@code Stopped}. */
        START_FAILED,
        /** The runtime shut down. */
        SHUT_DOWN
    }

    /**
     * The module's membership, replaced whole on every change.
     *
     * @param phase          where the module is
     * @param supervisor     its supervisor once a startup ran, else null
     * @param startupFailure the last startup's failure when {@code phase} is {@code START_FAILED}, else null
     */
    public record Membership(Phase phase, ModuleSupervisor<ModuleChild> supervisor, Exception startupFailure) {
        public Membership {
            Objects.requireNonNull(phase, "phase");
        }
    }

    private final ModuleConfig module;
    private final ModuleRouter router;
    private final Object lifecycle = new Object();
    private final AtomicReference<Membership> membership =
            new AtomicReference<>(new Membership(Phase.CONFIGURED, null, null));
    private volatile EventEnvelope<UnifiedEvent> readyEvent;
    private volatile ModuleSupervisor<ModuleChild> previous;
    private List<ModuleHealthTransition> bufferedTransitions;
    private List<EventEnvelope<UnifiedEvent>> bufferedEvents;

    public ModuleSlot(ModuleConfig module, ModuleRouter router) {
        this.module = Objects.requireNonNull(module, "module");
        this.router = Objects.requireNonNull(router, "router");
    }

    public String id() {
        return module.id();
    }

    public ModuleConfig module() {
        return module;
    }

    public ModuleRouter router() {
        return router;
    }

    /** Held while the module is started, respawned or stopped, so those never overlap. */
    public Object lifecycleLock() {
        return lifecycle;
    }

    public Membership membership() {
        return membership.get();
    }

    /** Loaded: started, or lazy (idle, or being started by a call). */
    public boolean loaded() {
        Phase phase = membership.get().phase();
        return phase == Phase.LOADED || phase == Phase.IDLE
                || phase == Phase.STARTING && module.startMode() == StartMode.LAZY;
    }

    /** A lazy module is loaded without a child; returns the supervisor it had, if any. */
    public ModuleSupervisor<ModuleChild> idle() {
        ModuleSupervisor<ModuleChild> before = membership.getAndUpdate(m -> m.phase() == Phase.SHUT_DOWN ? m
                : new Membership(Phase.IDLE, null, null)).supervisor();
        if (before != null) {
            previous = before;
        }
        return before;
    }

    /**
     * The supervisor of the module's last run when it has none now (a lazy module stopped when idle, or whose lazy
     * startup failed): closed, kept for its report.
     */
    public Optional<ModuleSupervisor<ModuleChild>> previousSupervisor() {
        return Optional.ofNullable(previous);
    }

    /** The supervisor of the last startup, if any. */
    public Optional<ModuleSupervisor<ModuleChild>> supervisor() {
        return Optional.ofNullable(membership.get().supervisor());
    }

    /** The module's startup is running (its old supervisor, if any, is already closed). */
    public void starting() {
        membership.updateAndGet(m -> m.phase() == Phase.SHUT_DOWN ? m : new Membership(Phase.STARTING, null, null));
    }

    /** A child was adopted by {@code supervisor}: the module is loaded. */
    public void loaded(ModuleSupervisor<ModuleChild> supervisor) {
        Objects.requireNonNull(supervisor, "supervisor");
        membership.updateAndGet(m -> m.phase() == Phase.SHUT_DOWN ? m : new Membership(Phase.LOADED, supervisor, null));
    }

    /** The startup ended {@code Stopped}; the supervisor stays for reports and manual restarts. */
    public void startFailed(ModuleSupervisor<ModuleChild> supervisor, Exception failure) {
        membership.updateAndGet(m -> m.phase() == Phase.LOADED || m.phase() == Phase.SHUT_DOWN ? m
                : new Membership(Phase.START_FAILED, supervisor, failure));
    }

    /** The runtime shut down; returns the membership before. */
    public Membership shutDown() {
        return membership.getAndUpdate(m -> new Membership(Phase.SHUT_DOWN, m.supervisor(), null));
    }

    /** The event of the module's last successful start: its first event, or its {@code mcp.ready}. */
    public EventEnvelope<UnifiedEvent> readyEvent() {
        return readyEvent;
    }

    public void readyEvent(EventEnvelope<UnifiedEvent> event) {
        this.readyEvent = event;
    }

    /** From now on, transitions and events are held until {@link #flush}. */
    public synchronized void buffer() {
        bufferedTransitions = new ArrayList<>();
        bufferedEvents = new ArrayList<>();
    }

    /** Records a transition, or holds it while buffering. */
    public void transition(ModuleHealthTransition transition, Consumer<ModuleHealthTransition> sink) {
        synchronized (this) {
            if (bufferedTransitions != null) {
                bufferedTransitions.add(transition);
                return;
            }
        }
        sink.accept(transition);
    }

    /** Adds an event, or holds it while buffering. */
    public void event(EventEnvelope<UnifiedEvent> event, Consumer<EventEnvelope<UnifiedEvent>> sink) {
        synchronized (this) {
            if (bufferedEvents != null) {
                bufferedEvents.add(event);
                return;
            }
        }
        sink.accept(event);
    }

    /** Hands the held transitions and events to the sinks and stops buffering. */
    public synchronized void flush(Consumer<ModuleHealthTransition> transitions,
                                   Consumer<EventEnvelope<UnifiedEvent>> events) {
        if (bufferedTransitions == null) {
            return;
        }
        bufferedTransitions.forEach(transitions);
        bufferedEvents.forEach(events);
        bufferedTransitions = null;
        bufferedEvents = null;
    }
}
