package org.metaruntime.core;

/**
 * A configured module served in the JVM instead of by a process, registered with
 * {@code UnifiedRuntime.builder(config).fakeModule(module)}. The runtime treats it exactly like the real module
 * (same boundary selection, core-id rule, routing checks, errors, health transitions, events and restart policies)
 * through the same boundary interface, but spawns no process. The implementations are the fakes of
 * {@code org.metaruntime.core.testing} ({@code FakeMcpModule}, {@code FakeEventLineModule}); the runtime refuses
 * any other implementation.
 *
 * <p>Implementations are thread-safe.
 */
public interface InProcessModule {

    /** The configured module this stands in for. */
    String moduleId();

    /** The boundary this speaks; it must be the one the module's pre-spawn data selects. */
    ModuleBoundaryKind kind();
}
