package org.metaruntime.core.internal;

import java.time.Duration;
import org.metaruntime.core.ModuleBoundaryKind;

/**
 * How the runtime reaches one module: the seam between the runtime's rules (selection, routing checks, startup
 * procedure, supervision, events) and the I/O. Each kind has its own interface ({@link EventLineBoundary},
 * {@link McpBoundary}) with only the operations that kind has. The real implementations spawn processes; the
 * in-process modules of {@code org.metaruntime.core.testing} answer in the JVM. Every failure is a
 * {@link BoundaryFailure}. Thread-safe.
 */
public interface ModuleBoundary {

    /** Which protocol this boundary speaks. */
    ModuleBoundaryKind kind();

    /**
     * Starts a child and waits until it is ready: an event-line child has written its first event; an MCP child is
     * initialized and has listed its tools.
     */
    ModuleChild start(Duration timeout) throws InterruptedException;
}
