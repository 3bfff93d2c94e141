package org.metaruntime.mcp;

import java.util.Objects;

/**
 * Unchecked carrier of a {@link McpBoundaryError}; its message is the error's sentence. The error it carries is
 * an immutable value, safe to read from any thread. {@link McpBoundaryError} shows how to handle one.
 */
public class McpBoundaryException extends RuntimeException {

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
        super(Objects.requireNonNull(error, "error").message(), cause);
        this.error = error;
    }

    /** The error as a value. */
    public McpBoundaryError error() {
        return error;
    }
}
