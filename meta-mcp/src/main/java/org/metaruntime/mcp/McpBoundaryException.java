package org.metaruntime.mcp;

import java.util.Objects;

/** Unchecked carrier of a {@link McpBoundaryError}; its message is the error's sentence. */
public class McpBoundaryException extends RuntimeException {

    private final transient McpBoundaryError error;

    public McpBoundaryException(McpBoundaryError error) {
        this(error, null);
    }

    public McpBoundaryException(McpBoundaryError error, Throwable cause) {
        super(Objects.requireNonNull(error, "error").message(), cause);
        this.error = error;
    }

    /** The error as a value. */
    public McpBoundaryError error() {
        return error;
    }
}
