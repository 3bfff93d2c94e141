package org.metaruntime.gateway.internal.rpc;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A JSON-RPC error answer: code, one-sentence message (naming the pod and tool where there is one) and data.
 */
public final class RpcException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int code;
    private final transient JsonNode data;

    public RpcException(int code, String message, JsonNode data) {
        super(message, null, false, false);
        this.code = code;
        this.data = data;
    }

    public RpcException(int code, String message) {
        this(code, message, null);
    }

    public int code() {
        return code;
    }

    public JsonNode data() {
        return data;
    }
}
