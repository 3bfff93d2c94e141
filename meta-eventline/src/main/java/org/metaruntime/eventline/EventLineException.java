package org.metaruntime.eventline;

import java.util.Objects;
import java.util.OptionalInt;
import org.metaruntime.supervisor.ModuleException;

/**
 * Unchecked carrier of an {@link EventLineError}: the one exception type thrown by {@link EventLineRunner}.
 * Besides the error value it carries the module id, the exit code when the process had exited on its own
 * before the error was raised, and the tail of its stderr (bounded by {@code ProcessSpec.stderrTailBytes()}).
 * The original {@code ProcessBoundaryException} or {@code NormalizationException}, if any, is the cause.
 * Immutable, hence thread-safe. {@link EventLineError} shows how to handle one.
 */
public class EventLineException extends ModuleException {

    private final transient EventLineError error;

    /**
     * An exception whose message names the module, the error, the exit code and the stderr tail (see
     * {@link ModuleException#formatMessage}).
     *
     * @param moduleId   the module whose process failed
     * @param error      the error value
     * @param exitCode   the exit code when the process exited on its own before the error, else empty
     * @param stderrTail the tail of its stderr, empty when nothing was written (or the process never ran)
     * @param cause      the underlying exception, or {@code null}
     */
    public EventLineException(String moduleId, EventLineError error, OptionalInt exitCode, String stderrTail,
            Throwable cause) {
        super(moduleId, "module '" + moduleId + "'", Objects.requireNonNull(error, "error").message(), exitCode,
                stderrTail, cause);
        this.error = error;
    }

    /** The error as a value. */
    public EventLineError error() {
        return error;
    }

    /** The error's code: {@code error().code()}, e.g. {@code "process.timeout"}. */
    @Override
    public String code() {
        return error.code();
    }
}
