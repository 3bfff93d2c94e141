package org.metaruntime.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.metaruntime.mcp.McpCallOptions;
import org.metaruntime.mcp.McpClientOptions;

/**
 * What a request carries besides its own parameters, which is all that differs between the eras of MCP on the wire:
 * nothing for a legacy session (the handshake said it once), and for a modern server the {@code _meta} keys of
 * revision {@code 2026-07-28} on every request: the protocol version, the client's name and its capabilities
 * (elicitation, sampling and roots when the connection, or the call, answers them; only those of the call with
 * {@link McpClientOptions#perCallCapabilities()}). Keys the caller already put in
 * {@code _meta} are kept: a caller may declare capabilities of its own for one request. Immutable, thread-safe.
 */
public final class Envelope {

    /** The modern protocol version. */
    public static final String MODERN_VERSION = "2026-07-28";
    /** {@code _meta} key of the protocol version. */
    public static final String PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
    /** {@code _meta} key of the client's capabilities. */
    public static final String CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";
    /** {@code _meta} key of the client's name and version. */
    public static final String CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo";
    /** {@code _meta} key of the server's name and version on a modern result. */
    public static final String SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";

    /** The envelope of a legacy session: the parameters as they are. */
    public static final Envelope LEGACY = new Envelope(null, null);

    private final ObjectNode clientInfo;
    private final ObjectNode capabilities;
    /** The {@code _meta} of a request that brings no entries of its own: one node for all of them, never changed. */
    private final ObjectNode plainMeta;

    private Envelope(ObjectNode clientInfo, ObjectNode capabilities) {
        this.clientInfo = clientInfo;
        this.capabilities = capabilities;
        this.plainMeta = clientInfo == null ? null : Json.MAPPER.createObjectNode()
                .put(PROTOCOL_VERSION_KEY, MODERN_VERSION)
                .<ObjectNode>set(CLIENT_INFO_KEY, clientInfo)
                .set(CLIENT_CAPABILITIES_KEY, capabilities);
    }

    /** The modern envelope of a client with {@code options}. */
    public static Envelope modern(McpClientOptions options) {
        ObjectNode info = Json.MAPPER.createObjectNode().put("name", Handshake.CLIENT_NAME).put("version",
                Handshake.CLIENT_VERSION);
        ObjectNode capabilities = Json.MAPPER.createObjectNode();
        if (options.perCallCapabilities()) {
            return new Envelope(info, capabilities);
        }
        if (options.elicitationHandler().isPresent() || options.announceElicitation()) {
            capabilities.putObject("elicitation");
        }
        if (options.samplingHandler().isPresent() || options.announceSampling()) {
            capabilities.putObject("sampling");
        }
        if (!options.roots().isEmpty() || options.rootsHandler().isPresent()) {
            capabilities.putObject("roots");
        }
        return new Envelope(info, capabilities);
    }

    /** Whether requests are sent in the modern era. */
    public boolean isModern() {
        return clientInfo != null;
    }

    /**
     * The parameters to put on the wire for a request with {@code params} (left unchanged) made with
     * {@code callOptions} (null for none): {@code params} itself for a legacy session, else a copy with the modern
     * {@code _meta} keys. The copy is only written to the wire: it shares its values (and, when the request brings no
     * {@code _meta} entries and the call no capabilities of its own, its {@code _meta}) with {@code params} and the
     * other requests, and nobody changes it.
     */
    public ObjectNode params(ObjectNode params, McpCallOptions callOptions) {
        if (!isModern()) {
            return params;
        }
        ObjectNode wire = Json.MAPPER.createObjectNode();
        wire.setAll(params);
        JsonNode given = params.get("_meta");
        ObjectNode own = capabilities(callOptions);
        if (!(given instanceof ObjectNode g && !g.isEmpty()) && own == capabilities) {
            wire.set("_meta", plainMeta);
            return wire;
        }
        ObjectNode meta = Json.MAPPER.createObjectNode();
        if (given instanceof ObjectNode g) {
            meta.setAll(g); // only top-level keys are added below: the given values are shared, not copied
        }
        wire.set("_meta", meta);
        if (!meta.has(PROTOCOL_VERSION_KEY)) {
            meta.put(PROTOCOL_VERSION_KEY, MODERN_VERSION);
        }
        if (!meta.has(CLIENT_INFO_KEY)) {
            meta.set(CLIENT_INFO_KEY, clientInfo);
        }
        if (!meta.has(CLIENT_CAPABILITIES_KEY)) {
            meta.set(CLIENT_CAPABILITIES_KEY, own);
        }
        return wire;
    }

    /** The connection's capabilities, with those a call answers itself. */
    private ObjectNode capabilities(McpCallOptions call) {
        if (call == null || call.elicitationHandler().isEmpty() && call.samplingHandler().isEmpty()
                && call.rootsHandler().isEmpty()) {
            return capabilities;
        }
        ObjectNode own = capabilities.deepCopy();
        call.elicitationHandler().ifPresent(h -> own.putObject("elicitation"));
        call.samplingHandler().ifPresent(h -> own.putObject("sampling"));
        call.rootsHandler().ifPresent(h -> own.putObject("roots"));
        return own;
    }
}
