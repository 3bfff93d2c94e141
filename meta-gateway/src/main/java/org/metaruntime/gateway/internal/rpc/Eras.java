package org.metaruntime.gateway.internal.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The two eras of MCP the gateway speaks. <em>Legacy</em> revisions open a session with {@code initialize};
 * the <em>modern</em> revision {@value #MODERN} has none: each request carries its version and the client's
 * capabilities in {@code params._meta}, and is classified and checked on its own here. Stateless.
 */
public final class Eras {

    /** The modern revision. */
    public static final String MODERN = "2026-07-28";
    /** The legacy revisions, reached through {@code initialize}, newest first. */
    public static final List<String> LEGACY = List.of("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");
    /** Every revision the gateway speaks, newest first. */
    public static final List<String> SUPPORTED = supported();

    public static final String PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
    public static final String CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";
    public static final String CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo";
    public static final String LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel";
    public static final String SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";
    public static final String SUBSCRIPTION_ID_KEY = "io.modelcontextprotocol/subscriptionId";

    /** Header mismatch between an HTTP request's headers and its body. */
    public static final int HEADER_MISMATCH = -32020;
    /** The request needs a client capability it did not declare. */
    public static final int MISSING_CLIENT_CAPABILITY = -32021;
    /** The protocol version asked for is not spoken per request. */
    public static final int UNSUPPORTED_VERSION = -32022;

    /** What a modern request carries besides its params. */
    public record Envelope(JsonNode clientCapabilities, LogLevel logLevel) {

        /** Whether the client declared {@code capability} (sampling, elicitation, roots) in this request. */
        public boolean declares(String capability) {
            JsonNode value = clientCapabilities.get(capability);
            return value != null && !value.isNull();
        }
    }

    private Eras() {
    }

    private static List<String> supported() {
        List<String> all = new ArrayList<>();
        all.add(MODERN);
        all.addAll(LEGACY);
        return List.copyOf(all);
    }

    /** Whether a request of {@code method} with {@code params} is modern: it is {@code server/discover}, or its {@code _meta} names a version. */
    public static boolean isModern(String method, JsonNode params) {
        return "server/discover".equals(method) || (params != null && params.path("_meta").has(PROTOCOL_VERSION_KEY));
    }

    /**
     * Checks a modern request's {@code _meta}: its version first (-32022 unless {@value #MODERN}), then the keys it
     * must carry (-32602), then its log level (-32602 unless an MCP level).
     *
     * @throws RpcException the error the request is answered with
     */
    public static Envelope check(JsonNode params) {
        JsonNode meta = params == null ? JsonRpc.NODES.objectNode() : params.path("_meta");
        JsonNode version = meta.get(PROTOCOL_VERSION_KEY);
        if (version != null && !MODERN.equals(version.asText(null))) {
            ObjectNode data = JsonRpc.NODES.objectNode();
            ArrayNode supported = data.putArray("supported");
            SUPPORTED.forEach(supported::add);
            data.set("requested", version);
            throw new RpcException(UNSUPPORTED_VERSION, "unsupported protocol version " + version
                    + " (per request: " + MODERN + "; " + String.join(", ", LEGACY) + " through initialize)", data);
        }
        if (version == null) {
            throw new RpcException(JsonRpc.INVALID_PARAMS, "a " + MODERN + " request carries _meta[\"" + PROTOCOL_VERSION_KEY + "\"]");
        }
        JsonNode capabilities = meta.get(CLIENT_CAPABILITIES_KEY);
        if (capabilities == null || !capabilities.isObject()) {
            throw new RpcException(JsonRpc.INVALID_PARAMS, "a " + MODERN + " request carries _meta[\"" + CLIENT_CAPABILITIES_KEY
                    + "\"], an object");
        }
        JsonNode level = meta.get(LOG_LEVEL_KEY);
        LogLevel logLevel = null;
        if (level != null) {
            logLevel = (level.isTextual() ? LogLevel.of(level.textValue()) : java.util.Optional.<LogLevel>empty())
                    .orElseThrow(() -> new RpcException(JsonRpc.INVALID_PARAMS, "unknown log level " + level + " in _meta[\""
                            + LOG_LEVEL_KEY + "\"] (debug, info, notice, warning, error, critical, alert, emergency)"));
        }
        return new Envelope(capabilities, logLevel);
    }
}
