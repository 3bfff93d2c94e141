/**
 * Internals of meta-supervisor, not covered by compatibility: for processes, the byte-level line framing, the
 * stderr tail, the stdin writer, the stop ladder, the search for a process tree and the shared threads; for
 * supervision, its scheduling and restart bookkeeping. Use {@link org.metaruntime.supervisor} instead.
 */
package org.metaruntime.supervisor.internal;
