/**
 * A JUnit 5 extension for hosts' tests: {@link org.metaruntime.test.MetaRuntimeTest} starts one
 * {@code UnifiedRuntime} per test from {@link org.metaruntime.test.ModuleSource}s and manifests, injects it
 * ({@link org.metaruntime.test.InjectRuntime}, method parameters), closes it after the test and fails the test when
 * a module process is left behind; {@link org.metaruntime.test.ManualScheduler} and
 * {@link org.metaruntime.test.ManualClock} drive the runtime's time by hand.
 */
package org.metaruntime.test;
