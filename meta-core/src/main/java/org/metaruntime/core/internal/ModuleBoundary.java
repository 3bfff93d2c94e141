package org.metaruntime.core.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import org.metaruntime.core.ModuleBoundaryKind;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.UnifiedEvent;

/**
 * How the runtime reaches one module: the seam between the runtime's rules (selection, routing checks, startup
 * procedure, supervision, events) and the I/O. The real implementations spawn processes; the fakes of
 * {@code org.metaruntime.core.testing} answer in the JVM. Every failure is a {@link BoundaryFailure}.
 * Thread-safe.
 */
public interface ModuleBoundary {

    /** Which protocol this boundary speaks. */
    ModuleBoundaryKind kind();

    /**
     * Starts a child and waits until it is ready: an event-line child has written its first event; an MCP child is
     * initialized and has listed its tools.
     */
    ModuleChild start(Duration timeout) throws InterruptedException;

    /** Event-line: a fresh one-shot run; returns the normalised first event. */
    EventEnvelope<UnifiedEvent> runOnce(Duration timeout) throws InterruptedException;

    /** MCP {@code PER_CALL}: spawn, initialize, list tools, call, close. Returns the payload. */
    JsonNode callOnce(String tool, JsonNode arguments, Duration timeout) throws InterruptedException;
}
