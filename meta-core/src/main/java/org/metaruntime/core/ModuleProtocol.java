package org.metaruntime.core;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.metaruntime.mcp.McpProtocolEra;
import org.metaruntime.mcp.McpSessionMode;

/**
 * What a module speaks: {@link Mcp MCP} (with its session mode and era), {@link EventLine event-line} (one run, one
 * JSON event on the first stdout line) or {@link BareJsonRpc bare JSON-RPC 2.0} with declared tools. It is decided
 * once, by {@link ModuleConfig#protocol(java.util.Optional)}: the protocol the module declares
 * ({@link ModuleConfig.Builder#protocol(ModuleProtocol)}, {@code bare}, {@code bareUnlessMcp}, {@code url}), else
 * MCP when its pre-spawn data carries the marker {@value PreSpawnData#BOUNDARY_KEY}{@code =mcp}, else event-line.
 *
 * <pre>{@code
 * ModuleConfig files = ModuleConfig.builder("files")
 *         .command("npx", "-y", "@modelcontextprotocol/server-filesystem", "/srv")
 *         .protocol(ModuleProtocol.mcp())
 *         .build();
 * if (files.protocol(Optional.empty()) instanceof ModuleProtocol.Mcp mcp) {
 *     System.out.println(mcp.sessionMode());
 * }
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public sealed interface ModuleProtocol {

    /** The boundary the runtime reaches a module of this protocol through. */
    ModuleBoundaryKind boundary();

    /** MCP with a persistent session and the runtime's era. */
    static Mcp mcp() {
        return new Mcp(McpSessionMode.PERSISTENT, Optional.empty(), Optional.empty());
    }

    /** Event-line: one process per call, one JSON event on its first stdout line. */
    static EventLine eventLine() {
        return new EventLine();
    }

    /** Bare JSON-RPC 2.0 with these declared tools, over a persistent connection. */
    static BareJsonRpc bare(List<McpSchema.Tool> tools) {
        return new BareJsonRpc(tools, McpSessionMode.PERSISTENT);
    }

    /**
     * The Model Context Protocol.
     *
     * @param sessionMode  how the module's connection is used
     * @param era          the era of MCP the server is spoken to in; empty: the runtime's
     *                     {@link org.metaruntime.mcp.McpClientOptions#protocolEra()}
     * @param bareFallback the tools of a spawned server that may instead speak bare JSON-RPC 2.0: {@code initialize}
     *                     is sent and an answer that is not an MCP initialize result makes it a bare server with these
     *                     tools (see {@link ModuleConfig.Builder#bareUnlessMcp(List)}); empty: MCP is required
     */
    record Mcp(McpSessionMode sessionMode, Optional<McpProtocolEra> era,
               Optional<List<McpSchema.Tool>> bareFallback) implements ModuleProtocol {

        public Mcp {
            Objects.requireNonNull(sessionMode, "sessionMode");
            Objects.requireNonNull(era, "era");
            bareFallback = Objects.requireNonNull(bareFallback, "bareFallback").map(List::copyOf);
        }

        @Override
        public ModuleBoundaryKind boundary() {
            return ModuleBoundaryKind.MCP;
        }
    }

    /** A one-shot process per call that writes one JSON event as its first stdout line. */
    record EventLine() implements ModuleProtocol {
        @Override
        public ModuleBoundaryKind boundary() {
            return ModuleBoundaryKind.EVENT_LINE;
        }
    }

    /**
     * Bare JSON-RPC 2.0: the server answers {@code tools/call} and may implement nothing else; it is sent no
     * {@code initialize}, {@code tools/list} or notification, and is served through the MCP boundary.
     *
     * @param tools       the declared tools (at least one)
     * @param sessionMode how the module's connection is used
     */
    record BareJsonRpc(List<McpSchema.Tool> tools, McpSessionMode sessionMode) implements ModuleProtocol {

        public BareJsonRpc {
            tools = List.copyOf(Objects.requireNonNull(tools, "tools"));
            if (tools.isEmpty()) {
                throw new IllegalArgumentException("a bare JSON-RPC module declares its tools: it has no tools/list");
            }
            Objects.requireNonNull(sessionMode, "sessionMode");
        }

        @Override
        public ModuleBoundaryKind boundary() {
            return ModuleBoundaryKind.MCP;
        }
    }
}
