package org.metaruntime.module;

/**
 * Thrown by a {@link ToolHandler} to refuse a call (bad arguments, a failed operation): the caller gets a tool
 * result with {@code isError: true} and this message as its text, which is what the model reads.
 *
 * <pre>{@code
 * if (!args.path("text").isTextual()) {
 *     throw new ToolException("'text' must be a string");
 * }
 * }</pre>
 */
public class ToolException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** A refusal with {@code message} as the result's text. */
    public ToolException(String message) {
        super(message);
    }

    /** A refusal with {@code message} as the result's text, and its cause (written to stderr only). */
    public ToolException(String message, Throwable cause) {
        super(message, cause);
    }
}
