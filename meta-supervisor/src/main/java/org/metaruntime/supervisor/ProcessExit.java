package org.metaruntime.supervisor;

import java.util.Objects;

/**
 * How a module's process ended. Immutable.
 *
 * @param moduleId           the module
 * @param pid                the process id
 * @param exitCode           the exit code; on Unix a process ended by signal N reports {@code 128 + N}
 *                           (143 after SIGTERM, 137 after SIGKILL)
 * @param stderrTail         the newest stderr bytes (at most {@link ProcessSpec#stderrTailBytes()}) as UTF-8
 * @param requestedByRuntime true when the exit was observed after {@link ModuleProcess#stop} began: a requested
 *                           stop, never a failure
 */
public record ProcessExit(String moduleId, long pid, int exitCode, String stderrTail, boolean requestedByRuntime) {
    public ProcessExit {
        Objects.requireNonNull(moduleId, "moduleId");
        Objects.requireNonNull(stderrTail, "stderrTail");
    }
}
