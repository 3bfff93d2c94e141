/**
 * Manual time for tests, not covered by compatibility: a clock and a {@link org.metaruntime.supervisor.Scheduler}
 * that move only when a test says so. The one implementation behind every module's timing tests and behind the
 * public {@code org.metaruntime.test.ManualScheduler} and {@code ManualClock} of meta-runtime-test; hosts use those.
 */
package org.metaruntime.supervisor.internal.manual;
