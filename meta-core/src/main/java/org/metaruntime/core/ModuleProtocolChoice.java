package org.metaruntime.core;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.metaruntime.mcp.McpProtocolEra;
import org.metaruntime.mcp.McpSessionMode;

/**
 * What a {@link ModuleConfig}'s module speaks, as configured: the protocol it declares, or (when
 * {@code markerDecides}) the MCP it speaks if its pre-spawn marker selects MCP. The one place a module's protocol is
 * decided ({@link #resolve(Optional)}), and the views of it that {@link ModuleConfig}'s accessors give.
 *
 * <p>Immutable and thread-safe.
 *
 * @param protocol      the declared protocol, or the MCP the marker selects
 * @param markerDecides whether the pre-spawn marker decides: nothing was declared and the module is spawned
 */
record ModuleProtocolChoice(ModuleProtocol protocol, boolean markerDecides) {

    ModuleProtocolChoice {
        Objects.requireNonNull(protocol, "protocol");
    }

    /** The protocol the module declares; empty when its pre-spawn data decides. */
    Optional<ModuleProtocol> declared() {
        return markerDecides ? Optional.empty() : Optional.of(protocol);
    }

    /**
     * What the module speaks given its pre-spawn data: the protocol when it was declared or the marker selects MCP,
     * else event-line.
     */
    ModuleProtocol resolve(Optional<PreSpawnData> preSpawn) {
        Objects.requireNonNull(preSpawn, "preSpawn");
        if (!markerDecides || preSpawn.map(PreSpawnData::selectsMcp).orElse(false)) {
            return protocol;
        }
        return ModuleProtocol.eventLine();
    }

    /** The session mode of an MCP or bare module; {@code PERSISTENT} for event-line. */
    McpSessionMode sessionMode() {
        if (protocol instanceof ModuleProtocol.Mcp mcp) {
            return mcp.sessionMode();
        }
        if (protocol instanceof ModuleProtocol.BareJsonRpc bare) {
            return bare.sessionMode();
        }
        return McpSessionMode.PERSISTENT;
    }

    /** The declared tools of a bare JSON-RPC module. */
    Optional<List<McpSchema.Tool>> bareTools() {
        return protocol instanceof ModuleProtocol.BareJsonRpc bare ? Optional.of(bare.tools()) : Optional.empty();
    }

    /** The fallback tools of an MCP module that may speak bare JSON-RPC. */
    Optional<List<McpSchema.Tool>> bareFallback() {
        return protocol instanceof ModuleProtocol.Mcp mcp ? mcp.bareFallback() : Optional.empty();
    }

    /** The era an MCP module pins. */
    Optional<McpProtocolEra> era() {
        return protocol instanceof ModuleProtocol.Mcp mcp ? mcp.era() : Optional.empty();
    }

    /** The protocol as {@link ModuleConfig#toString()} shows it. */
    String describe() {
        return (markerDecides ? "by pre-spawn marker, else event-line; " : "") + name();
    }

    private String name() {
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
