package org.metaruntime.supervisor;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * One module's line of {@code supervisorReport()}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param moduleId   the module
 * @param state      its health state
 * @param attempt    the attempt number of its last transition
 * @param pid        the process id of its current child, empty when it has none (or the child is not a process)
 * @param restarts   restarts made after startup (automatic and manual)
 * @param lastError  the reason of the last failure, {@code null} when it never failed
 * @param stderrTail the end of the current child's stderr, or of the last failed process's; empty when unknown
 */
public record ModuleSupervisorReport(String moduleId, ModuleHealthState state, int attempt, OptionalLong pid,
                                     int restarts, String lastError, String stderrTail) {

    /**
     * Validates the report.
     *
     * @throws IllegalArgumentException if {@code attempt} or {@code restarts} is negative
     */
    public ModuleSupervisorReport {
        Objects.requireNonNull(moduleId, "moduleId");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(pid, "pid");
        Objects.requireNonNull(stderrTail, "stderrTail");
        if (attempt < 0) {
            throw new IllegalArgumentException("attempt must be >= 0: " + attempt);
        }
        if (restarts < 0) {
            throw new IllegalArgumentException("restarts must be >= 0: " + restarts);
        }
    }
}
