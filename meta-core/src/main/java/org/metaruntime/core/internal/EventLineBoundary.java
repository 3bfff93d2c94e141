package org.metaruntime.core.internal;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.metaruntime.core.ModuleBoundaryKind;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.UnifiedEvent;

/** The boundary of an event-line module: a kept child per start, a fresh process per routed call. Thread-safe. */
public interface EventLineBoundary extends ModuleBoundary {

    @Override
    default ModuleBoundaryKind kind() {
        return ModuleBoundaryKind.EVENT_LINE;
    }

    /** Starts a fresh one-shot run and returns at once. */
    OneShot run(Duration timeout);

    /**
     * A one-shot run in progress.
     *
     * @param event  completes with the normalised first event, or with a {@link BoundaryFailure}, once the run's
     *               process tree is gone
     * @param cancel stops the run's process tree; idempotent and non-blocking
     */
    record OneShot(CompletableFuture<EventEnvelope<UnifiedEvent>> event, Runnable cancel) {
        public OneShot {
            Objects.requireNonNull(event, "event");
            Objects.requireNonNull(cancel, "cancel");
        }
    }
}
