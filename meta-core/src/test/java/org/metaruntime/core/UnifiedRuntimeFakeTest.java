package org.metaruntime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.metaruntime.supervisor.ModuleHealthState.FAILED;
import static org.metaruntime.supervisor.ModuleHealthState.HEALTHY;
import static org.metaruntime.supervisor.ModuleHealthState.RESTARTING;
import static org.metaruntime.supervisor.ModuleHealthState.STARTING;
import static org.metaruntime.supervisor.ModuleHealthState.STOPPED;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.metaruntime.core.testing.FakeEventLineModule;
import org.metaruntime.core.testing.FakeMcpModule;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.LifecycleEvent;
import org.metaruntime.events.LifecycleStage;
import org.metaruntime.events.NormalizationError;
import org.metaruntime.events.NormalizationException;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpSessionMode;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.supervisor.ModuleHealthTransition;
import org.metaruntime.supervisor.ProcessBoundaryError;
import org.metaruntime.supervisor.RestartPolicy;
import org.metaruntime.supervisor.internal.manual.ManualScheduler;

/** The runtime's rules, driven through in-process fake modules (no process is spawned here). */
@Timeout(20)
class UnifiedRuntimeFakeTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(1_000), ZoneOffset.UTC);
    private static final Duration T = Duration.ofSeconds(5);

    private final ManualScheduler manual = new ManualScheduler();
    private UnifiedRuntime runtime;

    @AfterEach
    void close() {
        if (runtime != null) {
            runtime.close();
        }
    }

    private static ModuleConfig module(String id, RestartPolicy policy) {
        return ModuleConfig.builder(id).command("never-spawned-" + id).restartPolicy(policy).build();
    }

    private static ModuleConfig module(String id) {
        return module(id, RestartPolicy.ON_FAILURE);
    }

    private UnifiedRuntime.Builder builder(MetaConfig config) {
        return UnifiedRuntime.builder(config).clock(CLOCK).scheduler(manual)
                .options(RuntimeOptions.builder().shutdownHook(false).build());
    }

    private static ModuleHealthTransition t(String id, ModuleHealthState from, ModuleHealthState to, int attempt) {
        return new ModuleHealthTransition(id, from, to, attempt, CLOCK.millis());
    }

    private static ObjectNode json(String text) {
        try {
            return (ObjectNode) MAPPER.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private List<EventEnvelope<UnifiedEvent>> moduleEvents(String moduleId, String type) {
        return runtime.mergedEvents().stream().filter(e -> e.event() instanceof UnifiedEvent.Module)
                .filter(e -> ((UnifiedEvent.Module) e.event()).event().module().equals(moduleId))
                .filter(e -> ((UnifiedEvent.Module) e.event()).event().eventType().equals(type))
                .collect(Collectors.toList());
    }

    private static JsonNode payload(EventEnvelope<UnifiedEvent> event) {
        return ((UnifiedEvent.Module) event.event()).event().payload();
    }

    private static ModuleRouteError routeError(UnifiedRuntime runtime, String moduleId, String method) {
        try {
            runtime.routeModuleCall(new ModuleRouteRequest(moduleId, method, MAPPER.createObjectNode()), T);
        } catch (ModuleRouteException e) {
            assertThat(e.moduleId()).isEqualTo(moduleId);
            assertThat(e.getMessage()).contains("'" + moduleId + "'");
            return e.error();
        }
        throw new AssertionError("the call to " + moduleId + " succeeded");
    }

    @Test
    void startupRecordsLifecycleTransitionsAndMergedEvents() {
        FakeMcpModule router = FakeMcpModule.builder("router")
                .tool("zeta", args -> args).tool("alpha", args -> args).build();
        FakeEventLineModule weather = FakeEventLineModule.builder("weather")
                .payload(json("{\"forecast\":\"sunny\"}")).clock(CLOCK).build();
        MetaConfig config = MetaConfig.builder().module(module("router")).module(module("weather"))
                .module(module("idle")).discover("weather", "router").preSpawn(PreSpawnData.mcp("router")).build();
        EventEnvelope<UnifiedEvent> agent = EventEnvelope.agent("a-1", 5, "agent-1", "tool_execution_completed",
                json("{\"id\":\"call-7\"}"));
        runtime = builder(config).fakeModule(router).fakeModule(weather).agentEvents(List.of(agent)).start();

        assertThat(runtime.lifecycleEvents()).containsExactly(new LifecycleEvent(0, LifecycleStage.MOB_STARTED),
                new LifecycleEvent(1, LifecycleStage.MODULES_STARTED),
                new LifecycleEvent(2, LifecycleStage.MERGED_STREAM_STARTED));
        assertThat(runtime.moduleHealthTransitions()).containsExactly(
                t("weather", null, STARTING, 0), t("weather", STARTING, HEALTHY, 1),
                t("router", null, STARTING, 0), t("router", STARTING, HEALTHY, 1));
        assertThat(runtime.loadedModules()).containsExactly("weather", "router");

        List<EventEnvelope<UnifiedEvent>> ready = moduleEvents("router", "mcp.ready");
        assertThat(ready).hasSize(1);
        assertThat(ready.get(0).eventId()).startsWith("evt-mcp-ready-router-");
        assertThat(payload(ready.get(0))).isEqualTo(json("{\"tools\":[\"alpha\",\"zeta\"]}"));
        assertThat(payload(moduleEvents("weather", "ready").get(0))).isEqualTo(json("{\"forecast\":\"sunny\"}"));
        EventEnvelope<UnifiedEvent> storedAgent = runtime.mergedEvents().get(0);
        assertThat(storedAgent.eventId()).isEqualTo("a-1");
        assertThat(((UnifiedEvent.Agent) storedAgent.event()).payload().get("tool_call_id").asText()).isEqualTo("call-7");

        runtime.close();
        assertThat(runtime.lifecycleEvents()).extracting(LifecycleEvent::stage).endsWith(
                LifecycleStage.SHUTDOWN_REQUESTED, LifecycleStage.SHUTDOWN_COMPLETE);
        assertThat(runtime.loadedModules()).isEmpty();
        assertThat(router.openConnections()).isZero();
    }

    @Test
    void routesToMcpAndEventLineModules() {
        FakeMcpModule tools = FakeMcpModule.builder("tools")
                .tool("echo", args -> args).build();
        FakeEventLineModule weather = FakeEventLineModule.builder("weather")
                .payload(run -> MAPPER.createObjectNode().put("run", run)).build();
        MetaConfig config = MetaConfig.builder().module(module("tools")).module(module("weather"))
                .discover("tools", "weather").preSpawn(PreSpawnData.mcp("tools")).build();
        runtime = builder(config).fakeModule(tools).fakeModule(weather).start();

        ModuleRouteResponse echo = runtime.routeModuleCall(
                new ModuleRouteRequest("tools", "echo", json("{\"text\":\"héllo 🌍\"}")), T);
        assertThat(echo).isEqualTo(new ModuleRouteResponse("tools", "echo", json("{\"text\":\"héllo 🌍\"}")));

        // an event-line routed call is a fresh spawn; its first event's payload answers
        ModuleRouteResponse forecast = runtime.routeModuleCallAsync(
                new ModuleRouteRequest("weather", "anything", null), T).join();
        assertThat(forecast.payload().get("run").asInt()).isEqualTo(2);
        assertThat(weather.spawnCount()).isEqualTo(2);
    }

    @Test
    void routingChecksComeInOrder() {
        FakeEventLineModule router = FakeEventLineModule.builder("router").build();
        FakeMcpModule broken = FakeMcpModule.builder("broken").build()
                .failNextConnects(1, new McpBoundaryError.ConnectionFailed("broken", "refused"));
        MetaConfig config = MetaConfig.builder().module(module("router")).module(module("broken"))
                .module(module("undiscovered")).discover("router", "broken")
                .preSpawn(PreSpawnData.mcp("broken")).build();
        runtime = builder(config).fakeModule(router).fakeModule(broken).start();

        assertThat(routeError(runtime, "undiscovered", "x")).isEqualTo(new ModuleRouteError.UnloadedModule("undiscovered",
                ModuleRouteError.UnloadedReason.NOT_DISCOVERED, null));
        assertThat(routeError(runtime, "nobody", "x")).isEqualTo(new ModuleRouteError.UnloadedModule("nobody",
                ModuleRouteError.UnloadedReason.UNKNOWN_MODULE, null));
        assertThat(routeError(runtime, "broken", "x")).isEqualTo(new ModuleRouteError.UnloadedModule("broken",
                ModuleRouteError.UnloadedReason.STARTUP_FAILED, new RuntimeBoundaryError.Mcp(new McpBoundaryError.ConnectionFailed("broken", "refused"))));
        assertThatThrownBy(() -> runtime.routeModuleCall(new ModuleRouteRequest("broken", "x", null), T))
                .isInstanceOf(ModuleRouteException.class)
                .hasMessage("call to module 'broken' failed: module 'broken' is not loaded: its startup failed "
                        + "(" + new McpBoundaryError.ConnectionFailed("broken", "refused").message() + ")")
                .satisfies(e -> assertThat(((ModuleRouteException) e).code()).isEqualTo("route.unloaded_module"));
        assertThat(routeError(runtime, "router", "router.echo")).isEqualTo(new ModuleRouteError.ModuleRuntime(
                new RuntimeBoundaryError.Mcp(new McpBoundaryError.McpRequired("router", "router.echo"))));

        // the MCP probe: one attempt whatever the policy, then a warning; the module stays unloaded
        assertThat(runtime.moduleHealthTransitions()).containsSubsequence(t("broken", null, STARTING, 0),
                t("broken", STARTING, FAILED, 1), t("broken", FAILED, STOPPED, 1));
        EventEnvelope<UnifiedEvent> warning = moduleEvents("broken", "supervisor.warning").get(0);
        assertThat(warning.eventId()).isEqualTo("evt-supervisor-warning-broken-1000");
        assertThat(payload(warning).get("error_type").asText()).isEqualTo("mcp.connection_failed");
        assertThat(payload(warning).get("error").asText()).contains("'broken'").contains("refused");
    }

    @Test
    void onFailureBudgetTwoFailsTwiceThenSucceeds() {
        FakeEventLineModule flaky = FakeEventLineModule.builder("flaky").build()
                .failNextSpawns(2, new ProcessBoundaryError.EmptyOutput());
        MetaConfig config = MetaConfig.builder().module(module("flaky")).discover("flaky").build();
        runtime = UnifiedRuntime.builder(config).clock(CLOCK).scheduler(manual).fakeModule(flaky)
                .options(RuntimeOptions.builder().onFailureRetryBudget(2).shutdownHook(false).build()).start();
        assertThat(runtime.moduleHealthTransitions()).containsExactly(
                t("flaky", null, STARTING, 0), t("flaky", STARTING, FAILED, 1), t("flaky", FAILED, RESTARTING, 1),
                t("flaky", RESTARTING, FAILED, 2), t("flaky", FAILED, RESTARTING, 2), t("flaky", RESTARTING, HEALTHY, 3));
        assertThat(runtime.loadedModules()).containsExactly("flaky");
        assertThat(moduleEvents("flaky", "supervisor.warning")).isEmpty();
    }

    @Test
    void aStartupBackoffIsTimedByTheLibrarysTimerSoAHostsManualSchedulerNeverHoldsStart() {
        FakeEventLineModule flaky = FakeEventLineModule.builder("flaky").build()
                .failNextSpawns(1, new ProcessBoundaryError.EmptyOutput());
        MetaConfig config = MetaConfig.builder().module(module("flaky")).discover("flaky").build();
        runtime = UnifiedRuntime.builder(config).clock(CLOCK).scheduler(manual).fakeModule(flaky)
                .options(RuntimeOptions.builder().restartBackoff(Duration.ofMillis(20)).shutdownHook(false).build())
                .start();
        assertThat(runtime.moduleHealthTransitions()).containsExactly(t("flaky", null, STARTING, 0),
                t("flaky", STARTING, FAILED, 1), t("flaky", FAILED, RESTARTING, 1), t("flaky", RESTARTING, HEALTHY, 2));
        assertThat(manual.requestedDelays()).as("nothing of the startup waits on the host's scheduler")
                .doesNotContain(Duration.ofMillis(20));
    }

    @Test
    void alwaysRestartsWithinItsBudgetAndKeepsTheLastChild() {
        FakeEventLineModule always = FakeEventLineModule.builder("always").build();
        MetaConfig config = MetaConfig.builder().module(module("always", RestartPolicy.ALWAYS)).discover("always").build();
        runtime = builder(config).fakeModule(always).start();
        assertThat(runtime.moduleHealthTransitions()).containsExactly(t("always", null, STARTING, 0),
                t("always", STARTING, HEALTHY, 1), t("always", HEALTHY, RESTARTING, 1), t("always", RESTARTING, HEALTHY, 2));
        assertThat(always.spawnCount()).isEqualTo(2);
        assertThat(always.liveChildren()).isEqualTo(1);
        assertThat(moduleEvents("always", "ready")).hasSize(1);
        assertThat(payload(moduleEvents("always", "ready").get(0)).get("run").asInt()).isEqualTo(2);
    }

    @Test
    void neverPolicyStopsAfterOneFailureWithAWarningCarryingTheExitCode() {
        FakeEventLineModule once = FakeEventLineModule.builder("once").build()
                .failNextSpawns(1, new ProcessBoundaryError.EmptyOutput());
        MetaConfig config = MetaConfig.builder().module(module("once", RestartPolicy.NEVER)).discover("once").build();
        runtime = builder(config).fakeModule(once).start();
        assertThat(runtime.moduleHealthTransitions()).containsExactly(t("once", null, STARTING, 0),
                t("once", STARTING, FAILED, 1), t("once", FAILED, STOPPED, 1));
        JsonNode warning = payload(moduleEvents("once", "supervisor.warning").get(0));
        assertThat(warning.get("error_type").asText()).isEqualTo("process.empty_output");
        assertThat(warning.get("exit_code").asInt()).isEqualTo(1);
        assertThat(warning.has("stderr_tail")).isTrue();
        assertThat(runtime.supervisorReport().get("once").state()).isEqualTo(STOPPED);
    }

    @Test
    void eventLineAnswerOfAnotherModuleIsUnexpected() {
        FakeEventLineModule liar = FakeEventLineModule.builder("liar")
                .firstEvent(run -> EventEnvelope.module("e" + run, 1, run == 1 ? "liar" : "someone-else", "ready", null))
                .build();
        MetaConfig config = MetaConfig.builder().module(module("liar")).discover("liar").build();
        runtime = builder(config).fakeModule(liar).start();
        ModuleRouteError error = routeError(runtime, "liar", "x");
        assertThat(error).isInstanceOf(ModuleRouteError.UnexpectedRouteResponse.class);
        assertThat(((ModuleRouteError.UnexpectedRouteResponse) error).moduleId()).isEqualTo("liar");
    }

    @Test
    void eventLineCallErrorsComposeToTheBoundaryError() {
        FakeEventLineModule module = FakeEventLineModule.builder("m").build();
        MetaConfig config = MetaConfig.builder().module(module("m")).discover("m").build();
        runtime = builder(config).fakeModule(module).start();
        module.failNextSpawns(1, new NormalizationError.InvalidJson());
        assertThat(routeError(runtime, "m", "x")).isEqualTo(new ModuleRouteError.ModuleRuntime(
                new RuntimeBoundaryError.Normalize(new NormalizationError.InvalidJson())));
        module.failNextSpawns(1, new ProcessBoundaryError.Timeout(250));
        assertThat(routeError(runtime, "m", "x")).isEqualTo(new ModuleRouteError.ModuleRuntime(
                new RuntimeBoundaryError.Process(new ProcessBoundaryError.Timeout(250))));
    }

    @Test
    void mcpToolErrors() {
        FakeMcpModule tools = FakeMcpModule.builder("tools")
                .tool("boom", args -> {
                    throw new IllegalStateException("disk full");
                })
                .tool("slow", args -> args).delay("slow", Duration.ofSeconds(30)).build();
        MetaConfig config = MetaConfig.builder().module(module("tools")).discover("tools")
                .preSpawn(PreSpawnData.mcp("tools")).build();
        runtime = builder(config).fakeModule(tools).start();
        assertThat(routeError(runtime, "tools", "missing")).isEqualTo(new ModuleRouteError.ModuleRuntime(
                new RuntimeBoundaryError.Mcp(new McpBoundaryError.ToolNotFound("tools", "missing", List.of("boom", "slow")))));
        assertThat(routeError(runtime, "tools", "boom")).isEqualTo(new ModuleRouteError.ModuleRuntime(
                new RuntimeBoundaryError.Mcp(new McpBoundaryError.ToolReturnedError("tools", "boom",
                        new io.modelcontextprotocol.spec.McpSchema.CallToolResult(List.of(
                                new io.modelcontextprotocol.spec.McpSchema.TextContent("disk full")), true, null, null)))));
        ModuleRouteException timeout = (ModuleRouteException) runtime.routeModuleCallAsync(
                new ModuleRouteRequest("tools", "slow", null), Duration.ofMillis(50))
                .handle((r, e) -> e).join();
        assertThat(timeout.error()).isEqualTo(new ModuleRouteError.ModuleRuntime(
                new RuntimeBoundaryError.Mcp(new McpBoundaryError.Timeout("tools", "call_tool:slow", 50))));
    }

    @Test
    void callsToDifferentModulesRunInParallel() throws Exception {
        CountDownLatch bothInside = new CountDownLatch(2);
        FakeTool meet = args -> {
            bothInside.countDown();
            if (!bothInside.await(5, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the other module's call never ran alongside this one");
            }
            return args;
        };
        FakeMcpModule a = FakeMcpModule.builder("a").tool("meet", meet).build();
        FakeMcpModule b = FakeMcpModule.builder("b").tool("meet", meet).build();
        MetaConfig config = MetaConfig.builder().module(module("a")).module(module("b")).discover("a", "b")
                .preSpawn(PreSpawnData.mcp("a")).preSpawn(PreSpawnData.mcp("b")).build();
        runtime = builder(config).fakeModule(a).fakeModule(b).start();
        CompletableFuture<ModuleRouteResponse> first = runtime.routeModuleCallAsync(
                new ModuleRouteRequest("a", "meet", null), T);
        ModuleRouteResponse second = runtime.routeModuleCall(new ModuleRouteRequest("b", "meet", null), T);
        assertThat(second.moduleId()).isEqualTo("b");
        assertThat(first.get(5, TimeUnit.SECONDS).moduleId()).isEqualTo("a");
    }

    /** Test-local alias so the lambda above reads as a tool. */
    private interface FakeTool extends org.metaruntime.core.testing.FakeTool {
    }

    @Test
    void persistentMcpCrashIsRestartedAndCallsFailFastMeanwhile() {
        FakeMcpModule tools = FakeMcpModule.builder("tools").tool("echo", args -> args).build();
        MetaConfig config = MetaConfig.builder().module(module("tools")).discover("tools")
                .preSpawn(PreSpawnData.mcp("tools")).build();
        runtime = builder(config).fakeModule(tools).start();
        tools.crash(139, "segmentation fault");

        assertThat(runtime.moduleHealthTransitions()).endsWith(
                t("tools", HEALTHY, FAILED, 2), t("tools", FAILED, RESTARTING, 2));
        assertThat(routeError(runtime, "tools", "echo"))
                .isEqualTo(new ModuleRouteError.ModuleUnavailable("tools", RESTARTING));
        JsonNode warning = payload(moduleEvents("tools", "supervisor.warning").get(0));
        assertThat(warning.get("exit_code").asInt()).isEqualTo(139);
        assertThat(warning.get("stderr_tail").asText()).isEqualTo("segmentation fault");
        assertThat(warning.get("error_type").asText()).isEqualTo("process.exited");

        manual.runPending();
        await().atMost(5, TimeUnit.SECONDS).untilAsserted(() ->
                assertThat(runtime.moduleHealthTransitions()).endsWith(t("tools", RESTARTING, HEALTHY, 3)));
        assertThat(runtime.routeModuleCall(new ModuleRouteRequest("tools", "echo", json("{\"n\":1}")), T).payload())
                .isEqualTo(json("{\"n\":1}"));
        assertThat(tools.connectCount()).isEqualTo(2);
        assertThat(moduleEvents("tools", "mcp.ready")).hasSize(2);
        assertThat(runtime.supervisorReport().get("tools").restarts()).isEqualTo(1);
    }

    @Test
    void restartIntensityStopsTheModuleUntilAManualRestart() {
        FakeMcpModule tools = FakeMcpModule.builder("tools").tool("echo", args -> args).build();
        MetaConfig config = MetaConfig.builder().module(module("tools")).discover("tools")
                .preSpawn(PreSpawnData.mcp("tools")).build();
        runtime = UnifiedRuntime.builder(config).clock(CLOCK).scheduler(manual).fakeModule(tools)
                .options(RuntimeOptions.builder().maxRestarts(0).shutdownHook(false).build()).start();
        tools.crash(1, "");
        assertThat(runtime.moduleHealthTransitions()).endsWith(t("tools", HEALTHY, FAILED, 2), t("tools", FAILED, STOPPED, 2));
        assertThat(routeError(runtime, "tools", "echo")).isEqualTo(new ModuleRouteError.ModuleUnavailable("tools", STOPPED));
        assertThat(moduleEvents("tools", "supervisor.warning")).extracting(e -> payload(e).get("error_type").asText())
                .contains("supervisor.restart_intensity_exceeded");

        assertThat(runtime.restartModule("tools")).isEqualTo(HEALTHY);
        assertThat(runtime.routeModuleCall(new ModuleRouteRequest("tools", "echo", null), T).payload())
                .isEqualTo(json("{}"));
    }

    @Test
    void eventLineChildThatCompletesIsNotAFailureButANonZeroExitIs() {
        FakeEventLineModule done = FakeEventLineModule.builder("done").exitAfterStart(0).build();
        FakeEventLineModule dies = FakeEventLineModule.builder("dies").build();
        MetaConfig config = MetaConfig.builder().module(module("done")).module(module("dies"))
                .discover("done", "dies").build();
        runtime = builder(config).fakeModule(done).fakeModule(dies).start();
        dies.crash(2, "bad");
        manual.runPending();
        await().atMost(5, TimeUnit.SECONDS).until(() -> runtime.moduleHealthTransitions().size() == 7);
        List<ModuleHealthTransition> all = runtime.moduleHealthTransitions();
        assertThat(all).filteredOn(t -> t.moduleId().equals("done")).containsExactly(
                t("done", null, STARTING, 0), t("done", STARTING, HEALTHY, 1));
        assertThat(all).filteredOn(t -> t.moduleId().equals("dies")).endsWith(
                t("dies", HEALTHY, FAILED, 2), t("dies", FAILED, RESTARTING, 2), t("dies", RESTARTING, HEALTHY, 3));
        assertThat(runtime.routeModuleCall(new ModuleRouteRequest("done", "x", null), T).moduleId()).isEqualTo("done");
    }

    @Test
    void ingestAgentEventChecksTheSourceAndProjects() {
        MetaConfig config = MetaConfig.builder().build();
        runtime = builder(config).start();
        assertThatThrownBy(() -> runtime.ingestAgentEvent(EventEnvelope.module("m", 1, "x", "t", null)))
                .isInstanceOf(NormalizationException.class)
                .satisfies(e -> assertThat(((NormalizationException) e).error())
                        .isEqualTo(new NormalizationError.SourceMismatch("agent", "module")));
        runtime.ingestAgentEvent(EventEnvelope.agent("b", 2, "agent", "tool_result_received",
                json("{\"id\":\"c1\",\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}")));
        runtime.ingestAgentEvent(EventEnvelope.agent("a", 1, "agent", "run_started", null));
        assertThat(runtime.mergedEvents()).extracting(EventEnvelope::eventId).containsExactly("a", "b");
        JsonNode projected = ((UnifiedEvent.Agent) runtime.mergedEvents().get(1).event()).payload();
        assertThat(projected.get("result").asText()).isEqualTo("ok");
    }

    @Test
    void mergedEventsAreARecentEventBuffer() {
        runtime = UnifiedRuntime.builder(MetaConfig.builder().build()).clock(CLOCK).scheduler(manual)
                .options(RuntimeOptions.builder().eventRetention(3).eventDropBatch(2).shutdownHook(false).build())
                .start();
        for (int i = 0; i < 5; i++) {
            runtime.ingestAgentEvent(EventEnvelope.agent("a" + i, i, "agent", "run_started", null));
        }
        assertThat(runtime.mergedEvents()).extracting(EventEnvelope::eventId).containsExactly("a2", "a3", "a4");
    }

    @Test
    void coreFlowEventsNeverGoBehindTheNewestEvent() {
        FakeMcpModule router = FakeMcpModule.builder("router")
                .tool("routing.resolve", args -> json("{\"route_id\":\"r-1\"}")).build();
        FakeMcpModule delivery = FakeMcpModule.builder("delivery")
                .tool("delivery.send", args -> json("{\"delivery_id\":\"d-1\",\"route_id\":\"r-1\",\"recipient\":\"bob\","
                        + "\"sink\":\"email\",\"status\":\"sent\",\"attempts\":1,\"internal\":true}")).build();
        MetaConfig config = MetaConfig.builder().module(module("router")).module(module("delivery"))
                .discover("router", "delivery").preSpawn(PreSpawnData.mcp("router")).preSpawn(PreSpawnData.mcp("delivery"))
                .build();
        runtime = builder(config).fakeModule(router).fakeModule(delivery).start();
        runtime.ingestAgentEvent(EventEnvelope.agent("future", 9_000, "agent", "run_started", null));
        runtime.routeModuleCall(new ModuleRouteRequest("router", "routing.resolve", null), T);
        runtime.routeModuleCall(new ModuleRouteRequest("delivery", "delivery.send", null), T);

        EventEnvelope<UnifiedEvent> resolved = moduleEvents("router", "resolved").get(0);
        assertThat(resolved.eventId()).isEqualTo("evt-routing-000001");
        assertThat(resolved.timestampMs()).isGreaterThanOrEqualTo(9_000);
        assertThat(payload(resolved)).isEqualTo(json("{\"route_id\":\"r-1\"}"));
        EventEnvelope<UnifiedEvent> send = moduleEvents("delivery", "send").get(0);
        assertThat(send.eventId()).isEqualTo("evt-delivery-000001");
        assertThat(payload(send)).isEqualTo(json("{\"delivery_id\":\"d-1\",\"route_id\":\"r-1\",\"recipient\":\"bob\","
                + "\"sink\":\"email\",\"status\":\"sent\",\"attempts\":1}"));
        assertThat(send.timestampMs()).isGreaterThanOrEqualTo(9_000);
    }

    @Test
    void spawnMemberAndReconcile() {
        FakeEventLineModule a = FakeEventLineModule.builder("a").build();
        FakeEventLineModule b = FakeEventLineModule.builder("b").build();
        FakeEventLineModule bad = FakeEventLineModule.builder("bad").build()
                .failNextSpawns(10, new ProcessBoundaryError.SpawnFailed("no such file"));
        MetaConfig config = MetaConfig.builder().module(module("a")).module(module("b"))
                .module(module("bad", RestartPolicy.NEVER)).discover("a").build();
        runtime = builder(config).fakeModule(a).fakeModule(b).fakeModule(bad).start();

        EventEnvelope<UnifiedEvent> first = runtime.spawnMember("b", T);
        assertThat(((UnifiedEvent.Module) first.event()).event().module()).isEqualTo("b");
        assertThat(runtime.discovery().modules()).containsExactly("a", "b");
        assertThat(runtime.moduleHealthTransitions()).endsWith(t("b", null, STARTING, 0), t("b", STARTING, HEALTHY, 1));

        runtime.spawnMember("a", T); // respawn: the old child is stopped first
        assertThat(a.liveChildren()).isEqualTo(1);

        assertThatThrownBy(() -> runtime.spawnMember("ghost", T)).isInstanceOf(RuntimeFromConfigException.class)
                .satisfies(e -> assertThat(((RuntimeFromConfigException) e).error()).isEqualTo(
                        new RuntimeFromConfigError.Config(new ConfigResolutionError.ModuleNotConfigured("ghost"))));
        assertThatThrownBy(() -> runtime.spawnMember("bad", T)).isInstanceOf(RuntimeFromConfigException.class)
                .satisfies(e -> assertThat(((RuntimeFromConfigException) e).error()).isEqualTo(
                        new RuntimeFromConfigError.Runtime(new RuntimeBoundaryError.Process(
                                new ProcessBoundaryError.SpawnFailed("no such file")))));

        List<String> before = runtime.discovery().modules();
        assertThatThrownBy(() -> runtime.reconcileModules(List.of("a", "ghost"), T))
                .isInstanceOf(RuntimeFromConfigException.class);
        assertThat(runtime.discovery().modules()).isEqualTo(before);

        assertThat(runtime.reconcileModules(List.of("b", "a"), T)).isZero();
        assertThat(runtime.discovery().modules()).containsExactly("b", "a");
        assertThat(runtime.loadedModules()).containsExactly("b", "a");
    }

    @Test
    void perCallModeConnectsForEveryCall() {
        FakeMcpModule tools = FakeMcpModule.builder("tools").tool("echo", args -> args).build();
        MetaConfig config = MetaConfig.builder()
                .module(ModuleConfig.builder("tools").command("x").mcpSessionMode(McpSessionMode.PER_CALL).build())
                .discover("tools").preSpawn(PreSpawnData.mcp("tools")).build();
        runtime = builder(config).fakeModule(tools).start();
        assertThat(tools.openConnections()).isZero();
        runtime.routeModuleCall(new ModuleRouteRequest("tools", "echo", null), T);
        runtime.routeModuleCall(new ModuleRouteRequest("tools", "echo", null), T);
        assertThat(tools.connectCount()).isEqualTo(3);
        assertThat(tools.openConnections()).isZero();
    }

    @Test
    void shutdownIsIdempotent() {
        FakeMcpModule b = FakeMcpModule.builder("b").build();
        FakeEventLineModule a = FakeEventLineModule.builder("a").build();
        MetaConfig config = MetaConfig.builder().module(module("b")).module(module("a")).discover("b", "a")
                .preSpawn(PreSpawnData.mcp("b")).build();
        runtime = builder(config).fakeModule(a).fakeModule(b).start();
        RuntimeShutdownReport report = runtime.shutdown();
        assertThat(report).isEqualTo(new RuntimeShutdownReport(List.of("a", "b"), 0));
        assertThat(runtime.shutdown()).isSameAs(report);
        assertThat(runtime.lifecycleEvents()).hasSize(5);
        assertThat(runtime.shutdownReport()).contains(report);
        assertThat(routeError(runtime, "a", "x")).isEqualTo(new ModuleRouteError.UnloadedModule("a",
                ModuleRouteError.UnloadedReason.SHUT_DOWN, null));
        assertThat(a.liveChildren()).isZero();
        assertThat(b.openConnections()).isZero();
    }

    @Test
    void configErrorsAreFoundBeforeAnythingStarts() {
        FakeEventLineModule a = FakeEventLineModule.builder("a").build();
        MetaConfig notDiscovered = MetaConfig.builder().module(module("a")).discover("a", "ghost").build();
        assertThatThrownBy(() -> builder(notDiscovered).fakeModule(a).start()).isInstanceOf(ConfigException.class)
                .hasMessageContaining("discovery.modules[1]");
        assertThat(a.spawnCount()).isZero();

        MetaConfig marked = MetaConfig.builder().module(module("a")).preSpawn(PreSpawnData.mcp("a")).build();
        assertThatThrownBy(() -> builder(marked).fakeModule(a).start()).isInstanceOf(ConfigException.class)
                .hasMessageContaining("fakeModules[a]");
        MetaConfig empty = MetaConfig.builder().build();
        assertThatThrownBy(() -> builder(empty).fakeModule(a).start()).isInstanceOf(ConfigException.class)
                .hasMessageContaining("not configured");

        InProcessModule homemade = new InProcessModule() {
            @Override
            public String moduleId() {
                return "a";
            }

            @Override
            public ModuleBoundaryKind kind() {
                return ModuleBoundaryKind.EVENT_LINE;
            }
        };
        MetaConfig plain = MetaConfig.builder().module(module("a")).discover("a").build();
        assertThatThrownBy(() -> builder(plain).fakeModule(homemade).start()).isInstanceOf(ConfigException.class)
                .hasMessageContaining("fakeModules[a]").hasMessageContaining("is not a fake module");
    }

    @Test
    void routeRejectsANonPositiveTimeout() {
        runtime = builder(MetaConfig.builder().build()).start();
        assertThatThrownBy(() -> runtime.routeModuleCall(new ModuleRouteRequest("a", "b", null), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(Set.copyOf(runtime.lifecycleEvents())).hasSize(3);
    }
}
