package org.metaruntime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.metaruntime.mcp.McpProtocolEra;
import org.metaruntime.mcp.McpSessionMode;

class ModuleProtocolTest {

    private static final List<McpSchema.Tool> TOOLS = List.of(
            McpSchema.Tool.builder("lookup", Map.of("type", "object")).build());
    private static final Optional<PreSpawnData> MARKER = Optional.of(PreSpawnData.mcp("m"));

    private static ModuleConfig.Builder spawned() {
        return ModuleConfig.builder("m").command("python3", "m.py");
    }

    @Test
    void aModuleThatDeclaresNothingIsDecidedByItsPreSpawnMarker() {
        ModuleConfig module = spawned().mcpSessionMode(McpSessionMode.PER_CALL).protocolEra(McpProtocolEra.LEGACY)
                .build();
        assertThat(module.declaredProtocol()).isEmpty();
        assertThat(module.protocol(Optional.empty())).isEqualTo(ModuleProtocol.eventLine());
        assertThat(module.protocol(Optional.of(PreSpawnData.of("m", Map.of("OTHER", "x")))))
                .isEqualTo(ModuleProtocol.eventLine());
        assertThat(module.protocol(MARKER)).isEqualTo(new ModuleProtocol.Mcp(McpSessionMode.PER_CALL,
                Optional.of(McpProtocolEra.LEGACY), Optional.empty()));
        MetaConfig config = MetaConfig.builder().mcp(module).build();
        assertThat(config.protocolOf("m")).isInstanceOf(ModuleProtocol.Mcp.class);
        assertThat(config.boundaryOf("m")).isEqualTo(ModuleBoundaryKind.MCP);
    }

    @Test
    void aDeclaredProtocolNeedsNoMarkerAndWinsOverIt() {
        ModuleConfig mcp = spawned().protocol(ModuleProtocol.mcp()).mcpSessionMode(McpSessionMode.PER_CALL).build();
        assertThat(mcp.protocol(Optional.empty())).isEqualTo(new ModuleProtocol.Mcp(McpSessionMode.PER_CALL,
                Optional.empty(), Optional.empty()));
        assertThat(MetaConfig.builder().module(mcp).build().boundaryOf("m")).isEqualTo(ModuleBoundaryKind.MCP);

        ModuleConfig eventLine = spawned().protocol(ModuleProtocol.eventLine()).build();
        assertThat(eventLine.protocol(MARKER)).isEqualTo(ModuleProtocol.eventLine());
        assertThat(MetaConfig.builder().mcp(eventLine).build().boundaryOf("m"))
                .isEqualTo(ModuleBoundaryKind.EVENT_LINE);
    }

    @Test
    void bareAndMaybeBareToolListsAreProtocols() {
        ModuleConfig bare = spawned().protocolEra(McpProtocolEra.MODERN).bare(TOOLS).build();
        assertThat(bare.protocol(Optional.empty()))
                .isEqualTo(new ModuleProtocol.BareJsonRpc(TOOLS, McpSessionMode.PERSISTENT));
        assertThat(bare.protocolEra()).as("a bare module speaks no MCP era").isEmpty();
        assertThat(bare.isBare()).isTrue();
        assertThat(bare.protocol(Optional.empty()).boundary()).isEqualTo(ModuleBoundaryKind.MCP);

        ModuleConfig maybe = spawned().bareUnlessMcp(TOOLS).protocolEra(McpProtocolEra.LEGACY).build();
        assertThat(maybe.protocol(Optional.empty())).isEqualTo(new ModuleProtocol.Mcp(McpSessionMode.PERSISTENT,
                Optional.of(McpProtocolEra.LEGACY), Optional.of(TOOLS)));
        assertThat(maybe.bareUnlessMcp()).contains(TOOLS);
        assertThat(spawned().protocol(ModuleProtocol.bare(TOOLS)).build()).isEqualTo(spawned().bare(TOOLS).build());
        assertThat(spawned().bare(TOOLS).protocol(ModuleProtocol.mcp()).build().isBare()).isFalse();
    }

    @Test
    void theSourceIsACommandOrARemoteServer() {
        ModuleConfig spawned = spawned().workdir(Path.of("/tmp")).env("A", "1").build();
        assertThat(spawned.source()).isEqualTo(new ModuleSource.Command(List.of("python3", "m.py"), Path.of("/tmp"),
                Map.of("A", "1")));
        assertThat(spawned.source().toString()).contains("A").doesNotContain("1]");

        ModuleConfig remote = ModuleConfig.builder("r").url(URI.create("https://tools.example/mcp"))
                .header("Authorization", "Bearer secret").build();
        assertThat(remote.source()).isEqualTo(new ModuleSource.Remote(URI.create("https://tools.example/mcp"),
                Map.of("Authorization", "Bearer secret")));
        assertThat(remote.toString()).doesNotContain("secret");
        assertThat(remote.command()).isEmpty();
        assertThat(remote.env()).isEmpty();
        assertThat(remote.declaredProtocol()).contains(ModuleProtocol.mcp());
        assertThat(remote.protocol(Optional.empty())).isEqualTo(ModuleProtocol.mcp());
    }

    @Test
    void aRemoteModuleSpeaksMcpOnly() {
        assertThatThrownBy(() -> ModuleConfig.builder("r").url(URI.create("https://tools.example/mcp"))
                .protocol(ModuleProtocol.eventLine()).build())
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).field()).isEqualTo("modules[r].protocol"));
    }

    @Test
    void everyKindSurvivesACopy() {
        List<ModuleConfig> modules = List.of(spawned().build(),
                spawned().mcpSessionMode(McpSessionMode.PER_CALL).protocolEra(McpProtocolEra.MODERN).build(),
                spawned().protocol(ModuleProtocol.mcp()).build(), spawned().protocol(ModuleProtocol.eventLine()).build(),
                spawned().bare(TOOLS).build(), spawned().bareUnlessMcp(TOOLS).build(),
                ModuleConfig.builder("r").url(URI.create("https://tools.example/mcp")).header("X-Key", "k").build());
        for (ModuleConfig module : modules) {
            assertThat(module.toBuilder().build()).isEqualTo(module).hasSameHashCodeAs(module);
        }
        assertThat(spawned().build()).isNotEqualTo(spawned().protocol(ModuleProtocol.mcp()).build());
    }
}
