package org.metaruntime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.metaruntime.supervisor.ModuleHealthState.FAILED;
import static org.metaruntime.supervisor.ModuleHealthState.STARTING;
import static org.metaruntime.supervisor.ModuleHealthState.STOPPED;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpClientOptions;
import org.metaruntime.mcp.McpProtocolEra;
import org.metaruntime.supervisor.ModuleHealthTransition;
import org.metaruntime.supervisor.RestartPolicy;
import org.metaruntime.testing.FixtureScripts;
import org.metaruntime.testing.LeakCheck;

/** The era of an MCP module: chosen per runtime or per module, reported by {@link McpModule#protocolVersion()}. */
@Timeout(60)
class ModuleEraTest {

    private static final Duration T = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    private final List<UnifiedRuntime> runtimes = new ArrayList<>();

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes().pidFile(() -> dir.resolve("pids")).threads("meta-core-");

    @AfterEach
    void close() {
        runtimes.forEach(UnifiedRuntime::close);
    }

    private ModuleConfig.Builder legacyServer(String id) {
        return ModuleConfig.builder(id).command(FixtureScripts.mcpServerCommand("--pid-file", dir.resolve("pids").toString(),
                "--protocol", "2025-11-25"));
    }

    private UnifiedRuntime start(MetaConfig config, McpProtocolEra runtimeEra) {
        UnifiedRuntime runtime = UnifiedRuntime.builder(config).options(RuntimeOptions.builder().startupTimeout(T)
                .shutdownHook(false).mcp(McpClientOptions.builder().protocolEra(runtimeEra).build()).build()).start();
        runtimes.add(runtime);
        return runtime;
    }

    @Test
    void aLegacyServerFoundByTheProbeReportsItsVersion() {
        UnifiedRuntime runtime = start(MetaConfig.builder().module(legacyServer("py").build()).discover("py").preSpawn(PreSpawnData.mcp("py")).build(),
                McpProtocolEra.AUTO);
        assertThat(runtime.mcp("py").protocolVersion()).isEqualTo("2025-11-25");
    }

    @Test
    void theModuleEraWinsOverTheRuntimeOne() {
        UnifiedRuntime runtime = start(MetaConfig.builder()
                .module(legacyServer("py").protocolEra(McpProtocolEra.LEGACY).build()).discover("py").preSpawn(PreSpawnData.mcp("py")).build(),
                McpProtocolEra.MODERN);
        assertThat(runtime.loadedModules()).containsExactly("py");
        assertThat(runtime.mcp("py").protocolVersion()).isEqualTo("2025-11-25");
    }

    @Test
    void aModulePinnedModernFailsItsStartupAgainstALegacyServer() {
        MetaConfig config = MetaConfig.builder()
                .module(legacyServer("py").protocolEra(McpProtocolEra.MODERN).restartPolicy(RestartPolicy.NEVER).build())
                .discover("py").preSpawn(PreSpawnData.mcp("py")).build();
        UnifiedRuntime runtime = start(config, McpProtocolEra.AUTO);
        assertThat(runtime.loadedModules()).isEmpty();
        assertThat(runtime.moduleHealthTransitions().stream()
                .map(t -> new ModuleHealthTransition(t.moduleId(), t.from(), t.to(), t.attempt())).toList())
                .containsExactly(new ModuleHealthTransition("py", null, STARTING, 0),
                        new ModuleHealthTransition("py", STARTING, FAILED, 1),
                        new ModuleHealthTransition("py", FAILED, STOPPED, 1));
        List<JsonNode> warnings = runtime.mergedEvents().stream().map(EventEnvelope::event)
                .filter(e -> e instanceof UnifiedEvent.Module).map(e -> ((UnifiedEvent.Module) e).event())
                .filter(e -> e.module().equals("py") && e.eventType().equals("supervisor.warning"))
                .map(e -> e.payload()).collect(Collectors.toList());
        assertThat(warnings).hasSize(1);
        assertThat(warnings.get(0).get("error_type").asText()).isEqualTo("mcp.unsupported_protocol");
        assertThat(warnings.get(0).get("error").asText()).contains("2026-07-28");
        assertThatThrownBy(() -> runtime.spawnMember("py", T)).isInstanceOf(RuntimeFromConfigException.class)
                .satisfies(e -> assertThat(((RuntimeFromConfigException) e).error()).isEqualTo(
                        new RuntimeFromConfigError.Runtime(new RuntimeBoundaryError.Mcp(
                                new McpBoundaryError.UnsupportedProtocol("py", McpProtocolEra.MODERN, List.of())))));
    }
}
