package org.metaruntime.supervisor;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * Unchecked carrier of a {@link ProcessBoundaryError}; the message names the module and the cause. An
 * {@link ProcessBoundaryError.Exited} error also fills {@link #exitCode()} and {@link #stderrTail()}. The module
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
public class ProcessBoundaryException extends ModuleException {

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
        super(moduleId, "module '" + moduleId + "'", Objects.requireNonNull(error, "error").message(),
                exitCodeOf(error), stderrTailOf(error), cause);
        this.error = error;
    }

    private static OptionalInt exitCodeOf(ProcessBoundaryError error) {
        return error instanceof ProcessBoundaryError.Exited exited ? OptionalInt.of(exited.exitCode()) : OptionalInt.empty();
    }

    private static String stderrTailOf(ProcessBoundaryError error) {
        return error instanceof ProcessBoundaryError.Exited exited ? exited.stderrTail() : "";
    }

    /** The error's code: {@code error().code()}. */
    @Override
    public String code() {
        return error.code();
    }

    /** The error as a value. */
    public ProcessBoundaryError error() {
        return error;
    }
}
