package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.core.ModuleProtocol;
import org.metaruntime.core.ModuleSource;
import org.metaruntime.core.RuntimeOptions;
import org.metaruntime.gateway.internal.manifest.DeclaredTool;
import org.metaruntime.gateway.internal.manifest.PodManifest;
import org.metaruntime.gateway.internal.manifest.PodModuleMapping;
import org.metaruntime.gateway.internal.manifest.ToolFilter;
import org.metaruntime.mcp.McpProtocolEra;
import org.metaruntime.mcp.McpSessionMode;
import org.metaruntime.supervisor.StopLadder;

/** A pod's manifest mapped field for field onto the module the runtime runs. */
class PodModuleMappingTest {

    private static final Path FILE = Path.of("pods/p.yaml");
    private static final ObjectNode DEFINITION = new ObjectMapper().createObjectNode()
            .set("inputSchema", new ObjectMapper().createObjectNode().put("type", "object"));
    private static final List<DeclaredTool> TOOLS = List.of(new DeclaredTool("lookup", 9, DEFINITION, null, "sha256:0"));

    private static PodManifest local(PodManifest.Protocol protocol, List<DeclaredTool> tools) {
        return new PodManifest("p", "", FILE, 3, List.of("python3", "p.py"), null, Path.of("/tmp"),
                Map.of("A", "1"), Duration.ofSeconds(7), Duration.ofSeconds(4), Duration.ofSeconds(6), false,
                PodManifest.HealthCheck.DISABLED, tools, Map.of(), protocol, ToolFilter.ALL, null,
                McpProtocolEra.LEGACY, null, null);
    }

    @Test
    void eachManifestFieldIsTheModuleOptionOfTheSameName() {
        ModuleConfig module = PodModuleMapping.module(local(PodManifest.Protocol.MCP, List.of())).build();
        assertThat(module.source()).isEqualTo(new ModuleSource.Command(List.of("python3", "p.py"), Path.of("/tmp"),
                Map.of("A", "1")));
        assertThat(module.callTimeout()).contains(Duration.ofSeconds(7));
        assertThat(module.startupTimeout()).contains(Duration.ofSeconds(4));
        assertThat(module.shutdownTimeout()).contains(Duration.ofSeconds(6));
        assertThat(module.healthCheckInterval()).isEmpty();
        assertThat(module.declaredProtocol()).contains(new ModuleProtocol.Mcp(McpSessionMode.PERSISTENT,
                Optional.of(McpProtocolEra.LEGACY), Optional.empty()));
        RuntimeOptions runtime = RuntimeOptions.defaults();
        assertThat(runtime.stopLadderFor(module)).isEqualTo(new StopLadder(Duration.ofSeconds(2),
                Duration.ofSeconds(2), runtime.stopLadder().killWait()));
    }

    @Test
    void theProtocolKeyAndTheDeclaredToolsAreTheModulesProtocol() {
        ModuleConfig bare = PodModuleMapping.module(local(PodManifest.Protocol.JSONRPC, TOOLS)).build();
        assertThat(bare.declaredProtocol()).hasValueSatisfying(p -> assertThat(p)
                .isInstanceOf(ModuleProtocol.BareJsonRpc.class));
        assertThat(bare.bareTools().orElseThrow()).extracting(t -> t.name()).containsExactly("lookup");

        ModuleConfig detect = PodModuleMapping.module(local(PodManifest.Protocol.DETECT, TOOLS)).build();
        assertThat(detect.bareUnlessMcp().orElseThrow()).extracting(t -> t.name()).containsExactly("lookup");
        assertThat(detect.protocolEra()).contains(McpProtocolEra.LEGACY);

        ModuleConfig remote = PodModuleMapping.module(new PodManifest("r", "", FILE, 3, null,
                URI.create("https://tools.example/mcp"), null, null, Duration.ofSeconds(7), Duration.ofSeconds(4),
                Duration.ofSeconds(6), false, PodManifest.HealthCheck.REMOTE_DEFAULT, List.of(),
                Map.of("X-Key", "k"), null, null, null, null, null, null)).build();
        assertThat(remote.source()).isEqualTo(new ModuleSource.Remote(URI.create("https://tools.example/mcp"),
                Map.of("X-Key", "k")));
        assertThat(remote.healthCheckInterval()).contains(PodManifest.HealthCheck.DEFAULT_INTERVAL);
    }

    @Test
    void aShortShutdownTimeoutStillGivesEachStepItsFloor() {
        PodManifest pod = new PodManifest("p", "", FILE, 3, List.of("python3", "p.py"), null, null, null,
                Duration.ofSeconds(7), Duration.ofSeconds(4), Duration.ofMillis(150), false,
                PodManifest.HealthCheck.DISABLED, List.of(), null, null, null, null, null, null, null);
        StopLadder ladder = RuntimeOptions.defaults().stopLadderFor(PodModuleMapping.module(pod).build());
        assertThat(ladder.stdinGrace()).isEqualTo(RuntimeOptions.MIN_STOP_STEP);
        assertThat(ladder.termGrace()).isEqualTo(RuntimeOptions.MIN_STOP_STEP);
    }

    @Test
    void theGatewaysDefaultsAreTheRuntimesButTwoNamedOnes() {
        assertThat(PodManifest.DEFAULT_CALL_TIMEOUT).isEqualTo(RuntimeOptions.defaults().callTimeout());
        assertThat(PodManifest.DEFAULT_STARTUP_TIMEOUT).isEqualTo(Duration.ofSeconds(10));
        assertThat(PodManifest.DEFAULT_SHUTDOWN_TIMEOUT).isEqualTo(Duration.ofSeconds(5));
    }
}
