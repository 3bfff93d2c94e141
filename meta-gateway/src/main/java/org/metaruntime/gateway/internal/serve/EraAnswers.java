package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.metaruntime.gateway.internal.rpc.Dispatcher;
import org.metaruntime.gateway.internal.rpc.Eras;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.rpc.RpcException;

/**
 * What the gateway says about itself in each era: its capabilities and identity as {@code initialize} and
 * {@code server/discover} declare them, and the envelope of a 2026-07-28 answer (its {@code resultType} and server
 * info, the cache hints of a list, the error codes that era uses). Stateless.
 */
final class EraAnswers {

    /** The gateway's version in {@code serverInfo}. */
    static final String VERSION = "0.1.0";

    private EraAnswers() {
    }

    /** What the gateway serves, as {@code initialize} and {@code server/discover} declare it. */
    static ObjectNode capabilities() {
        ObjectNode capabilities = JsonRpc.NODES.objectNode();
        capabilities.putObject("tools").put("listChanged", true);
        capabilities.putObject("resources").put("listChanged", true).put("subscribe", false);
        capabilities.putObject("prompts").put("listChanged", true);
        capabilities.putObject("logging");
        capabilities.putObject("completions");
        return capabilities;
    }

    static ObjectNode serverInfo() {
        return JsonRpc.NODES.objectNode().put("name", "meta-gateway").put("title", "meta-runtime gateway").put("version", VERSION);
    }

    /** The answer to {@code initialize} in protocol version {@code version}. */
    static ObjectNode initialized(String version, String instructions) {
        ObjectNode result = JsonRpc.NODES.objectNode().put("protocolVersion", version);
        result.set("capabilities", capabilities());
        result.set("serverInfo", serverInfo());
        result.put("instructions", instructions);
        return result;
    }

    /**
     * The answer to {@code server/discover}, from what the gateway knows now (no pod is waited for or started).
     *
     * @param tasks whether the gateway makes tasks of long calls, or a started pod offers the tasks extension
     */
    static ObjectNode discovered(boolean tasks, String instructions) {
        ObjectNode result = JsonRpc.NODES.objectNode();
        Eras.SUPPORTED.forEach(result.putArray("supportedVersions")::add);
        ObjectNode capabilities = capabilities();
        if (tasks) {
            capabilities.putObject("extensions").putObject(TaskRequests.EXTENSION);
        }
        result.set("capabilities", capabilities);
        result.put("instructions", instructions);
        return result;
    }

    /** A list result for a modern request with its cache hints: private to the caller when callers are authenticated. */
    static JsonNode cached(Dispatcher.Request request, JsonNode result, long ttlMs) {
        if (!request.isModern()) {
            return result;
        }
        return cached(result, ttlMs, request.session().authenticated() ? "private" : "public");
    }

    static JsonNode cached(JsonNode result, long ttlMs, String scope) {
        ObjectNode out = result.isObject() ? ((ObjectNode) result).deepCopy() : JsonRpc.NODES.objectNode();
        out.put("ttlMs", ttlMs);
        out.put("cacheScope", scope);
        return out;
    }

    /**
     * A modern request's error, never -32002: a pod that is not available is -32003 like one that failed to start,
     * {@code data.reason} telling which; a pod's own -32002 answer (its "resource not found") is -32602.
     */
    static RpcException modernError(RpcException error) {
        if (error.podAnswer()) {
            return error.code() == JsonRpc.UNAVAILABLE
                    ? new RpcException(JsonRpc.INVALID_PARAMS, error.getMessage(), error.data()) : error;
        }
        if (error.code() != JsonRpc.UNAVAILABLE && error.code() != JsonRpc.START_FAILED) {
            return error;
        }
        ObjectNode data = error.data() != null && error.data().isObject() ? ((ObjectNode) error.data()).deepCopy() : JsonRpc.NODES.objectNode();
        data.put("reason", error.code() == JsonRpc.UNAVAILABLE ? "unavailable" : "startup");
        return new RpcException(JsonRpc.START_FAILED, error.getMessage(), data);
    }

    /** A modern request's result: its {@code resultType} ({@code complete} unless it has one) and the server's info. */
    static JsonNode modernResult(Dispatcher.Request request, JsonNode result) {
        ObjectNode out = result != null && result.isObject() ? (ObjectNode) result : JsonRpc.NODES.objectNode();
        if (!out.has("resultType")) {
            out.put("resultType", "complete");
        }
        JsonNode meta = out.get("_meta");
        ObjectNode metaOut = meta != null && meta.isObject() ? (ObjectNode) meta : out.putObject("_meta");
        metaOut.set(Eras.SERVER_INFO_KEY, serverInfo());
        if (meta != metaOut) {
            out.set("_meta", metaOut);
        }
        return out;
    }
}
