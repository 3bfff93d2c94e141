package org.metaruntime.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.metaruntime.core.MetaConfig;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.core.ModuleRouteRequest;
import org.metaruntime.core.PreSpawnData;
import org.metaruntime.core.ToolRole;
import org.metaruntime.core.UnifiedRuntime;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.test.MetaRuntimeTest;
import org.metaruntime.test.ModuleSource;

/**
 * Every example bundle (Python, TypeScript, Java, Go twice, Rust, C, C#) answering a tool through one
 * {@link UnifiedRuntime}; no bundle process outlives the runtime ({@link MetaRuntimeTest}). Through the gateway:
 * {@link GatewayBundlesTest}.
 */
@MetaRuntimeTest
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class BundlesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Every bundle as a module that speaks MCP, discovered. */
    @ModuleSource
    static MetaConfig bundles() throws Exception {
        MetaConfig.Builder config = MetaConfig.builder();
        for (Bundles.Bundle bundle : Bundles.all()) {
            config.module(config(bundle)).preSpawn(mcp(bundle.id())).discover(bundle.id());
        }
        return config.build();
    }

    static ModuleConfig config(Bundles.Bundle bundle) {
        return ModuleConfig.builder(bundle.id()).command(bundle.command()).workdir(bundle.workdir()).env(bundle.env())
                .startupTimeout(bundle.startupTimeout()).callTimeout(Duration.ofSeconds(60)).build();
    }

    static PreSpawnData mcp(String id) {
        return new PreSpawnData(id, List.of(Map.entry("META_MODULE_BOUNDARY", "mcp")));
    }

    @Test
    void everyBundleAnswersThroughTheRuntime(UnifiedRuntime runtime) throws Exception {
        List<String> ids = Bundles.all().stream().map(Bundles.Bundle::id).toList();
        assertThat(runtime.loadedModules()).as("supervisor: %s", runtime.supervisorReport())
                .containsExactlyInAnyOrderElementsOf(ids);
        for (Bundles.Bundle bundle : Bundles.all()) {
            McpSchema.CallToolResult result = runtime.mcp(bundle.id()).callTool(bundle.tool(),
                    JSON.readTree(bundle.arguments()));
            assertThat(result.isError()).as("%s: %s", bundle.id(), result).isNotEqualTo(Boolean.TRUE);
            assertThat(((McpSchema.TextContent) result.content().get(0)).text()).as(bundle.id())
                    .contains(bundle.expected());
            // the routed call with its projection (text that is not JSON comes back as a JSON string)
            JsonNode payload = runtime.routeModuleCall(new ModuleRouteRequest(bundle.id(), bundle.tool(),
                    JSON.readTree(bundle.arguments()))).payload();
            assertThat(payload.asText()).as(bundle.id()).contains(bundle.expected());
        }
        // seats and verbs: the Python and TypeScript bundles implement verb "say" of seat "greeting"
        assertThat(runtime.seatVerbs()).isEqualTo(Map.of("greeting",
                Map.of("python", List.of("say"), "typescript", List.of("say"))));
        assertThat(runtime.mcp("python").role("greeting.say")).isEqualTo(new ToolRole.SeatVerb("greeting", "say"));
        assertThat(runtime.mcp("python").role("hello")).isEqualTo(new ToolRole.Own());
        Map<String, JsonNode> ready = new HashMap<>();
        for (EventEnvelope<UnifiedEvent> event : runtime.mergedEvents()) {
            if (event.event() instanceof UnifiedEvent.Module m && m.event().eventType().equals("mcp.ready")) {
                ready.put(m.event().module(), m.event().payload());
            }
        }
        assertThat(ready.get("python").get("seat_verbs")).isEqualTo(JSON.readTree("{\"greeting\":[\"say\"]}"));
        assertThat(ready.get("python").get("tools")).isEqualTo(JSON.readTree("[\"greeting.say\",\"hello\"]"));
        assertThat(ready.get("c").has("seat_verbs")).as("omitted when there are none").isFalse();
        JsonNode said = runtime.routeModuleCall(new ModuleRouteRequest("typescript", "greeting.say",
                JSON.readTree("{\"name\":\"Ada\"}"))).payload();
        assertThat(said.asText()).isEqualTo("Hello, Ada! (from TypeScript)");
        assertThat(runtime.shutdown().orphanProcesses()).isZero();
    }
}
