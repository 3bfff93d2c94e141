/**
 * In-process fakes for host unit tests: {@link org.metaruntime.core.testing.FakeMcpModule} (tools answered by Java
 * lambdas) and {@link org.metaruntime.core.testing.FakeEventLineModule} (scripted first events), with scripted
 * failures, delays and crashes. Registered with {@code UnifiedRuntime.Builder.fakeModule}, they go through the same
 * rules as real modules without spawning a process.
 */
package org.metaruntime.core.testing;
