package org.metaruntime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.FixtureScripts;
import org.metaruntime.testing.LeakCheck;

/** A module declared bare JSON-RPC ({@link ModuleConfig.Builder#bare(List)}) with a real python server. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BareModuleTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final List<McpSchema.Tool> TOOLS = List.of(
            McpSchema.Tool.builder("add", Map.of("type", "object")).description("adds a and b").build(),
            McpSchema.Tool.builder("whole", Map.of("type", "object")).build());

    @TempDir
    Path dir;

    private UnifiedRuntime runtime;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes().pidFile(() -> dir.resolve("pids"));

    @AfterEach
    void close() {
        if (runtime != null) {
            runtime.close();
        }
    }

    private ModuleConfig.Builder module() {
        return ModuleConfig.builder("legacy").command(FixtureScripts.mcpServerCommand("--bare", "--pid-file",
                dir.resolve("pids").toString(), "--record", dir.resolve("record.jsonl").toString()));
    }

    @Test
    void theModuleIsServedFromItsDeclaredToolsAndOnlyCallsReachIt() throws Exception {
        runtime = UnifiedRuntime.builder(MetaConfig.builder().module(module().bare(TOOLS).build()).discover("legacy").build())
                .options(RuntimeOptions.builder().shutdownHook(false).build()).start();
        McpModule legacy = runtime.mcp("legacy");

        assertThat(legacy.tools()).extracting(McpSchema.Tool::name).containsExactly("add", "whole");
        assertThat(legacy.tools().get(0).description()).isEqualTo("adds a and b");
        McpSchema.CallToolResult sum = legacy.callTool("add", MAPPER.readTree("{\"a\": 2, \"b\": 40}"));
        assertThat(((McpSchema.TextContent) sum.content().get(0)).text()).isEqualTo("{\"sum\":42}");
        assertThat(sum.structuredContent()).isEqualTo(Map.of("sum", 42));
        McpSchema.CallToolResult whole = legacy.callTool("whole", MAPPER.readTree("{\"text\": \"as sent\"}"));
        assertThat(whole.content()).hasSize(1);
        assertThat(((McpSchema.TextContent) whole.content().get(0)).text()).isEqualTo("as sent");
        assertThat(whole.structuredContent()).isNull();

        List<JsonNode> received = Files.readAllLines(dir.resolve("record.jsonl")).stream().map(line -> {
            try {
                return MAPPER.readTree(line);
            } catch (java.io.IOException e) {
                throw new AssertionError(line, e);
            }
        }).toList();
        assertThat(received).hasSize(2).allSatisfy(m -> assertThat(m.get("method").asText()).isEqualTo("tools/call"));
    }

    @Test
    void withoutTheDeclarationTheSameServerFailsItsMcpStartup() throws Exception {
        runtime = UnifiedRuntime.builder(MetaConfig.builder().module(module().startupTimeout(Duration.ofSeconds(10))
                        .restartPolicy(org.metaruntime.supervisor.RestartPolicy.NEVER).build())
                        .preSpawn(PreSpawnData.mcp("legacy")).discover("legacy").build())
                .options(RuntimeOptions.builder().shutdownHook(false).build()).start();
        assertThatThrownBy(() -> runtime.mcp("legacy").tools()).isInstanceOf(ModuleRouteException.class)
                .hasMessageContaining("legacy");
        assertThat(Files.readString(dir.resolve("record.jsonl"))).as("it was sent initialize").contains("\"initialize\"");
    }

    @Test
    void theDeclarationIsValidated() {
        assertThatThrownBy(() -> module().bare(List.of())).isInstanceOf(ConfigException.class)
                .hasMessageContaining("modules[legacy].bare").hasMessageContaining("declares its tools");
        assertThatThrownBy(() -> module().bare(List.of(TOOLS.get(0), TOOLS.get(0)))).isInstanceOf(ConfigException.class)
                .hasMessageContaining("modules[legacy].bare[1]").hasMessageContaining("declared twice");
        assertThatThrownBy(() -> ModuleConfig.builder("r").url(URI.create("https://tools.example/mcp")).bare(TOOLS).build())
                .isInstanceOf(ConfigException.class).hasMessageContaining("modules[r].bare");
        ModuleConfig bare = module().bare(TOOLS).build();
        assertThat(bare.isBare()).isTrue();
        assertThat(bare.bareTools()).contains(TOOLS);
        assertThat(bare.toBuilder().build()).isEqualTo(bare);
        assertThat(module().build().bareTools()).isEmpty();
        assertThat(MetaConfig.builder().module(bare).build().boundaryOf("legacy")).isEqualTo(ModuleBoundaryKind.MCP);
    }

    @Test
    void aModuleThatMayBeBareIsFoundBareByItsAnswerToInitializeAndSentNothingElseButCalls() throws Exception {
        runtime = UnifiedRuntime.builder(MetaConfig.builder().module(module().bareUnlessMcp(TOOLS).build()).discover("legacy").build())
                .options(RuntimeOptions.builder().shutdownHook(false).build()).start();
        McpModule legacy = runtime.mcp("legacy");
        assertThat(legacy.tools()).extracting(McpSchema.Tool::name).containsExactly("add", "whole");
        McpSchema.CallToolResult sum = legacy.callTool("add", MAPPER.readTree("{\"a\": 2, \"b\": 40}"));
        assertThat(sum.structuredContent()).isEqualTo(Map.of("sum", 42));
        assertThat(Files.readAllLines(dir.resolve("record.jsonl")).stream().map(line -> {
            try {
                JsonNode message = MAPPER.readTree(line);
                return (message.has("id") ? "" : "notification ") + message.get("method").asText();
            } catch (java.io.IOException e) {
                throw new AssertionError(line, e);
            }
        })).as("the era probe, then initialize on the same process").containsExactly("server/discover", "initialize", "tools/call");
    }

    @Test
    void theMaybeBareDeclarationIsValidated() {
        assertThatThrownBy(() -> module().bareUnlessMcp(List.of())).isInstanceOf(ConfigException.class)
                .hasMessageContaining("modules[legacy].bareUnlessMcp").hasMessageContaining("declares its tools");
        assertThatThrownBy(() -> ModuleConfig.builder("r").url(URI.create("https://tools.example/mcp")).bareUnlessMcp(TOOLS).build())
                .isInstanceOf(ConfigException.class).hasMessageContaining("modules[r].bareUnlessMcp");
        ModuleConfig maybe = module().bareUnlessMcp(TOOLS).build();
        assertThat(maybe.isBare()).isFalse();
        assertThat(maybe.bareTools()).isEmpty();
        assertThat(maybe.bareUnlessMcp()).contains(TOOLS);
        assertThat(maybe.toBuilder().build()).isEqualTo(maybe).isNotEqualTo(module().bare(TOOLS).build());
        assertThat(MetaConfig.builder().module(maybe).build().boundaryOf("legacy")).isEqualTo(ModuleBoundaryKind.MCP);
    }
}
