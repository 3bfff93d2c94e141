package org.metaruntime.gateway.internal.rpc;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * JSON-RPC 2.0 messages as Jackson trees. Non-ASCII text is written as is (never as {@code \\uXXXX}).
 * Stateless and thread-safe.
 */
public final class JsonRpc {

    /** The mapper for every message: UTF-8, no escaping of non-ASCII, big numbers kept exact. */
    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
            .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    static {
        MAPPER.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxStringLength(64 * 1024 * 1024).maxNestingDepth(500).build());
    }

    public static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    public static final int PARSE_ERROR = -32700;
    public static final int INVALID_REQUEST = -32600;
    public static final int METHOD_NOT_FOUND = -32601;
    public static final int INVALID_PARAMS = -32602;
    public static final int INTERNAL_ERROR = -32603;
    /** The call timed out ({@code callTimeout}). */
    public static final int TIMEOUT = -32001;
    /** The pod is not available (crashed, stopped, restarting). */
    public static final int UNAVAILABLE = -32002;
    /** The pod failed to start (within {@code startupTimeout}). */
    public static final int START_FAILED = -32003;
    /** Call cycle or maximum depth. */
    public static final int CYCLE = -32004;
    /** Contract mismatch. */
    public static final int CONTRACT_MISMATCH = -32005;

    private JsonRpc() {
    }

    public static ObjectNode request(JsonNode id, String method, JsonNode params) {
        ObjectNode m = NODES.objectNode().put("jsonrpc", "2.0");
        m.set("id", id);
        m.put("method", method);
        if (params != null) {
            m.set("params", params);
        }
        return m;
    }

    public static ObjectNode notification(String method, JsonNode params) {
        ObjectNode m = NODES.objectNode().put("jsonrpc", "2.0").put("method", method);
        if (params != null) {
            m.set("params", params);
        }
        return m;
    }

    public static ObjectNode result(JsonNode id, JsonNode result) {
        ObjectNode m = NODES.objectNode().put("jsonrpc", "2.0");
        m.set("id", id);
        m.set("result", result == null ? NODES.objectNode() : result);
        return m;
    }

    public static ObjectNode error(JsonNode id, int code, String message, JsonNode data) {
        ObjectNode m = NODES.objectNode().put("jsonrpc", "2.0");
        m.set("id", id == null ? NODES.nullNode() : id);
        ObjectNode error = m.putObject("error").put("code", code).put("message", message);
        if (data != null && !data.isNull()) {
            error.set("data", data);
        }
        return m;
    }

    /** One line of JSON (no line breaks inside: JSON strings escape them). */
    public static String write(JsonNode message) {
        try {
            return MAPPER.writeValueAsString(message);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise a JSON tree", e);
        }
    }
}
