package org.metaruntime.gateway.internal.rpc;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A JSON-RPC error answer: code, one-sentence message (naming the pod and tool where there is one) and data.
 */
public final class RpcException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int code;
    private final transient JsonNode data;
    private final boolean podAnswer;

    public RpcException(int code, String message, JsonNode data) {
        this(code, message, data, false);
    }

    private RpcException(int code, String message, JsonNode data, boolean podAnswer) {
        super(message, null, false, false);
        this.code = code;
        this.data = data;
        this.podAnswer = podAnswer;
    }

    /** The same error, as a pod's own error answer passed on (not an error of the gateway's). */
    public RpcException asPodAnswer() {
        return new RpcException(code, getMessage(), data, true);
    }

    /** Whether it is a pod's own error answer passed on. */
    public boolean podAnswer() {
        return podAnswer;
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
