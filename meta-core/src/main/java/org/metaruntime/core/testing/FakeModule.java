package org.metaruntime.core.testing;

import org.metaruntime.core.InProcessModule;

/**
 * An in-process stand-in for a configured module, registered with
 * {@code UnifiedRuntime.builder(config).fakeModule(fake)}. The runtime treats it exactly like the real module (same
 * boundary selection, core-id rule, routing checks, errors, health transitions, events and restart policies) but
 * spawns no process.
 *
 * <p>Implementations are thread-safe.
 */
public sealed interface FakeModule extends InProcessModule permits FakeMcpModule, FakeEventLineModule {
}
