package org.metaruntime.supervisor;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * The base of every exception the runtime throws about one module: it carries the module id, the exit code and
 * stderr tail of the module's process when the error came from a process that ran, and a stable error
 * {@link #code()}. Every subclass builds its message with the one formatter, {@link #formatMessage}, so all
 * messages read alike: one sentence naming the module and the cause, then the process's exit code and the end
 * of its stderr.
 *
 * <p>Immutable, hence thread-safe.
 *
 * <pre>{@code
 * try {
 *     runtime.routeModuleCall(request, Duration.ofSeconds(5));
 * } catch (ModuleException e) {
 *     metrics.count(e.code());   // e.g. "process.timeout"
 *     log.warn("{} (exit code {})", e.getMessage(), e.exitCode());
 * }
 * }</pre>
 */
public abstract class ModuleException extends RuntimeException {

    /** How many characters of the stderr tail a message shows (its end). */
    public static final int MESSAGE_TAIL_CHARS = 512;

    private final String moduleId;
    private final transient OptionalInt exitCode;
    private final String stderrTail;

    /**
     * An exception whose message is {@code formatMessage(lead, cause, exitCode, stderrTail)}.
     *
     * @param moduleId   the module the error is about
     * @param lead       the start of the sentence, naming the module, e.g. {@code "module 'search'"} or
     *                   {@code "call to module 'search' failed"}
     * @param cause      the cause as a sentence fragment, e.g. the error value's message
     * @param exitCode   the exit code when the module's process had exited, else empty
     * @param stderrTail the end of the process's stderr, empty when unknown or the process never ran
     * @param throwable  the underlying exception, or {@code null}
     */
    protected ModuleException(String moduleId, String lead, String cause, OptionalInt exitCode, String stderrTail,
                              Throwable throwable) {
        super(formatMessage(lead, cause, exitCode, stderrTail), throwable);
        this.moduleId = Objects.requireNonNull(moduleId, "moduleId");
        this.exitCode = exitCode;
        this.stderrTail = stderrTail;
    }

    /**
     * The one message formatter: {@code lead + ": " + cause}, then in parentheses the exit code and the end of the
     * stderr tail (its last {@value #MESSAGE_TAIL_CHARS} characters, line breaks shown as {@code " | "}), each only
     * when present and not already stated by {@code cause}. The result is one line.
     *
     * <pre>{@code
     * formatMessage("module 'm'", "the process exited without writing a line to stdout", OptionalInt.of(3), "boom\n")
     * // module 'm': the process exited without writing a line to stdout (exit code 3, stderr: boom)
     * }</pre>
     */
    public static String formatMessage(String lead, String cause, OptionalInt exitCode, String stderrTail) {
        Objects.requireNonNull(lead, "lead");
        Objects.requireNonNull(cause, "cause");
        Objects.requireNonNull(exitCode, "exitCode");
        Objects.requireNonNull(stderrTail, "stderrTail");
        StringBuilder text = new StringBuilder(lead).append(": ").append(oneLine(cause));
        boolean withCode = exitCode.isPresent() && !cause.contains("code " + exitCode.getAsInt());
        String tail = oneLine(shortened(stderrTail.strip()));
        boolean withTail = !tail.isEmpty() && !cause.contains(stderrTail.strip());
        if (withCode || withTail) {
            text.append(" (");
            if (withCode) {
                text.append("exit code ").append(exitCode.getAsInt());
            }
            if (withTail) {
                text.append(withCode ? ", " : "").append("stderr: ").append(tail);
            }
            text.append(')');
        }
        return text.toString();
    }

    /** The module the error is about. */
    public String moduleId() {
        return moduleId;
    }

    /** The exit code of the module's process, when the error came from a process that had exited. */
    public OptionalInt exitCode() {
        return exitCode;
    }

    /** The end of the module's process's stderr; empty when it wrote nothing, never ran, or it is unknown. */
    public String stderrTail() {
        return stderrTail;
    }

    /**
     * The error's stable code, e.g. {@code "process.timeout"}: the {@code CODE} constant of the error value this
     * exception carries (for a composed error, of the innermost cause).
     */
    public abstract String code();

    private static String shortened(String tail) {
        if (tail.length() <= MESSAGE_TAIL_CHARS) {
            return tail;
        }
        int cut = tail.length() - MESSAGE_TAIL_CHARS;
        if (Character.isLowSurrogate(tail.charAt(cut))) {
            cut++;
        }
        return "..." + tail.substring(cut);
    }

    private static String oneLine(String text) {
        return text.indexOf('\n') < 0 && text.indexOf('\r') < 0 ? text : text.strip().replaceAll("\\s*\\R\\s*", " | ");
    }
}
