/**
 * Supervision of module processes.
 *
 * <p><b>Processes.</b> {@link org.metaruntime.supervisor.ModuleProcess} spawns a module's child from a
 * {@link org.metaruntime.supervisor.ProcessSpec} (argv, working directory, environment), frames its stdout into
 * UTF-8 lines with a size limit, drains its stderr into a bounded tail, writes its stdin from a single writer,
 * watches its exit and stops its whole tree with the bounded {@link org.metaruntime.supervisor.StopLadder}.
 * Errors are {@link org.metaruntime.supervisor.ProcessBoundaryError} values carried by
 * {@link org.metaruntime.supervisor.ProcessBoundaryException}.
 *
 * <p><b>Health.</b> Each module has a {@link org.metaruntime.supervisor.ModuleHealthState}; every change is a
 * {@link org.metaruntime.supervisor.ModuleHealthTransition}, and a
 * {@link org.metaruntime.supervisor.RestartPolicy} decides whether a module's process is started again.
 */
package org.metaruntime.supervisor;
