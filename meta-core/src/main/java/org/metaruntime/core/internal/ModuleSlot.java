package org.metaruntime.core.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.metaruntime.core.ModuleBoundaryKind;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.supervisor.ModuleHealthTransition;
import org.metaruntime.supervisor.ModuleSupervisor;

/**
 * The runtime's state for one configured module: its boundary, its supervisor once started, and whether it is
 * loaded. While its startup block is being recorded, its transitions and events are buffered so that each module's
 * block lands whole, in discovery order. Thread-safe.
 */
public final class ModuleSlot {

    private final ModuleConfig module;
    private final ModuleBoundaryKind kind;
    private final ModuleBoundary boundary;
    private final Object lifecycle = new Object();
    private volatile ModuleSupervisor<ModuleChild> supervisor;
    private volatile boolean loaded;
    private volatile EventEnvelope<UnifiedEvent> readyEvent;
    private List<ModuleHealthTransition> bufferedTransitions;
    private List<EventEnvelope<UnifiedEvent>> bufferedEvents;

    public ModuleSlot(ModuleConfig module, ModuleBoundaryKind kind, ModuleBoundary boundary) {
        this.module = Objects.requireNonNull(module, "module");
        this.kind = Objects.requireNonNull(kind, "kind");
        this.boundary = Objects.requireNonNull(boundary, "boundary");
    }

    public String id() {
        return module.id();
    }

    public ModuleConfig module() {
        return module;
    }

    public ModuleBoundaryKind kind() {
        return kind;
    }

    public ModuleBoundary boundary() {
        return boundary;
    }

    /** Held while the module is started, respawned or stopped, so those never overlap. */
    public Object lifecycleLock() {
        return lifecycle;
    }

    public ModuleSupervisor<ModuleChild> supervisor() {
        return supervisor;
    }

    public void supervisor(ModuleSupervisor<ModuleChild> supervisor) {
        this.supervisor = supervisor;
    }

    public boolean loaded() {
        return loaded;
    }

    public void loaded(boolean loaded) {
        this.loaded = loaded;
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
