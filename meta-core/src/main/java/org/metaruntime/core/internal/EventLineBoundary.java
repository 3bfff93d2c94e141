package org.metaruntime.core.internal;

import java.time.Duration;
import org.metaruntime.core.ModuleBoundaryKind;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.UnifiedEvent;

/** The boundary of an event-line module: a kept child per start, a fresh process per routed call. Thread-safe. */
public interface EventLineBoundary extends ModuleBoundary {

    @Override
    default ModuleBoundaryKind kind() {
        return ModuleBoundaryKind.EVENT_LINE;
    }

    /**
     * A fresh one-shot run; returns the normalised first event. Interrupting the calling thread stops the run's
     * process tree.
     */
    EventEnvelope<UnifiedEvent> runOnce(Duration timeout) throws InterruptedException;
}
