package org.metaruntime.core.testing;

import java.util.concurrent.Executor;
import org.metaruntime.core.ModuleBoundaryKind;
import org.metaruntime.core.internal.ModuleBoundary;

/**
 * An in-process stand-in for a configured module, registered with
 * {@code UnifiedRuntime.builder(config).fakeModule(fake)}. The runtime treats it exactly like the real module (same
 * boundary selection, core-id rule, routing checks, errors, health transitions, events and restart policies) but
 * spawns no process.
 *
 * <p>Implementations are thread-safe.
 */
public sealed interface FakeModule permits FakeMcpModule, FakeEventLineModule {

    /** The configured module this fake stands in for. */
    String moduleId();

    /** The boundary this fake speaks; it must be the one the module's pre-spawn data selects. */
    ModuleBoundaryKind kind();

    /**
     * The runtime's seam to this fake (internal: not covered by compatibility).
     *
     * @param executor runs the fake's work that must not block the caller
     */
    ModuleBoundary boundary(Executor executor);
}
