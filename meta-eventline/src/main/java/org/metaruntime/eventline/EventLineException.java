package org.metaruntime.eventline;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * Unchecked carrier of an {@link EventLineError}: the one exception type thrown by {@link EventLineRunner}.
 * Besides the error value it carries the module id, the exit code when the process had exited on its own
 * before the error was raised, and the tail of its stderr (bounded by the spec's {@code stderrTailBytes}).
 * The original {@code ProcessBoundaryException} or {@code NormalizationException}, if any, is the cause.
 * Immutable, hence thread-safe. {@link EventLineError} shows how to handle one.
 */
public class EventLineException extends RuntimeException {

    private static final int MESSAGE_TAIL_CHARS = 512;

    private final transient String moduleId;
    private final transient EventLineError error;
    private final transient OptionalInt exitCode;
    private final transient String stderrTail;

    /**
     * An exception whose message names the module, the error, the exit code and the stderr tail (shortened to
     * its last 512 characters, line breaks shown as {@code |}).
     *
     * @param moduleId   the module whose process failed
     * @param error      the error value
     * @param exitCode   the exit code when the process exited on its own before the error, else empty
     * @param stderrTail the tail of its stderr, empty when nothing was written (or the process never ran)
     * @param cause      the underlying exception, or {@code null}
     */
    public EventLineException(String moduleId, EventLineError error, OptionalInt exitCode, String stderrTail,
            Throwable cause) {
        super(message(moduleId, error, exitCode, stderrTail), cause);
        this.moduleId = moduleId;
        this.error = error;
        this.exitCode = exitCode;
        this.stderrTail = stderrTail;
    }

    /** The module whose process failed. */
    public String moduleId() {
        return moduleId;
    }

    /** The error as a value. */
    public EventLineError error() {
        return error;
    }

    /** The exit code, when the process had exited on its own before the error was raised. */
    public OptionalInt exitCode() {
        return exitCode;
    }

    /** The tail of the process's stderr; empty when it wrote nothing or never ran. */
    public String stderrTail() {
        return stderrTail;
    }

    private static String message(String moduleId, EventLineError error, OptionalInt exitCode, String stderrTail) {
        Objects.requireNonNull(moduleId, "moduleId");
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(exitCode, "exitCode");
        Objects.requireNonNull(stderrTail, "stderrTail");
        StringBuilder sb = new StringBuilder("module '").append(moduleId).append("': ").append(error.message());
        String tail = stderrTail.strip();
        if (exitCode.isPresent() || !tail.isEmpty()) {
            sb.append(" (");
            if (exitCode.isPresent()) {
                sb.append("exit code ").append(exitCode.getAsInt());
            }
            if (!tail.isEmpty()) {
                if (exitCode.isPresent()) {
                    sb.append(", ");
                }
                if (tail.length() > MESSAGE_TAIL_CHARS) {
                    int cut = tail.length() - MESSAGE_TAIL_CHARS;
                    if (Character.isLowSurrogate(tail.charAt(cut))) {
                        cut++;
                    }
                    tail = "..." + tail.substring(cut);
                }
                sb.append("stderr: ").append(tail.replaceAll("\\s*\\R\\s*", " | "));
            }
            sb.append(')');
        }
        return sb.toString();
    }
}
