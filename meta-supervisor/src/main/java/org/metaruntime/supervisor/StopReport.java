package org.metaruntime.supervisor;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * What {@link ModuleProcess#stop(StopLadder)} did. Immutable.
 *
 * @param moduleId  the module
 * @param pid       the process id
 * @param stage     how far the ladder had to go for the process itself
 * @param exitCode  the process's exit code, empty if it was still alive at the end
 * @param survivors processes of the tree (the process and its descendants) still alive at the end; zero
 *                  unless something resisted SIGKILL or {@link StopLadder#killWait()} was too short
 */
public record StopReport(String moduleId, long pid, StopStage stage, OptionalInt exitCode, int survivors) {
    public StopReport {
        Objects.requireNonNull(moduleId, "moduleId");
        Objects.requireNonNull(stage, "stage");
        Objects.requireNonNull(exitCode, "exitCode");
        if (survivors < 0) {
            throw new IllegalArgumentException("survivors must not be negative, got " + survivors);
        }
    }
}
