/**
 * The search for a child's process tree, not covered by compatibility. Everything outside this package goes
 * through {@link org.metaruntime.supervisor.internal.proc.ProcessTree}: on Linux the implementation reads
 * {@code /proc} (process states, parents, start times and the tree token in each new process's initial
 * environment, with reads shared between trees looked up at the same moment); elsewhere it uses
 * {@link java.lang.ProcessHandle} only.
 */
package org.metaruntime.supervisor.internal.proc;
