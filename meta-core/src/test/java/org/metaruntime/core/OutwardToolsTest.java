package org.metaruntime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.CapturedLogs;
import org.metaruntime.testing.FixtureScripts;
import org.metaruntime.testing.LeakCheck;
import org.slf4j.event.Level;

/** Outward names, exposure of real modules' tools, results as text and arguments as an object. */
@Timeout(60)
class OutwardToolsTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

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

    @Test
    void outwardNames() {
        assertThat(OutwardTools.outwardName("files", "read_file")).contains("files__read_file");
        assertThat(OutwardTools.outwardName("files", "storage.read")).contains("files__storage_read");
        assertThat(OutwardTools.outwardName("files", "Storage.read")).isEmpty();
        assertThat(OutwardTools.outwardName("files", "a.b.c")).isEmpty();
        assertThat(OutwardTools.outwardName("files", "read file")).isEmpty();
        assertThat(OutwardTools.outwardName("files", "x".repeat(57))).contains("files__" + "x".repeat(57));
        assertThat(OutwardTools.outwardName("files", "x".repeat(58))).isEmpty();
        assertThat(OutwardTools.outwardName("files", "héllo")).isEmpty();
    }

    private ModuleConfig.Builder mcp(String id, String... switches) {
        List<String> arguments = new ArrayList<>(List.of(dir.toString(), "--pid-file", dir.resolve("pids").toString()));
        arguments.addAll(List.of(switches));
        return ModuleConfig.builder(id).command(FixtureScripts.mcpServerCommand(arguments.toArray(String[]::new)));
    }

    @Test
    void exposesLoadedMcpModulesInDiscoveryOrderAndLeavesOutTheRest() {
        MetaConfig config = MetaConfig.builder()
                .mcp(mcp("second").build())
                .mcp(mcp("lazy").startMode(StartMode.LAZY).build())
                .mcp(mcp("broken", "--fail-at", "initialize").build())
                .module(ModuleConfig.builder("events").command(FixtureScripts.eventLineModuleCommand("events"))
                        .env("FIXTURE_PIDFILE", dir.resolve("pids").toString()).env("FIXTURE_MODE", "ok").build())
                .mcp(mcp("first").build())
                .discover("first", "lazy", "broken", "events", "second")
                .build();
        runtime = UnifiedRuntime.builder(config).options(RuntimeOptions.builder()
                .startupTimeout(Duration.ofSeconds(20)).shutdownHook(false).build()).start();
        assertThat(runtime.supervisorReport().get("lazy").pid()).isEmpty();

        List<OutwardTools.Exposed> exposed = OutwardTools.expose(runtime, (module, tool) -> !tool.name().equals("hang"));

        assertThat(exposed).extracting(OutwardTools.Exposed::moduleId).containsOnly("first", "lazy", "second");
        assertThat(exposed.stream().map(OutwardTools.Exposed::moduleId).distinct()).containsExactly("first", "lazy", "second");
        List<String> firstTools = runtime.mcp("first").tools().stream().map(McpSchema.Tool::name)
                .filter(name -> !name.equals("hang")).toList();
        assertThat(exposed.stream().filter(e -> e.moduleId().equals("first")).map(e -> e.tool().name()))
                .containsExactlyElementsOf(firstTools);
        assertThat(exposed).extracting(OutwardTools.Exposed::name).contains("first__echo", "lazy__unicode")
                .doesNotContain("first__hang");
        assertThat(runtime.supervisorReport().get("lazy").pid()).isPresent();
    }

    @Test
    void invalidAndDuplicateNamesAreNotExposedWithAWarning() {
        runtime = UnifiedRuntime.builder(MetaConfig.builder().mcp(mcp("m").build()).discover("m").build())
                .options(RuntimeOptions.builder().startupTimeout(Duration.ofSeconds(20)).shutdownHook(false).build())
                .start();
        McpModule module = runtime.mcp("m");
        module.callTool("add_tool_silently", MAPPER.createObjectNode().put("name", "s_v"));
        module.callTool("add_tool_silently", MAPPER.createObjectNode().put("name", "bad name"));
        module.callTool("change_tools", MAPPER.createObjectNode().put("name", "s.v"));
        await().atMost(Duration.ofSeconds(10)).until(() -> module.tools().stream().anyMatch(t -> t.name().equals("s.v")));
        CapturedLogs.clear();

        List<OutwardTools.Exposed> exposed = OutwardTools.expose(runtime, (id, tool) -> true);

        assertThat(exposed).filteredOn(e -> e.name().equals("m__s_v")).singleElement()
                .satisfies(e -> assertThat(e.tool().name()).isEqualTo("s_v"));
        assertThat(exposed).extracting(e -> e.tool().name()).doesNotContain("bad name", "s.v");
        assertThat(CapturedLogs.matching(e -> e.level() == Level.WARN)).extracting(CapturedLogs.Entry::message)
                .anySatisfy(line -> assertThat(line).contains("\"bad name\"", "\"m\"", "not exposed"))
                .anySatisfy(line -> assertThat(line).contains("\"s.v\"", "m__s_v", "not exposed"));
    }

    @Test
    void resultText() {
        McpSchema.CallToolResult structured = McpSchema.CallToolResult.builder()
                .addTextContent("ignored").structuredContent(Map.of("got", "héllo 世界 🎉")).build();
        assertThat(OutwardTools.resultText(structured)).isEqualTo("{\"got\":\"héllo 世界 🎉\"}");

        McpSchema.CallToolResult texts = McpSchema.CallToolResult.builder()
                .addTextContent("one 🎉").addTextContent("two").build();
        assertThat(OutwardTools.resultText(texts)).isEqualTo("one 🎉\ntwo");
        assertThat(OutwardTools.resultText(McpSchema.CallToolResult.builder().content(List.of()).build())).isEmpty();

        McpSchema.CallToolResult mixed = McpSchema.CallToolResult.builder().addTextContent("caption")
                .addContent(new McpSchema.ImageContent(null, "aGVsbG8=", "image/png")).build();
        assertThat(OutwardTools.resultText(mixed)).isEqualTo(
                "[{\"type\":\"text\",\"text\":\"caption\"},{\"type\":\"image\",\"data\":\"aGVsbG8=\",\"mimeType\":\"image/png\"}]");
    }

    @Test
    void arguments() {
        assertThat(OutwardTools.arguments(null)).isEmpty();
        assertThat(OutwardTools.arguments("")).isEmpty();
        assertThat(OutwardTools.arguments(" \n")).isEmpty();
        assertThat(OutwardTools.arguments("{\"text\":\"世界 🎉\",\"n\":1.10}").toString())
                .isEqualTo("{\"text\":\"世界 🎉\",\"n\":1.10}");
        assertThatThrownBy(() -> OutwardTools.arguments("[1]")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the tool arguments must be a JSON object, not a JSON array");
        assertThatThrownBy(() -> OutwardTools.arguments("\"x\"")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be a JSON object");
        assertThatThrownBy(() -> OutwardTools.arguments("{\"a\":")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("the tool arguments are not valid JSON");
        assertThatThrownBy(() -> OutwardTools.arguments("{} {}")).isInstanceOf(IllegalArgumentException.class);
    }
}
