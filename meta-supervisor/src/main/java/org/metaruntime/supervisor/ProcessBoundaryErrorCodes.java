package org.metaruntime.supervisor;

import static java.util.Map.entry;

import java.util.Map;

/**
 * The one table of {@link ProcessBoundaryError}'s codes: each record with its {@code CODE}. A new record gets its
 * line here; {@code ProcessBoundaryErrorCodesTest} fails for a record without one.
 */
final class ProcessBoundaryErrorCodes {

    /** Each record's code, read by {@link ProcessBoundaryError#code()}. */
    static final Map<Class<? extends ProcessBoundaryError>, String> BY_RECORD = Map.ofEntries(
            entry(ProcessBoundaryError.SpawnFailed.class, ProcessBoundaryError.SpawnFailed.CODE),
            entry(ProcessBoundaryError.Io.class, ProcessBoundaryError.Io.CODE),
            entry(ProcessBoundaryError.Timeout.class, ProcessBoundaryError.Timeout.CODE),
            entry(ProcessBoundaryError.EmptyOutput.class, ProcessBoundaryError.EmptyOutput.CODE),
            entry(ProcessBoundaryError.LineTooLong.class, ProcessBoundaryError.LineTooLong.CODE),
            entry(ProcessBoundaryError.Exited.class, ProcessBoundaryError.Exited.CODE),
            entry(ProcessBoundaryError.Cancelled.class, ProcessBoundaryError.Cancelled.CODE));

    private ProcessBoundaryErrorCodes() {
    }
}
