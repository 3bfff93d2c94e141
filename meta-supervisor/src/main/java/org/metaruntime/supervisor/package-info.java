/**
 * Supervision of module processes: the processes themselves, and the health of the modules they run.
 *
 * <p><b>Processes.</b> {@link org.metaruntime.supervisor.ModuleProcess} spawns a module's child from a
 * {@link org.metaruntime.supervisor.ProcessSpec} (argv, working directory, environment), frames its stdout into
 * UTF-8 lines with a size limit and hands them to a {@link org.metaruntime.supervisor.ProcessListener}, drains its
 * stderr into a bounded tail, writes its stdin from a single writer, reports its exit as a
 * {@link org.metaruntime.supervisor.ProcessExit} and stops its whole tree with the bounded
 * {@link org.metaruntime.supervisor.StopLadder}, reporting a {@link org.metaruntime.supervisor.StopReport}.
 * Errors are {@link org.metaruntime.supervisor.ProcessBoundaryError} values carried by
 * {@link org.metaruntime.supervisor.ProcessBoundaryException}. See {@code docs/processes.md}.
 *
 * <p><b>Health.</b> Each module has a {@link org.metaruntime.supervisor.ModuleHealthState}; every change is one
 * {@link org.metaruntime.supervisor.ModuleHealthTransition}. The health engine (internal: the startup state machine
 * and the supervision after startup) decides with the module's
 * {@link org.metaruntime.supervisor.RestartPolicy} whether its process is started again. See
 * {@code docs/supervision.md}.
 */
package org.metaruntime.supervisor;
