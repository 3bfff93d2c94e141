package org.metaruntime.core;

import java.util.List;
import java.util.Objects;

/**
 * What {@code UnifiedRuntime.shutdown()} did.
 *
 * <p>Immutable and thread-safe.
 *
 * @param terminatedModules the modules whose children were stopped, sorted
 * @param orphanProcesses   processes of the stopped trees still alive at the end of their stop ladder
 */
public record RuntimeShutdownReport(List<String> terminatedModules, int orphanProcesses) {
    public RuntimeShutdownReport {
        terminatedModules = List.copyOf(Objects.requireNonNull(terminatedModules, "terminatedModules").stream().sorted().toList());
        if (orphanProcesses < 0) {
            throw new IllegalArgumentException("orphanProcesses must be >= 0: " + orphanProcesses);
        }
    }
}
