package org.metaruntime.core;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.metaruntime.mcp.McpProtocolEra;
import org.metaruntime.mcp.McpSessionMode;

/**
 * What a {@link ModuleConfig.Builder} is told its module speaks, as it is set: the declared protocol (if any), the
 * session mode, the era and the declared tools. Declared tools are checked as they are set; {@link #build(boolean)}
 * checks the protocol against a remote source.
 *
 * <p>Not thread-safe.
 */
final class ModuleProtocolDraft {

    /** What the builder was told the module speaks; {@code NONE}: its pre-spawn data decides. */
    enum Declared { NONE, MCP, EVENT_LINE, BARE, BARE_UNLESS_MCP }

    private final String id;
    private Declared declared = Declared.NONE;
    private McpSessionMode sessionMode = McpSessionMode.PERSISTENT;
    private McpProtocolEra era;
    private List<McpSchema.Tool> bareTools;

    /** Nothing declared yet for module {@code id}. */
    ModuleProtocolDraft(String id) {
        this.id = id;
    }

    /** A draft holding {@code choice}. */
    ModuleProtocolDraft(String id, ModuleProtocolChoice choice) {
        this(id);
        if (choice.markerDecides()) {
            sessionMode = choice.sessionMode();
            era = choice.era().orElse(null);
        } else {
            protocol(choice.protocol());
        }
    }

    void sessionMode(McpSessionMode mode) {
        sessionMode = Objects.requireNonNull(mode, "mcpSessionMode");
    }

    void era(McpProtocolEra pinned) {
        era = Objects.requireNonNull(pinned, "era");
    }

    /** Declares a bare JSON-RPC module with these tools. */
    void bare(List<McpSchema.Tool> tools) {
        bareTools = checked(tools, "bare");
        declared = Declared.BARE;
    }

    /** Declares the tools of a module that may speak MCP or bare JSON-RPC. */
    void bareUnlessMcp(List<McpSchema.Tool> tools) {
        bareTools = checked(tools, "bareUnlessMcp");
        declared = Declared.BARE_UNLESS_MCP;
    }

    /** Declares {@code protocol}, replacing what was declared before. */
    void protocol(ModuleProtocol protocol) {
        Objects.requireNonNull(protocol, "protocol");
        if (protocol instanceof ModuleProtocol.Mcp mcp) {
            sessionMode = mcp.sessionMode();
            era = mcp.era().orElse(null);
            bareTools = null;
            declared = Declared.MCP;
            mcp.bareFallback().ifPresent(this::bareUnlessMcp);
        } else if (protocol instanceof ModuleProtocol.BareJsonRpc bare) {
            sessionMode = bare.sessionMode();
            bare(bare.tools());
        } else {
            bareTools = null;
            declared = Declared.EVENT_LINE;
        }
    }

    /**
     * The protocol of a module that is {@code remote} or spawned.
     *
     * @throws ConfigException when a remote module has {@code PER_CALL} sessions, declared bare tools or an
     *                         event-line protocol
     */
    ModuleProtocolChoice build(boolean remote) {
        if (remote) {
            ModuleConfigValidator.remoteProtocol(id, sessionMode, declared);
        }
        Optional<McpProtocolEra> eraOrRuntime = Optional.ofNullable(era);
        ModuleProtocol protocol = switch (declared) {
            case BARE -> new ModuleProtocol.BareJsonRpc(bareTools, sessionMode);
            case BARE_UNLESS_MCP -> new ModuleProtocol.Mcp(sessionMode, eraOrRuntime, Optional.of(bareTools));
            case EVENT_LINE -> ModuleProtocol.eventLine();
            case NONE, MCP -> new ModuleProtocol.Mcp(sessionMode, eraOrRuntime, Optional.empty());
        };
        return new ModuleProtocolChoice(protocol, declared == Declared.NONE && !remote);
    }

    private List<McpSchema.Tool> checked(List<McpSchema.Tool> tools, String option) {
        return ModuleConfigValidator.declaredTools(Objects.requireNonNull(tools, "declaredTools"),
                ModuleConfigValidator.field(id, option));
    }
}
