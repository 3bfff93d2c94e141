package org.metaruntime.core;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.metaruntime.mcp.McpProtocolEra;
import org.metaruntime.mcp.McpSessionMode;

/**
 * The derivation of a module's {@link ModuleProtocol}: the protocol a {@link ModuleConfig.Builder} was told (or not
 * told) the module speaks, the protocol it resolves to given its pre-spawn data, and the views of it that
 * {@link ModuleConfig}'s accessors give. The one place a module's protocol is decided.
 *
 * <p>Stateless and thread-safe.
 */
final class ModuleProtocols {

    private ModuleProtocols() {
    }

    /** What the builder was told the module speaks; {@code NONE}: its pre-spawn data decides. */
    enum Declared { NONE, MCP, EVENT_LINE, BARE, BARE_UNLESS_MCP }

    /**
     * The protocol a module declares, or the MCP it speaks when its pre-spawn marker selects MCP ({@code NONE}).
     *
     * @param bareTools the declared tools of {@code BARE} and {@code BARE_UNLESS_MCP}; unused otherwise
     */
    static ModuleProtocol declared(Declared declared, McpSessionMode sessionMode, McpProtocolEra era,
                                   List<McpSchema.Tool> bareTools) {
        Optional<McpProtocolEra> eraOrRuntime = Optional.ofNullable(era);
        return switch (declared) {
            case BARE -> new ModuleProtocol.BareJsonRpc(bareTools, sessionMode);
            case BARE_UNLESS_MCP -> new ModuleProtocol.Mcp(sessionMode, eraOrRuntime, Optional.of(bareTools));
            case EVENT_LINE -> ModuleProtocol.eventLine();
            case NONE, MCP -> new ModuleProtocol.Mcp(sessionMode, eraOrRuntime, Optional.empty());
        };
    }

    /** Whether the pre-spawn marker decides the protocol: nothing was declared and the module is spawned. */
    static boolean markerDecides(Declared declared, boolean remote) {
        return declared == Declared.NONE && !remote;
    }

    /**
     * What the module speaks given its pre-spawn data: {@code protocol} when it was declared or the marker selects
     * MCP, else event-line.
     */
    static ModuleProtocol resolve(ModuleProtocol protocol, boolean markerDecides, Optional<PreSpawnData> preSpawn) {
        Objects.requireNonNull(preSpawn, "preSpawn");
        if (!markerDecides || preSpawn.map(PreSpawnData::selectsMcp).orElse(false)) {
            return protocol;
        }
        return ModuleProtocol.eventLine();
    }

    /** The session mode of an MCP or bare module; {@code PERSISTENT} for event-line. */
    static McpSessionMode sessionMode(ModuleProtocol protocol) {
        if (protocol instanceof ModuleProtocol.Mcp mcp) {
            return mcp.sessionMode();
        }
        if (protocol instanceof ModuleProtocol.BareJsonRpc bare) {
            return bare.sessionMode();
        }
        return McpSessionMode.PERSISTENT;
    }

    /** The declared tools of a bare JSON-RPC module. */
    static Optional<List<McpSchema.Tool>> bareTools(ModuleProtocol protocol) {
        return protocol instanceof ModuleProtocol.BareJsonRpc bare ? Optional.of(bare.tools()) : Optional.empty();
    }

    /** The fallback tools of an MCP module that may speak bare JSON-RPC. */
    static Optional<List<McpSchema.Tool>> bareFallback(ModuleProtocol protocol) {
        return protocol instanceof ModuleProtocol.Mcp mcp ? mcp.bareFallback() : Optional.empty();
    }

    /** The era an MCP module pins. */
    static Optional<McpProtocolEra> era(ModuleProtocol protocol) {
        return protocol instanceof ModuleProtocol.Mcp mcp ? mcp.era() : Optional.empty();
    }

    /** The protocol as {@link ModuleConfig#toString()} shows it. */
    static String describe(ModuleProtocol protocol, boolean markerDecides) {
        return (markerDecides ? "by pre-spawn marker, else event-line; " : "") + name(protocol);
    }

    private static String name(ModuleProtocol protocol) {
        if (protocol instanceof ModuleProtocol.BareJsonRpc bare) {
            return "bare" + bare.tools().stream().map(McpSchema.Tool::name).toList() + " " + bare.sessionMode();
        }
        if (protocol instanceof ModuleProtocol.Mcp mcp) {
            return "mcp " + mcp.sessionMode() + mcp.era().map(era -> " " + era).orElse("")
                    + mcp.bareFallback().map(tools -> ", bareUnlessMcp="
                    + tools.stream().map(McpSchema.Tool::name).toList()).orElse("");
        }
        return "event-line";
    }
}
