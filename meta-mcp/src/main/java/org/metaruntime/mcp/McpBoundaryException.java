package org.metaruntime.mcp;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * Unchecked carrier of a {@link McpBoundaryError}; its message is the error's sentence. When the failure came from
 * the server's death, {@link #exitCode()} and {@link #stderrTail()} carry the exit code and the last bytes it wrote
 * to stderr as fields (they are in the message too). Immutable, safe to read from any thread.
 *
 * <pre>{@code
 * try {
 *     connection.callTool("search", arguments, Duration.ofSeconds(10));
 * } catch (McpBoundaryException e) {
 *     if (e.exitCode().isPresent()) {
 *         log.warn("module {} died with code {}: {}", e.moduleId(), e.exitCode().getAsInt(), e.stderrTail());
 *     }
 * }
 * }</pre>
 */
public class McpBoundaryException extends RuntimeException {

    private final transient McpBoundaryError error;
    private final transient OptionalInt exitCode;
    private final transient String stderrTail;

    /**
     * An exception carrying {@code error}, without a cause.
     *
     * @param error what went wrong
     */
    public McpBoundaryException(McpBoundaryError error) {
        this(error, null);
    }

    /**
     * An exception carrying {@code error}.
     *
     * @param error what went wrong
     * @param cause the underlying exception, or null
     */
    public McpBoundaryException(McpBoundaryError error, Throwable cause) {
        this(error, cause, OptionalInt.empty(), "");
    }

    /**
     * An exception carrying {@code error} and what is known of the server's exit.
     *
     * @param error      what went wrong
     * @param cause      the underlying exception, or null
     * @param exitCode   the server's exit code when it died, else empty
     * @param stderrTail the newest bytes the server wrote to stderr, or empty
     */
    public McpBoundaryException(McpBoundaryError error, Throwable cause, OptionalInt exitCode, String stderrTail) {
        super(Objects.requireNonNull(error, "error").message(), cause);
        this.error = error;
        this.exitCode = Objects.requireNonNull(exitCode, "exitCode");
        this.stderrTail = Objects.requireNonNull(stderrTail, "stderrTail");
    }

    /** The error as a value. */
    public McpBoundaryError error() {
        return error;
    }

    /** The module the error is about. */
    public String moduleId() {
        return error.moduleId();
    }

    /** The error's stable code, e.g. {@value McpBoundaryError#CODE_TIMEOUT}. */
    public String code() {
        return error.code();
    }

    /** The server's exit code when the failure is its death, else empty. */
    public OptionalInt exitCode() {
        return exitCode;
    }

    /** The newest bytes the server wrote to stderr when the failure is its death, else empty. */
    public String stderrTail() {
        return stderrTail;
    }

    /** The same error, exit code and stderr tail, thrown again from this thread with {@code this} as its cause. */
    McpBoundaryException rethrown() {
        return new McpBoundaryException(error, this, exitCode, stderrTail);
    }
}
