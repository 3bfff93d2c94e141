package org.metaruntime.mcp;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The JSON-RPC error a {@link McpClientRequestHandler} answers to a server's request: complete the handler's stage
 * exceptionally with it and the server gets {@code {"code", "message", "data"}} as given. Any other failure of a
 * handler is answered with -32603 (internal error). Immutable.
 *
 * <pre>{@code
 * McpClientRequestHandler handler = (moduleId, params) -> CompletableFuture.failedFuture(
 *         new McpClientRequestException(-32004, "call cycle", chainAsJson));
 * }</pre>
 */
public final class McpClientRequestException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int code;
    private final transient JsonNode data;

    /**
     * @param code    the JSON-RPC error code
     * @param message the error's message
     * @param data    the error's {@code data}, or null for none
     */
    public McpClientRequestException(int code, String message, JsonNode data) {
        super(message, null, false, false);
        this.code = code;
        this.data = data == null ? null : data.deepCopy();
    }

    /** The JSON-RPC error code. */
    public int code() {
        return code;
    }

    /** The error's {@code data}, or null. */
    public JsonNode data() {
        return data == null ? null : data.deepCopy();
    }
}
