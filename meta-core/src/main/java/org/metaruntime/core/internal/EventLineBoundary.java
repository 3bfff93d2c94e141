package org.metaruntime.core.internal;

import java.time.Duration;
import org.metaruntime.core.ModuleBoundaryKind;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.supervisor.InFlight;

/** The boundary of an event-line module: a kept child per start, a fresh process per routed call. Thread-safe. */
public interface EventLineBoundary extends ModuleBoundary {

    @Override
    default ModuleBoundaryKind kind() {
        return ModuleBoundaryKind.EVENT_LINE;
    }

    /**
     * Starts a fresh one-shot run and returns at once: its result completes with the normalised first event, or with a
     * {@link BoundaryFailure}, once the run's process tree is gone; its cancel stops that tree.
     */
    InFlight<EventEnvelope<UnifiedEvent>> run(Duration timeout);
}
