/**
 * Internals of meta-supervisor, not covered by compatibility: for processes, the byte-level line framing, the
 * stderr tail, the stdin writer, the stop ladder, the host watchdog and the shared threads (the launcher is in {@code internal.spawn}); for every module of the runtime, how a future's failure is
 * read ({@link org.metaruntime.supervisor.internal.Failures}) and the range checks of option values
 * ({@link org.metaruntime.supervisor.internal.OptionChecks}). Use {@link org.metaruntime.supervisor} instead.
 */
package org.metaruntime.supervisor.internal;
