package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.metaruntime.core.McpModule;
import org.metaruntime.gateway.internal.rpc.Dispatcher;
import org.metaruntime.gateway.internal.rpc.Eras;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.mcp.McpClientRequestHandler;

/**
 * What a call to a modern pod (MCP {@value Eras#MODERN}) carries in its {@code _meta} on behalf of the calling client:
 * the capabilities that client declared (in its request if modern, at its {@code initialize} if legacy) among
 * {@code elicitation}, {@code sampling} and {@code roots}, and for a modern client the tasks extension when it
 * declared it; and the {@code logLevel} a modern request carried. The protocol version and the gateway's name are
 * added by the pod's MCP client. Stateless.
 */
final class ModernPods {

    private static final List<String> FORWARDED = List.of("elicitation", "sampling", "roots");
    private static final String TASKS = TaskRequests.EXTENSION;

    private ModernPods() {
    }

    /** The {@code _meta} keys a modern pod's call for {@code request} carries. */
    static ObjectNode callMeta(Dispatcher.Request request) {
        ObjectNode capabilities = JsonRpc.NODES.objectNode();
        JsonNode declared = request.isModern() ? request.envelope().clientCapabilities() : null;
        for (String capability : FORWARDED) {
            if (request.clientDeclares(capability)) {
                JsonNode value = declared == null ? null : declared.get(capability);
                capabilities.set(capability, value != null && value.isObject() ? value.deepCopy() : JsonRpc.NODES.objectNode());
            }
        }
        JsonNode tasks = declared == null ? null : declared.path("extensions").get(TASKS);
        if (tasks != null && !tasks.isNull()) {
            capabilities.putObject("extensions").set(TASKS, tasks.deepCopy());
        }
        ObjectNode meta = JsonRpc.NODES.objectNode();
        meta.set(Eras.CLIENT_CAPABILITIES_KEY, capabilities);
        if (request.isModern() && request.envelope().logLevel() != null) {
            meta.put(Eras.LOG_LEVEL_KEY, request.envelope().logLevel().wire());
        }
        return meta;
    }

    /**
     * The params a client gets for a pod's request to it with {@code params}: for an input request of a modern pod's
     * {@code input_required} round, the params as the pod sent them; else {@code params}.
     */
    static JsonNode clientParams(JsonNode params) {
        JsonNode round = params == null ? null : params.path("_meta").get(McpClientRequestHandler.INPUT_ROUND_META_KEY);
        JsonNode sent = round == null ? null : round.path("request").get("params");
        if (round != null && round.path("request").isObject()) {
            return sent == null || sent.isNull() ? JsonRpc.NODES.objectNode() : sent.deepCopy();
        }
        return params;
    }

    /** Whether {@code module}'s current process or connection speaks the modern revision. */
    static boolean speaksModern(McpModule module) {
        return Eras.MODERN.equals(module.protocolVersion());
    }

    /**
     * The {@code _meta} keys of a modern pod's call: {@code modernMeta} (without the tasks extension unless the pod
     * is {@code taskCapable}), or for the gateway's own calls no capability.
     */
    static ObjectNode podMeta(ObjectNode modernMeta, boolean taskCapable) {
        if (modernMeta != null) {
            JsonNode capabilities = modernMeta.get(Eras.CLIENT_CAPABILITIES_KEY);
            if (taskCapable || capabilities == null || !capabilities.path("extensions").has(TASKS)) {
                return modernMeta;
            }
            ObjectNode out = modernMeta.deepCopy();
            ObjectNode kept = (ObjectNode) out.get(Eras.CLIENT_CAPABILITIES_KEY);
            ((ObjectNode) kept.get("extensions")).remove(TASKS);
            if (kept.get("extensions").isEmpty()) {
                kept.remove("extensions");
            }
            return out;
        }
        ObjectNode meta = JsonRpc.NODES.objectNode();
        meta.putObject(Eras.CLIENT_CAPABILITIES_KEY);
        return meta;
    }
}
