/**
 * Internals of the process layer: byte-level line framing, the stderr tail, the stdin writer, the stop ladder
 * and the search for a process tree. Not covered by compatibility; use {@link org.metaruntime.supervisor}.
 */
package org.metaruntime.supervisor.internal;
