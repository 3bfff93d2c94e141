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
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.NormalizationError;
import org.metaruntime.events.StoreNotification;
import org.metaruntime.events.Subscription;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpSessionMode;
import org.metaruntime.supervisor.ModuleHealthTransition;
import org.metaruntime.supervisor.ProcessBoundaryError;
import org.metaruntime.supervisor.RestartPolicy;
import org.metaruntime.testing.FixtureScripts;
import org.metaruntime.testing.LeakCheck;

/** The runtime with real child processes: python and sh fixtures, and a python MCP server. */
@Timeout(60)
class RealModulesTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
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

    private Path pidfile() {
        return dir.resolve("pids");
    }

    private ModuleConfig.Builder eventLine(String id, String mode) {
        return ModuleConfig.builder(id).command(FixtureScripts.eventLineModuleCommand(id))
                .env("FIXTURE_PIDFILE", pidfile().toString()).env("FIXTURE_MODE", mode)
                .env("FIXTURE_COUNTER", dir.resolve(id + ".count").toString());
    }

    private ModuleConfig.Builder mcp(String id) {
        return ModuleConfig.builder(id).command(FixtureScripts.mcpServerCommand("--pid-file", pidfile().toString()));
    }

    private static RuntimeOptions.Builder options() {
        return RuntimeOptions.builder().startupTimeout(T).shutdownHook(false)
                .stopStdinGrace(Duration.ofMillis(500)).stopTermGrace(Duration.ofMillis(500));
    }

    private UnifiedRuntime start(MetaConfig config, RuntimeOptions options) {
        UnifiedRuntime runtime = UnifiedRuntime.builder(config).options(options).start();
        runtimes.add(runtime);
        return runtime;
    }

    private static List<ModuleHealthTransition> of(UnifiedRuntime runtime, String id) {
        return untimed(runtime).stream().filter(t -> t.moduleId().equals(id)).collect(Collectors.toList());
    }

    /** The transitions without their time (the real clock's), to compare with {@link #t}. */
    private static List<ModuleHealthTransition> untimed(UnifiedRuntime runtime) {
        return runtime.moduleHealthTransitions().stream()
                .map(t -> new ModuleHealthTransition(t.moduleId(), t.from(), t.to(), t.attempt()))
                .collect(Collectors.toList());
    }

    private static ModuleHealthTransition t(String id, org.metaruntime.supervisor.ModuleHealthState from,
                                            org.metaruntime.supervisor.ModuleHealthState to, int attempt) {
        return new ModuleHealthTransition(id, from, to, attempt);
    }

    private static List<JsonNode> payloads(UnifiedRuntime runtime, String id, String type) {
        return runtime.mergedEvents().stream().map(EventEnvelope::event)
                .filter(e -> e instanceof UnifiedEvent.Module).map(e -> ((UnifiedEvent.Module) e).event())
                .filter(e -> e.module().equals(id) && e.eventType().equals(type))
                .map(e -> e.payload()).collect(Collectors.toList());
    }

    private static ModuleRouteError routeError(UnifiedRuntime runtime, String id, String method, Duration timeout) {
        try {
            runtime.routeModuleCall(new ModuleRouteRequest(id, method, MAPPER.createObjectNode()), timeout);
        } catch (ModuleRouteException e) {
            assertThat(e.getMessage()).contains("'" + id + "'");
            return e.error();
        }
        throw new AssertionError("the call succeeded");
    }

    @Test
    void eventLineModuleStartsAndEachRoutedCallIsAFreshProcess() {
        MetaConfig config = MetaConfig.builder().module(eventLine("weather", "ok").build()).discover("weather").build();
        UnifiedRuntime runtime = start(config, options().build());
        assertThat(runtime.loadedModules()).containsExactly("weather");
        assertThat(of(runtime, "weather")).containsExactly(t("weather", null, STARTING, 0), t("weather", STARTING, HEALTHY, 1));
        JsonNode ready = payloads(runtime, "weather", "ready").get(0);
        assertThat(ready.get("text").asText()).isEqualTo("héllo 🌍");

        JsonNode first = runtime.routeModuleCall(new ModuleRouteRequest("weather", "forecast", null), T).payload();
        JsonNode second = runtime.routeModuleCallAsync(new ModuleRouteRequest("weather", "forecast", null), T).join().payload();
        assertThat(first.get("pid").asLong()).isNotEqualTo(second.get("pid").asLong());
        assertThat(Fixtures.pids(pidfile())).hasSize(3);
        // the kept startup child exited 0: it completed, which is not a failure
        assertThat(of(runtime, "weather")).hasSize(2);
    }

    @Test
    void modulesStartInParallelButTheirBlocksStayInDiscoveryOrder() {
        MetaConfig config = MetaConfig.builder()
                .module(eventLine("late", "delay").env("FIXTURE_DELAY", "1.5").build())
                .module(eventLine("early", "ok").build())
                .module(eventLine("never", "ok").build())
                .discover("late", "early").build();
        UnifiedRuntime runtime = start(config, options().startupParallelism(2).build());
        assertThat(untimed(runtime)).containsExactly(t("late", null, STARTING, 0),
                t("late", STARTING, HEALTHY, 1), t("early", null, STARTING, 0), t("early", STARTING, HEALTHY, 1));
        assertThat(runtime.loadedModules()).containsExactly("late", "early");
        assertThat(runtime.supervisorReport()).containsOnlyKeys("late", "early");
    }

    @Test
    void startupRefusesAFirstEventOfAnotherModuleLikeARoutedCall() {
        MetaConfig config = MetaConfig.builder()
                .module(eventLine("liar", "ok").env("FIXTURE_MODULE", "someone-else")
                        .restartPolicy(RestartPolicy.NEVER).build())
                .discover("liar").build();
        UnifiedRuntime runtime = start(config, options().build());
        assertThat(of(runtime, "liar")).containsExactly(t("liar", null, STARTING, 0), t("liar", STARTING, FAILED, 1),
                t("liar", FAILED, STOPPED, 1));
        assertThat(runtime.loadedModules()).isEmpty();
        JsonNode warning = payloads(runtime, "liar", "supervisor.warning").get(0);
        assertThat(warning.get("error_type").asText()).isEqualTo("normalize.source_mismatch");
        assertThat(warning.get("error").asText()).contains("module:liar").contains("module:someone-else");
        assertThat(runtime.mergedEvents()).noneMatch(e -> e.event() instanceof UnifiedEvent.Module m
                && m.event().module().equals("someone-else"));
        assertThat(routeError(runtime, "liar", "x", T)).isEqualTo(new ModuleRouteError.UnloadedModule("liar",
                ModuleRouteError.UnloadedReason.STARTUP_FAILED, new RuntimeBoundaryError.Normalize(
                        new NormalizationError.SourceMismatch("module:liar", "module:someone-else"))));
        assertThatThrownBy(() -> runtime.spawnMember("liar", T)).isInstanceOf(RuntimeFromConfigException.class)
                .hasMessageContaining("module:someone-else");
    }

    @Test
    void routedEventLineErrorsComposeToTheBoundaryError() {
        MetaConfig config = MetaConfig.builder()
                .module(eventLine("garbage", "garbage").build())
                .module(eventLine("liar", "ok").env("FIXTURE_MODULE", "someone-else").env("FIXTURE_TRUTHFUL_RUNS", "1")
                        .build())
                .module(eventLine("slow", "ok").build())
                .discover("garbage", "liar", "slow").build();
        UnifiedRuntime runtime = start(config, options().onFailureRetryBudget(0).build());
        // a non-JSON first line fails the startup too: unloaded, with a warning
        assertThat(of(runtime, "garbage")).containsExactly(t("garbage", null, STARTING, 0),
                t("garbage", STARTING, FAILED, 1), t("garbage", FAILED, STOPPED, 1));
        JsonNode warning = payloads(runtime, "garbage", "supervisor.warning").get(0);
        assertThat(warning.get("error_type").asText()).isEqualTo("normalize.invalid_json");
        assertThat(warning.has("stderr_tail")).isTrue();
        assertThat(routeError(runtime, "garbage", "x", T)).isEqualTo(new ModuleRouteError.UnloadedModule("garbage",
                ModuleRouteError.UnloadedReason.STARTUP_FAILED, new RuntimeBoundaryError.Normalize(
                        new NormalizationError.InvalidJson())));

        assertThat(routeError(runtime, "liar", "x", T)).isInstanceOf(ModuleRouteError.UnexpectedRouteResponse.class);
    }

    @Test
    void timeoutsKillTheProcess() {
        MetaConfig config = MetaConfig.builder().module(eventLine("slow", "slow_later").build()).discover("slow").build();
        UnifiedRuntime runtime = start(config, options().build());
        // the module answers its startup, then slowly: a routed call times out and its process tree is killed
        assertThat(routeError(runtime, "slow", "x", Duration.ofMillis(700))).isEqualTo(new ModuleRouteError.ModuleRuntime(
                new RuntimeBoundaryError.Process(new ProcessBoundaryError.Timeout(700))));
        Fixtures.assertAllGone(pidfile());
        MetaConfig slowConfig = MetaConfig.builder().module(eventLine("slow", "slow").build()).discover("slow").build();
        assertThatThrownBy(() -> UnifiedRuntime.runDiscoveredModuleOnce(slowConfig, "slow", Duration.ofMillis(700)))
                .isInstanceOf(RuntimeFromConfigException.class)
                .satisfies(e -> assertThat(((RuntimeFromConfigException) e).error()).isEqualTo(
                        new RuntimeFromConfigError.Runtime(new RuntimeBoundaryError.Process(
                                new ProcessBoundaryError.Timeout(700)))));
        assertThat(runtime.loadedModules()).containsExactly("slow");
        Fixtures.assertAllGone(pidfile());
    }

    @Test
    void emptyOutputStopsANeverModuleWithAWarningCarryingExitCodeAndStderr() {
        MetaConfig config = MetaConfig.builder()
                .module(eventLine("mute", "empty").restartPolicy(RestartPolicy.NEVER).build())
                .module(eventLine("ok", "ok").build())
                .discover("mute", "ok").build();
        UnifiedRuntime runtime = start(config, options().build());
        assertThat(runtime.loadedModules()).containsExactly("ok");
        assertThat(untimed(runtime)).startsWith(t("mute", null, STARTING, 0),
                t("mute", STARTING, FAILED, 1), t("mute", FAILED, STOPPED, 1), t("ok", null, STARTING, 0));
        JsonNode warning = payloads(runtime, "mute", "supervisor.warning").get(0);
        assertThat(warning.get("error_type").asText()).isEqualTo("process.empty_output");
        assertThat(warning.get("exit_code").asInt()).isEqualTo(3);
        assertThat(warning.get("stderr_tail").asText()).contains("nothing to say");
        assertThat(warning.get("error").asText()).contains("'mute'");
    }

    @Test
    void onFailureRetriesThenKeepsTheHealthyChild() {
        MetaConfig config = MetaConfig.builder()
                .module(eventLine("flaky", "fail_first").env("FIXTURE_FAILURES", "2").build())
                .discover("flaky").build();
        UnifiedRuntime runtime = start(config, options().onFailureRetryBudget(2).build());
        assertThat(of(runtime, "flaky")).containsExactly(t("flaky", null, STARTING, 0), t("flaky", STARTING, FAILED, 1),
                t("flaky", FAILED, RESTARTING, 1), t("flaky", RESTARTING, FAILED, 2), t("flaky", FAILED, RESTARTING, 2),
                t("flaky", RESTARTING, HEALTHY, 3));
        assertThat(Fixtures.pids(pidfile())).hasSize(3);
    }

    @Test
    void aKeptEventLineChildThatCrashesIsRestarted() {
        MetaConfig config = MetaConfig.builder().module(eventLine("crashy", "crash_later").build())
                .discover("crashy").build();
        UnifiedRuntime runtime = start(config, options().maxRestarts(1).supervisionBackoff(Duration.ZERO)
                .supervisionJitter(0).build());
        await().atMost(20, TimeUnit.SECONDS).untilAsserted(() -> assertThat(of(runtime, "crashy")).contains(
                t("crashy", HEALTHY, FAILED, 2), t("crashy", FAILED, RESTARTING, 2), t("crashy", RESTARTING, HEALTHY, 3)));
        JsonNode warning = payloads(runtime, "crashy", "supervisor.warning").get(0);
        assertThat(warning.get("exit_code").asInt()).isEqualTo(7);
        assertThat(warning.get("stderr_tail").asText()).contains("crashing");
        // the second crash exceeds the intensity (1 restart): the module is stopped and calls fail fast
        await().atMost(20, TimeUnit.SECONDS).untilAsserted(() ->
                assertThat(runtime.supervisorReport().get("crashy").state()).isEqualTo(STOPPED));
        assertThat(routeError(runtime, "crashy", "x", T))
                .isEqualTo(new ModuleRouteError.ModuleUnavailable("crashy", STOPPED));
    }

    @Test
    void mcpModulePersistentSession() throws Exception {
        MetaConfig config = MetaConfig.builder().module(mcp("tools").build()).discover("tools")
                .preSpawn(PreSpawnData.mcp("tools")).build();
        UnifiedRuntime runtime = start(config, options().supervisionBackoff(Duration.ZERO).supervisionJitter(0).build());
        assertThat(payloads(runtime, "tools", "mcp.ready").get(0))
                .isEqualTo(MAPPER.readTree("{\"tools\":[\"add\",\"add_tool_silently\",\"ask_client\",\"cancelled\",\"change_tools\","
                        + "\"crash\",\"echo\",\"echo_arguments\",\"error\",\"garbage\",\"hang\",\"json_text\",\"large\","
                        + "\"mixed\",\"multi_text\",\"notify\",\"progress\",\"slow\",\"structured\",\"unicode\",\"whoami\"]}"));
        assertThat(runtime.mergedEvents().stream().filter(e -> e.eventId().startsWith("evt-mcp-ready-tools-"))).hasSize(1);

        JsonNode echoed = runtime.routeModuleCall(new ModuleRouteRequest("tools", "echo_arguments",
                MAPPER.readTree("{\"text\":\"héllo 🌍\"}")), T).payload();
        assertThat(echoed.get("text").asText()).isEqualTo("héllo 🌍");
        assertThat(runtime.routeModuleCall(new ModuleRouteRequest("tools", "add",
                MAPPER.readTree("{\"a\":2,\"b\":3}")), T).payload().asInt()).isEqualTo(5);

        List<CompletableFuture<ModuleRouteResponse>> calls = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            calls.add(runtime.routeModuleCallAsync(new ModuleRouteRequest("tools", "echo_arguments",
                    MAPPER.createObjectNode().put("i", i)), T));
        }
        for (int i = 0; i < 20; i++) {
            assertThat(calls.get(i).get(20, TimeUnit.SECONDS).payload().get("i").asInt()).isEqualTo(i);
        }
        assertThat(Fixtures.pids(pidfile())).hasSize(1);

        assertThat(routeError(runtime, "tools", "nope", T)).isInstanceOf(ModuleRouteError.ModuleRuntime.class)
                .extracting(e -> ((RuntimeBoundaryError.Mcp) ((ModuleRouteError.ModuleRuntime) e).error()).error())
                .isInstanceOf(McpBoundaryError.ToolNotFound.class);
        assertThat(routeError(runtime, "tools", "error", T)).isInstanceOfSatisfying(ModuleRouteError.ModuleRuntime.class,
                e -> assertThat(((McpBoundaryError.ToolReturnedError) ((RuntimeBoundaryError.Mcp) e.error()).error()).text())
                        .isEqualTo("tool failed on purpose"));
        assertThat(routeError(runtime, "tools", "slow", Duration.ofMillis(300))).isEqualTo(
                new ModuleRouteError.ModuleRuntime(new RuntimeBoundaryError.Mcp(
                        new McpBoundaryError.Timeout("tools", "call_tool:slow", 300))));

        // the server dies mid-call: the call fails at once, the supervisor restarts the server
        ModuleRouteError crashed = routeError(runtime, "tools", "crash", T);
        assertThat(crashed).isInstanceOf(ModuleRouteError.ModuleRuntime.class);
        await().atMost(20, TimeUnit.SECONDS).untilAsserted(() -> assertThat(of(runtime, "tools")).endsWith(
                t("tools", HEALTHY, FAILED, 2), t("tools", FAILED, RESTARTING, 2), t("tools", RESTARTING, HEALTHY, 3)));
        assertThat(payloads(runtime, "tools", "supervisor.warning").get(0).get("exit_code").asInt()).isEqualTo(3);
        assertThat(runtime.routeModuleCall(new ModuleRouteRequest("tools", "add",
                MAPPER.readTree("{\"a\":1,\"b\":1}")), T).payload().asInt()).isEqualTo(2);
        assertThat(Fixtures.pids(pidfile())).hasSize(2);
        assertThat(runtime.supervisorReport().get("tools").pid()).hasValue(Fixtures.pids(pidfile()).get(1));
    }

    @Test
    void mcpPerCallSpawnsAServerForEveryCall() {
        MetaConfig config = MetaConfig.builder()
                .module(mcp("tools").mcpSessionMode(McpSessionMode.PER_CALL).build()).discover("tools")
                .preSpawn(PreSpawnData.mcp("tools")).build();
        UnifiedRuntime runtime = start(config, options().build());
        assertThat(payloads(runtime, "tools", "mcp.ready")).hasSize(1);
        runtime.routeModuleCall(new ModuleRouteRequest("tools", "echo", MAPPER.createObjectNode()), T);
        runtime.routeModuleCall(new ModuleRouteRequest("tools", "echo", MAPPER.createObjectNode()), T);
        assertThat(Fixtures.pids(pidfile())).hasSize(3);
        Fixtures.assertAllGone(pidfile());
        assertThat(of(runtime, "tools")).containsExactly(t("tools", null, STARTING, 0), t("tools", STARTING, HEALTHY, 1));
        assertThat(runtime.supervisorReport().get("tools").pid()).isEmpty();
    }

    @Test
    void anMcpServerConfiguredWithoutTheMarkerIsToldHowToMarkIt() {
        MetaConfig unmarked = MetaConfig.builder().module(mcp("tools").restartPolicy(RestartPolicy.NEVER)
                .env("META_MODULE_BOUNDARY", "mcp").build()).build();
        assertThatThrownBy(() -> UnifiedRuntime.runDiscoveredModuleOnce(MetaConfig.builder()
                .module(unmarked.modules().get(0)).discover("tools").build(), "tools", T))
                .isInstanceOf(RuntimeFromConfigException.class)
                .hasMessageContaining("MetaConfig.Builder.mcp(module)");
        MetaConfig marked = MetaConfig.builder().mcp(mcp("tools").build()).discover("tools").build();
        UnifiedRuntime runtime = start(marked, options().build());
        assertThat(runtime.routeModuleCall(new ModuleRouteRequest("tools", "add",
                MAPPER.createObjectNode().put("a", 1).put("b", 2)), T).payload().asInt()).isEqualTo(3);
    }

    @Test
    void coreModuleWithoutTheMarkerIsRefusedAndTheMarkerOnlyCountsInPreSpawn() {
        MetaConfig config = MetaConfig.builder()
                .module(eventLine("router", "ok").env("META_MODULE_BOUNDARY", "mcp").build())
                .discover("router").build();
        UnifiedRuntime runtime = start(config, options().build());
        assertThat(runtime.loadedModules()).containsExactly("router");
        assertThat(routeError(runtime, "router", "router.echo", T)).isEqualTo(new ModuleRouteError.ModuleRuntime(
                new RuntimeBoundaryError.Mcp(new McpBoundaryError.McpRequired("router", "router.echo"))));
        // the module's own env passes the variable through like any other
        assertThat(payloads(runtime, "router", "ready").get(0).get("env").get("META_MODULE_BOUNDARY").asText())
                .isEqualTo("mcp");
    }

    @Test
    void runDiscoveredModuleOnceAppliesThePreSpawnEnvironment() {
        MetaConfig config = MetaConfig.builder()
                .module(eventLine("once", "ok").env("MODULE_SHARED", "module").build())
                .module(eventLine("hidden", "ok").build())
                .discover("once")
                .preSpawn(PreSpawnData.of("once", Map.of("MODULE_SHARED", "prespawn", "META_MODULE_BOUNDARY", "mcp")))
                .build();
        EventEnvelope<UnifiedEvent> event = UnifiedRuntime.runDiscoveredModuleOnce(config, "once", T);
        JsonNode payload = ((UnifiedEvent.Module) event.event()).event().payload();
        assertThat(payload.get("env").get("MODULE_SHARED").asText()).isEqualTo("prespawn");
        assertThat(payload.get("env").get("META_MODULE_BOUNDARY").asText()).isEqualTo("mcp");

        assertThatThrownBy(() -> UnifiedRuntime.runDiscoveredModuleOnce(config, "ghost", T))
                .satisfies(e -> assertThat(((RuntimeFromConfigException) e).error()).isEqualTo(
                        new RuntimeFromConfigError.Config(new ConfigResolutionError.ModuleNotConfigured("ghost"))));
        assertThatThrownBy(() -> UnifiedRuntime.runDiscoveredModuleOnce(config, "hidden", T))
                .satisfies(e -> assertThat(((RuntimeFromConfigException) e).error()).isEqualTo(
                        new RuntimeFromConfigError.Config(new ConfigResolutionError.ModuleNotDiscovered("hidden"))));
        MetaConfig mute = MetaConfig.builder().module(eventLine("mute", "empty").build()).discover("mute").build();
        assertThatThrownBy(() -> UnifiedRuntime.runDiscoveredModuleOnce(mute, "mute", T))
                .isInstanceOfSatisfying(RuntimeFromConfigException.class, e -> {
                    assertThat(e.error()).isEqualTo(new RuntimeFromConfigError.Runtime(
                            new RuntimeBoundaryError.Process(new ProcessBoundaryError.EmptyOutput())));
                    assertThat(e.exitCode()).hasValue(3);
                    assertThat(e.getMessage()).contains("'mute'").contains("exit code 3").contains("nothing to say");
                });
        MetaConfig garbage = MetaConfig.builder().module(eventLine("g", "garbage").build()).discover("g").build();
        assertThatThrownBy(() -> UnifiedRuntime.runDiscoveredModuleOnce(garbage, "g", T))
                .satisfies(e -> assertThat(((RuntimeFromConfigException) e).error()).isEqualTo(
                        new RuntimeFromConfigError.Runtime(new RuntimeBoundaryError.Normalize(
                                new NormalizationError.InvalidJson()))));
        MetaConfig missing = MetaConfig.builder()
                .module(ModuleConfig.builder("m").command(dir.resolve("no-such-program").toString()).build())
                .discover("m").build();
        assertThatThrownBy(() -> UnifiedRuntime.runDiscoveredModuleOnce(missing, "m", T))
                .satisfies(e -> assertThat(((RuntimeFromConfigException) e).error())
                        .isInstanceOfSatisfying(RuntimeFromConfigError.Runtime.class, r -> assertThat(
                                ((RuntimeBoundaryError.Process) r.error()).error())
                                .isInstanceOf(ProcessBoundaryError.SpawnFailed.class)));
    }

    @Test
    void spawnMemberStartsAConfiguredModuleLater() {
        MetaConfig config = MetaConfig.builder().module(eventLine("late", "stay").build())
                .module(mcp("tools").build()).preSpawn(PreSpawnData.mcp("tools")).build();
        UnifiedRuntime runtime = start(config, options().build());
        assertThat(runtime.loadedModules()).isEmpty();
        EventEnvelope<UnifiedEvent> first = runtime.spawnMember("late", T);
        assertThat(((UnifiedEvent.Module) first.event()).event().module()).isEqualTo("late");
        EventEnvelope<UnifiedEvent> ready = runtime.spawnMember("tools", T);
        assertThat(((UnifiedEvent.Module) ready.event()).event().eventType()).isEqualTo("mcp.ready");
        assertThat(runtime.loadedModules()).containsExactly("late", "tools");
        EventEnvelope<UnifiedEvent> again = runtime.spawnMember("late", T);
        assertThat(again.eventId()).isNotEqualTo(first.eventId());
        List<Long> pids = Fixtures.pids(pidfile());
        assertThat(pids).hasSize(3);
        // the old child of 'late' was stopped before the new one started
        assertThat(ProcessHandle.of(pids.get(0)).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    }

    @Test
    void allowListEnvironmentHidesTheHostVariables() {
        MetaConfig config = MetaConfig.builder().module(eventLine("env", "ok").build()).discover("env").build();
        UnifiedRuntime runtime = start(config, options().inheritEnv(false).passThroughEnv(Set.of("PATH")).build());
        JsonNode env = payloads(runtime, "env", "ready").get(0).get("env");
        assertThat(env.has("PATH")).isTrue();
        assertThat(env.has("HOME")).isFalse();
    }

    @Test
    void runtimeEnvironmentReachesEveryModuleUnderItsOwnEnvironment() {
        MetaConfig config = MetaConfig.builder()
                .module(eventLine("env", "ok").env("MODULE_SHARED", "module").build()).discover("env").build();
        UnifiedRuntime runtime = start(config, options().inheritEnv(false).passThroughEnv(Set.of("PATH"))
                .processEnv(Map.of("MODULE_RUN_TAG", "run-7", "MODULE_SHARED", "runtime")).build());
        JsonNode env = payloads(runtime, "env", "ready").get(0).get("env");
        assertThat(env.path("MODULE_RUN_TAG").asText()).isEqualTo("run-7");
        assertThat(env.path("MODULE_SHARED").asText()).isEqualTo("module");
    }

    @Test
    void shutdownStopsKeptChildrenAndTheirDescendants() throws Exception {
        MetaConfig config = MetaConfig.builder()
                .module(eventLine("stay", "stay").build())
                .module(ModuleConfig.builder("tree").command("sh", Fixtures.script("tree_module.sh").toString())
                        .env("FIXTURE_PIDFILE", pidfile().toString()).build())
                .module(mcp("tools").build())
                .discover("tree", "stay", "tools").preSpawn(PreSpawnData.mcp("tools")).build();
        Fixtures.python();
        UnifiedRuntime runtime = start(config, options().build());
        List<StoreNotification> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        Subscription subscription = runtime.subscribe(seen::add);
        assertThat(runtime.loadedModules()).containsExactly("tree", "stay", "tools");
        assertThat(Fixtures.pids(pidfile())).hasSize(4);
        assertThat(Fixtures.pids(pidfile())).allSatisfy(pid -> assertThat(ProcessHandle.of(pid)).isPresent());

        RuntimeShutdownReport report = runtime.shutdown();
        assertThat(report).isEqualTo(new RuntimeShutdownReport(List.of("stay", "tools", "tree"), 0));
        runtime.close();
        assertThat(runtime.shutdown()).isSameAs(report);
        Fixtures.assertAllGone(pidfile());
        assertThat(seen.get(0)).isInstanceOf(StoreNotification.ResyncRequired.class);
        subscription.close();
    }
}
