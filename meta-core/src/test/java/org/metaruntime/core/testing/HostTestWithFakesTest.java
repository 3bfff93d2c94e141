package org.metaruntime.core.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.metaruntime.core.MetaConfig;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.core.ModuleRouteError;
import org.metaruntime.core.ModuleRouteException;
import org.metaruntime.core.ModuleRouteRequest;
import org.metaruntime.core.PreSpawnData;
import org.metaruntime.core.RuntimeBoundaryError;
import org.metaruntime.core.RuntimeOptions;
import org.metaruntime.core.UnifiedRuntime;
import org.metaruntime.mcp.McpBoundaryError;

/**
 * How a host unit-tests its own code against the runtime: the production configuration, with the modules replaced by
 * in-process fakes.
 */
@Timeout(10)
class HostTestWithFakesTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** The host's code under test: resolves a route, falls back to "default" when the router's tool reports an error. */
    static final class RouteService {
        private final UnifiedRuntime runtime;

        RouteService(UnifiedRuntime runtime) {
            this.runtime = runtime;
        }

        String routeFor(String recipient) {
            try {
                JsonNode payload = runtime.routeModuleCall(new ModuleRouteRequest("router", "routing.resolve",
                        MAPPER.createObjectNode().put("recipient", recipient)), Duration.ofSeconds(2)).payload();
                return payload.get("route_id").asText();
            } catch (ModuleRouteException e) {
                if (e.error() instanceof ModuleRouteError.ModuleRuntime
                        && ((ModuleRouteError.ModuleRuntime) e.error()).error() instanceof RuntimeBoundaryError.Mcp
                        && ((RuntimeBoundaryError.Mcp) ((ModuleRouteError.ModuleRuntime) e.error()).error()).error()
                        instanceof McpBoundaryError.ToolReturnedError) {
                    return "default";
                }
                throw e;
            }
        }
    }

    /** The production configuration: the router is a python MCP server. */
    private static MetaConfig productionConfig() {
        return MetaConfig.builder()
                .module(ModuleConfig.builder("router").command("python3", "router_server.py").build())
                .discover("router")
                .preSpawn(PreSpawnData.mcp("router"))
                .build();
    }

    @Test
    void resolvesThroughTheRouter() {
        FakeMcpModule router = FakeMcpModule.builder("router")
                .tool("routing.resolve", args -> MAPPER.createObjectNode()
                        .put("route_id", "route-" + args.get("recipient").asText()))
                .build();
        try (UnifiedRuntime runtime = UnifiedRuntime.builder(productionConfig()).fakeModule(router)
                .options(RuntimeOptions.builder().shutdownHook(false).build()).start()) {
            assertThat(new RouteService(runtime).routeFor("bob")).isEqualTo("route-bob");
            assertThat(router.callCount()).isEqualTo(1);
            // the runtime still adds the core flow event of a resolved route
            assertThat(runtime.mergedEvents()).anyMatch(e -> e.eventId().equals("evt-routing-000001"));
        }
    }

    @Test
    void fallsBackWhenTheRouterFails() {
        FakeMcpModule router = FakeMcpModule.builder("router")
                .tool("routing.resolve", args -> {
                    throw new IllegalStateException("no route table");
                })
                .build();
        try (UnifiedRuntime runtime = UnifiedRuntime.builder(productionConfig()).fakeModule(router)
                .options(RuntimeOptions.builder().shutdownHook(false).build()).start()) {
            assertThat(new RouteService(runtime).routeFor("bob")).isEqualTo("default");
        }
    }

    @Test
    void aRouterWithoutTheMarkerIsRefusedLikeARealOne() {
        MetaConfig noMarker = MetaConfig.builder()
                .module(ModuleConfig.builder("router").command("python3", "router.py").build())
                .discover("router").build();
        FakeEventLineModule router = FakeEventLineModule.builder("router").build();
        try (UnifiedRuntime runtime = UnifiedRuntime.builder(noMarker).fakeModule(router)
                .options(RuntimeOptions.builder().shutdownHook(false).build()).start()) {
            assertThatThrownBy(() -> new RouteService(runtime).routeFor("bob"))
                    .isInstanceOf(ModuleRouteException.class)
                    .satisfies(e -> assertThat(((ModuleRouteException) e).error()).isEqualTo(
                            new ModuleRouteError.ModuleRuntime(new RuntimeBoundaryError.Mcp(
                                    new McpBoundaryError.McpRequired("router", "routing.resolve")))));
        }
    }
}
