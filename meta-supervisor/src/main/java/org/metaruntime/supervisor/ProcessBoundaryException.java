package org.metaruntime.supervisor;

import java.util.Objects;

/** Unchecked carrier of a {@link ProcessBoundaryError}; the message names the module and the cause. */
public class ProcessBoundaryException extends RuntimeException {

    private final transient String moduleId;
    private final transient ProcessBoundaryError error;

    public ProcessBoundaryException(String moduleId, ProcessBoundaryError error) {
        this(moduleId, error, null);
    }

    public ProcessBoundaryException(String moduleId, ProcessBoundaryError error, Throwable cause) {
        super("module '" + moduleId + "': " + Objects.requireNonNull(error, "error").message(), cause);
        this.moduleId = Objects.requireNonNull(moduleId, "moduleId");
        this.error = error;
    }

    /** The module whose process failed. */
    public String moduleId() {
        return moduleId;
    }

    /** The error as a value. */
    public ProcessBoundaryError error() {
        return error;
    }
}
