package org.metaruntime.supervisor;

import java.util.Objects;

/**
 * Unchecked carrier of a {@link ProcessBoundaryError}; the message names the module and the cause. The module
 * id and the error it carries are immutable values, safe to read from any thread.
 *
 * <pre>{@code
 * try {
 *     process.send(request);
 * } catch (ProcessBoundaryException e) {
 *     log.warn("module {}: {}", e.moduleId(), e.error().message());
 * }
 * }</pre>
 */
public class ProcessBoundaryException extends RuntimeException {

    private final transient String moduleId;
    private final transient ProcessBoundaryError error;

    /**
     * An exception for {@code moduleId} carrying {@code error}, without a cause.
     *
     * @param moduleId the module whose process failed
     * @param error    what went wrong
     */
    public ProcessBoundaryException(String moduleId, ProcessBoundaryError error) {
        this(moduleId, error, null);
    }

    /**
     * An exception for {@code moduleId} carrying {@code error}.
     *
     * @param moduleId the module whose process failed
     * @param error    what went wrong
     * @param cause    the underlying exception, or null
     */
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
