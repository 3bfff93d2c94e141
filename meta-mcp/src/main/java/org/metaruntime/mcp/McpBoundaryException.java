package org.metaruntime.mcp;

import java.util.Objects;
import java.util.OptionalInt;
import org.metaruntime.supervisor.ModuleException;

/**
 * Unchecked carrier of a {@link McpBoundaryError}; its message is the error's sentence (through the runtime's one
 * message formatter, {@link ModuleException#formatMessage}). When the failure came from the server's death,
 * {@link #exitCode()} and {@link #stderrTail()} carry the exit code and the last bytes it wrote to stderr as fields
 * (they are in the message too). {@link #code()} is the error's stable code. Immutable, safe to read from any thread.
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
public class McpBoundaryException extends ModuleException {

    private static final String LEAD = "MCP boundary";

    private final transient McpBoundaryError error;

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
        super(Objects.requireNonNull(error, "error").moduleId(), LEAD, error.message(),
                Objects.requireNonNull(exitCode, "exitCode"), Objects.requireNonNull(stderrTail, "stderrTail"), cause);
        this.error = error;
    }

    /** The error as a value. */
    public McpBoundaryError error() {
        return error;
    }

    /**
     * The error's stable code, e.g. {@value McpBoundaryError#CODE_TIMEOUT}; for
     * {@link McpBoundaryError.OperationFailedWithCloseFailure} the code of the step that failed first.
     */
    @Override
    public String code() {
        McpBoundaryError e = error;
        while (e instanceof McpBoundaryError.OperationFailedWithCloseFailure) {
            e = ((McpBoundaryError.OperationFailedWithCloseFailure) e).primary();
        }
        return e.code();
    }

    /** The same error, exit code and stderr tail, thrown again from this thread with {@code this} as its cause. */
    McpBoundaryException rethrown() {
        return new McpBoundaryException(error, this, exitCode(), stderrTail());
    }
}
