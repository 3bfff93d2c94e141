package org.metaruntime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.metaruntime.supervisor.ModuleHealthState.HEALTHY;
import static org.metaruntime.supervisor.ModuleHealthState.STARTING;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.Subscription;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.supervisor.ModuleHealthTransition;
import org.metaruntime.supervisor.ProcessBoundaryError;
import org.metaruntime.supervisor.internal.Failures;
import org.metaruntime.supervisor.internal.manual.ManualScheduler;
import org.metaruntime.testing.FixtureScripts;
import org.metaruntime.testing.LeakCheck;

/** Calls as handles, health as a stream, lazy modules and membership, with real child processes. */
@Timeout(90)
class CallsTest {

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

    /** The MCP fixture with {@code switches}, tagged with this test's directory so the process table can be searched for it. */
    private ModuleConfig.Builder mcp(String id, String... switches) {
        List<String> arguments = new ArrayList<>(List.of(dir.toString(), "--pid-file", pidfile().toString()));
        arguments.addAll(List.of(switches));
        return ModuleConfig.builder(id).command(FixtureScripts.mcpServerCommand(arguments.toArray(String[]::new)));
    }

    private UnifiedRuntime start(MetaConfig config) {
        return start(UnifiedRuntime.builder(config));
    }

    private UnifiedRuntime start(UnifiedRuntime.Builder builder) {
        UnifiedRuntime runtime = builder.options(RuntimeOptions.builder().startupTimeout(T).shutdownHook(false)
                .stopStdinGrace(Duration.ofMillis(500)).stopTermGrace(Duration.ofMillis(500)).build()).start();
        runtimes.add(runtime);
        return runtime;
    }

    private static ModuleRouteRequest request(String id, String method) {
        return new ModuleRouteRequest(id, method, MAPPER.createObjectNode());
    }

    private static ModuleRouteError failure(ModuleCall call) {
        try {
            call.response().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(ModuleRouteException.class);
            return ((ModuleRouteException) e.getCause()).error();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("the call succeeded");
    }

    private static List<ModuleHealthTransition> untimed(List<ModuleHealthTransition> transitions, String id) {
        return transitions.stream().filter(t -> t.moduleId().equals(id))
                .map(t -> new ModuleHealthTransition(t.moduleId(), t.from(), t.to(), t.attempt()))
                .collect(Collectors.toList());
    }

    private static ModuleHealthTransition t(String id, ModuleHealthState from, ModuleHealthState to, int attempt) {
        return new ModuleHealthTransition(id, from, to, attempt);
    }

    /** The live processes whose command line carries this test's directory. */
    private List<ProcessHandle> processesOfThisTest() {
        String tag = dir.toString();
        return ProcessHandle.allProcesses().filter(ProcessHandle::isAlive)
                .filter(p -> p.info().arguments().map(args -> List.of(args).contains(tag)).orElse(false))
                .collect(Collectors.toList());
    }

    @Test
    void cancellingAnEventLineCallStopsItsProcessTreeAndFailsItAtOnce() {
        MetaConfig config = MetaConfig.builder().module(eventLine("slow", "slow_later").build()).discover("slow").build();
        UnifiedRuntime runtime = start(config);
        ModuleCall call = runtime.call(request("slow", "anything"), CallOptions.timeout(T));
        assertThat(call.request()).isEqualTo(request("slow", "anything"));
        await().atMost(20, TimeUnit.SECONDS).until(() -> Fixtures.pids(pidfile()).size() == 2);
        call.cancel();
        call.cancel();
        assertThat(failure(call)).isEqualTo(new ModuleRouteError.ModuleRuntime(
                new RuntimeBoundaryError.Process(new ProcessBoundaryError.Cancelled())));
        Fixtures.assertAllGone(pidfile());
        assertThat(runtime.loadedModules()).containsExactly("slow");
    }

    @Test
    void cancellingTheResponseFutureHasTheSameEffect() {
        MetaConfig config = MetaConfig.builder().module(eventLine("slow", "slow_later").build()).discover("slow").build();
        UnifiedRuntime runtime = start(config);
        ModuleCall call = runtime.call(request("slow", "anything"), CallOptions.timeout(T));
        await().atMost(20, TimeUnit.SECONDS).until(() -> Fixtures.pids(pidfile()).size() == 2);
        assertThat(call.response().cancel(true)).isTrue();
        assertThatThrownBy(() -> call.response().join()).isInstanceOf(CancellationException.class);
        Fixtures.assertAllGone(pidfile());
    }

    @Test
    void aCompletedCallIgnoresCancelAndRoutingErrorsArriveThroughTheResponse() throws Exception {
        MetaConfig config = MetaConfig.builder().module(eventLine("ok", "ok").build()).discover("ok").build();
        UnifiedRuntime runtime = start(config);
        ModuleCall call = runtime.call(request("ok", "anything"), CallOptions.defaults());
        ModuleRouteResponse response = call.response().get(30, TimeUnit.SECONDS);
        call.cancel();
        assertThat(call.response().join()).isEqualTo(response);
        assertThat(response.payload().get("run").asInt()).isEqualTo(2);

        ModuleCall unknown = runtime.call(request("nobody", "x"), CallOptions.defaults());
        assertThat(failure(unknown)).isInstanceOf(ModuleRouteError.UnloadedModule.class);
        unknown.cancel();
        assertThatThrownBy(() -> CallOptions.builder().timeout(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }

    /** A runtime of one lazy MCP module, {@code tools}, stopped after 5 idle minutes on {@code scheduler}. */
    private UnifiedRuntime startLazyTools(ManualScheduler scheduler) {
        MetaConfig config = MetaConfig.builder()
                .module(mcp("tools").startMode(StartMode.LAZY).idleTimeout(Duration.ofMinutes(5)).build())
                .discover("tools").preSpawn(PreSpawnData.mcp("tools")).build();
        return start(UnifiedRuntime.builder(config).scheduler(scheduler));
    }

    @Test
    void aLazyModuleStartsAtItsFirstCallOnceForConcurrentCallsStopsWhenIdleAndStartsAgain() throws Exception {
        ManualScheduler scheduler = new ManualScheduler();
        UnifiedRuntime runtime = startLazyTools(scheduler);
        assertThat(runtime.loadedModules()).containsExactly("tools");
        assertThat(processesOfThisTest()).isEmpty();
        assertThat(runtime.moduleHealthTransitions()).isEmpty();
        List<ModuleHealthTransition> seen = new CopyOnWriteArrayList<>();
        Subscription health = runtime.subscribeHealth(seen::add);

        List<ModuleCall> first = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            first.add(runtime.call(new ModuleRouteRequest("tools", "echo_arguments", MAPPER.createObjectNode().put("i", i)),
                    CallOptions.timeout(T)));
        }
        for (int i = 0; i < 8; i++) {
            assertThat(first.get(i).response().get(30, TimeUnit.SECONDS).payload().get("i").asInt()).isEqualTo(i);
        }
        assertThat(Fixtures.pids(pidfile())).hasSize(1);
        assertThat(processesOfThisTest()).hasSize(1);
        List<ModuleHealthTransition> block = List.of(t("tools", null, STARTING, 0), t("tools", STARTING, HEALTHY, 1));
        assertThat(untimed(runtime.moduleHealthTransitions(), "tools")).isEqualTo(block);
        await().atMost(10, TimeUnit.SECONDS).until(() -> seen.size() == 2);
        assertThat(untimed(seen, "tools")).isEqualTo(block);
        assertThat(readyEvents(runtime)).hasSize(1);

        // no call in flight: the idle timer fires and the child is stopped, with no transition and no event
        await().atMost(10, TimeUnit.SECONDS).until(() -> scheduler.pendingCount() == 1);
        assertThat(scheduler.requestedDelays()).contains(Duration.ofMinutes(5));
        int events = runtime.mergedEvents().size();
        scheduler.runPending();
        Fixtures.assertAllGone(pidfile());
        assertThat(runtime.loadedModules()).containsExactly("tools");
        assertThat(runtime.moduleHealthTransitions()).hasSize(2);
        assertThat(runtime.mergedEvents()).hasSize(events);

        // the next call starts it again: a new block and a new mcp.ready
        assertThat(runtime.routeModuleCall(request("tools", "echo"), T).moduleId()).isEqualTo("tools");
        assertThat(Fixtures.pids(pidfile())).hasSize(2);
        assertThat(untimed(runtime.moduleHealthTransitions(), "tools"))
                .isEqualTo(List.of(block.get(0), block.get(1), block.get(0), block.get(1)));
        assertThat(readyEvents(runtime)).hasSize(2);
        health.close();
    }

    @Test
    void sequentialCallsToALazyModuleKeepOneIdleTaskAndTheChildStopsAnIdleTimeoutAfterTheLastCall() throws Exception {
        ManualScheduler scheduler = new ManualScheduler();
        UnifiedRuntime runtime = startLazyTools(scheduler);
        for (int i = 0; i < 20; i++) {
            assertThat(runtime.routeModuleCall(request("tools", "echo"), T).moduleId()).isEqualTo("tools");
        }
        // one idle task for the twenty calls, not one per call
        await().atMost(10, TimeUnit.SECONDS).until(() -> scheduler.pendingCount() == 1);
        assertThat(scheduler.pendingDelay()).isEqualTo(Duration.ofMinutes(5));

        scheduler.advance(Duration.ofMinutes(3));
        ModuleCall call = runtime.call(request("tools", "echo"), CallOptions.timeout(T));
        call.response().get(30, TimeUnit.SECONDS);
        call.finished().get(30, TimeUnit.SECONDS); // the module is idle from here
        assertThat(scheduler.pendingCount()).isEqualTo(1);
        // the task runs 2 minutes after that call: idle for only 2 of the 5 minutes, it waits the 3 left
        scheduler.advance(Duration.ofMinutes(2));
        await().atMost(10, TimeUnit.SECONDS).until(() -> scheduler.pendingCount() == 1);
        assertThat(scheduler.pendingDelay()).isEqualTo(Duration.ofMinutes(3));
        assertThat(processesOfThisTest()).hasSize(1);

        scheduler.advance(Duration.ofMinutes(3));
        Fixtures.assertAllGone(pidfile());
        assertThat(scheduler.pendingCount()).isZero();
        assertThat(Fixtures.pids(pidfile())).hasSize(1);
    }

    @Test
    void toolsAsyncStartsALazyModuleWithoutBlockingTheCaller() throws Exception {
        MetaConfig config = MetaConfig.builder()
                .module(mcp("tools").startMode(StartMode.LAZY).build())
                .module(mcp("hanging", "--hang-at", "initialize").startMode(StartMode.LAZY)
                        .startupTimeout(Duration.ofSeconds(10)).build())
                .module(mcp("refusing", "--fail-at", "initialize").startMode(StartMode.LAZY).build())
                .discover("tools", "hanging", "refusing").preSpawn(PreSpawnData.mcp("tools"))
                .preSpawn(PreSpawnData.mcp("hanging")).preSpawn(PreSpawnData.mcp("refusing")).build();
        UnifiedRuntime runtime = start(config);

        CompletableFuture<List<McpSchema.Tool>> hanging = runtime.mcp("hanging").toolsAsync();
        assertThat(hanging).as("the start goes on off the caller's thread").isNotDone();
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30))
                .until(() -> runtime.supervisorReport().get("hanging").state() == STARTING);

        List<McpSchema.Tool> tools = runtime.mcp("tools").toolsAsync().get(30, TimeUnit.SECONDS);
        assertThat(tools).extracting(McpSchema.Tool::name).isEqualTo(runtime.mcp("tools").tools().stream()
                .map(McpSchema.Tool::name).toList()).contains("echo");
        assertThat(runtime.supervisorReport().get("tools").state()).isEqualTo(HEALTHY);

        Throwable refused = runtime.mcp("refusing").toolsAsync().handle((value, error) -> error).get(30, TimeUnit.SECONDS);
        assertThat(Failures.unwrap(refused)).isInstanceOf(ModuleRouteException.class);
        assertThat(((ModuleRouteException) Failures.unwrap(refused)).error()).isInstanceOf(ModuleRouteError.ModuleRuntime.class);
        Throwable timedOut = hanging.handle((value, error) -> error).get(60, TimeUnit.SECONDS);
        assertThat(Failures.unwrap(timedOut)).as("its startup timed out").isInstanceOf(ModuleRouteException.class);
    }

    @Test
    void toolsAsyncAskedOnToolsListChangedGivesTheChangedList() throws Exception {
        MetaConfig config = MetaConfig.builder().module(mcp("tools").startMode(StartMode.LAZY).build())
                .discover("tools").preSpawn(PreSpawnData.mcp("tools")).build();
        McpModule module = start(config).mcp("tools");
        CompletableFuture<List<McpSchema.Tool>> announced = new CompletableFuture<>();
        try (Subscription changes = module.subscribeNotifications(n -> {
            if (McpSchema.METHOD_NOTIFICATION_TOOLS_LIST_CHANGED.equals(n.method())) {
                module.toolsAsync().whenComplete((tools, error) -> {
                    if (error != null) {
                        announced.completeExceptionally(error);
                    } else {
                        announced.complete(tools);
                    }
                });
            }
        })) {
            module.callTool("change_tools", MAPPER.readTree("{\"name\": \"announced_tool\"}"));
            assertThat(announced.get(30, TimeUnit.SECONDS)).extracting(McpSchema.Tool::name).endsWith("announced_tool");
        }
    }

    @Test
    void closingTheRuntimeDuringALazyStartEndsTheStartingModule() throws Exception {
        MetaConfig config = MetaConfig.builder()
                .module(mcp("hanging", "--hang-at", "initialize").startMode(StartMode.LAZY)
                        .startupTimeout(Duration.ofSeconds(120)).build())
                .discover("hanging").preSpawn(PreSpawnData.mcp("hanging")).build();
        UnifiedRuntime runtime = start(config);
        CompletableFuture<List<McpSchema.Tool>> hanging = runtime.mcp("hanging").toolsAsync();
        Path pids = dir.resolve("pids");
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30))
                .until(() -> Files.exists(pids) && Files.size(pids) > 0);   // spawned, and waiting in initialize
        runtime.close();   // the leak check after the test finds the process if close() left it
        assertThat(hanging.handle((value, error) -> error).get(30, TimeUnit.SECONDS)).isNotNull();
    }

    @Test
    void aFailedLazyStartupFailsTheCallsThatShareIt() {
        MetaConfig config = MetaConfig.builder()
                .module(ModuleConfig.builder("broken").command(Fixtures.python(), "-c", "import sys; sys.exit(4)")
                        .restartPolicy(org.metaruntime.supervisor.RestartPolicy.NEVER).startMode(StartMode.LAZY).build())
                .discover("broken").build();
        UnifiedRuntime runtime = start(config);
        ModuleCall a = runtime.call(request("broken", "x"), CallOptions.timeout(T));
        ModuleCall b = runtime.call(request("broken", "x"), CallOptions.timeout(T));
        assertThat(failure(a)).isEqualTo(new ModuleRouteError.ModuleRuntime(
                new RuntimeBoundaryError.Process(new ProcessBoundaryError.EmptyOutput())));
        assertThat(failure(b)).isEqualTo(failure(a));
        assertThat(runtime.loadedModules()).containsExactly("broken");
    }

    @Test
    void theSupervisorReportListsLazyModulesWithoutAChildWithTheirStateAndLastError() {
        MetaConfig config = MetaConfig.builder()
                .module(mcp("idle").startMode(StartMode.LAZY).build())
                .module(mcp("refusing", "--fail-at", "initialize").startMode(StartMode.LAZY).build())
                .module(mcp("later").startMode(StartMode.LAZY).build())
                .discover("idle", "refusing").preSpawn(PreSpawnData.mcp("idle")).preSpawn(PreSpawnData.mcp("refusing"))
                .preSpawn(PreSpawnData.mcp("later")).build();
        UnifiedRuntime runtime = start(config);
        assertThat(runtime.supervisorReport()).containsOnlyKeys("idle", "refusing");
        org.metaruntime.supervisor.ModuleSupervisorReport idle = runtime.supervisorReport().get("idle");
        assertThat(idle.state()).isEqualTo(ModuleHealthState.STOPPED);
        assertThat(idle.attempt()).isZero();
        assertThat(idle.pid()).isEmpty();
        assertThat(idle.lastError()).isNull();

        for (int i = 0; i < 2; i++) {
            assertThat(failure(runtime.call(request("refusing", "echo"), CallOptions.timeout(T))))
                    .isInstanceOf(ModuleRouteError.ModuleRuntime.class);
            org.metaruntime.supervisor.ModuleSupervisorReport refusing = runtime.supervisorReport().get("refusing");
            assertThat(refusing.state()).isEqualTo(ModuleHealthState.STOPPED);
            assertThat(refusing.pid()).isEmpty();
            assertThat(refusing.lastError()).contains("refusing").contains("failing initialize on purpose");
        }

        assertThat(runtime.reconcileModules(List.of("idle", "refusing", "later"), T)).isEqualTo(1);
        assertThat(runtime.supervisorReport()).containsOnlyKeys("idle", "refusing", "later");
        assertThat(runtime.supervisorReport().get("later").state()).isEqualTo(ModuleHealthState.STOPPED);
        assertThat(runtime.routeModuleCall(request("later", "echo"), T).moduleId()).isEqualTo("later");
        assertThat(runtime.supervisorReport().get("later").state()).isEqualTo(HEALTHY);
        assertThat(runtime.supervisorReport().get("later").pid()).isPresent();
    }

    @Test
    void aModuleListedTwiceIsAConfigErrorInReconcileAsInTheDiscovery() {
        MetaConfig twice = MetaConfig.builder().module(eventLine("a", "ok").build()).discover("a", "a").build();
        assertThatThrownBy(() -> start(twice)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("module 'a' is discovered twice")
                .satisfies(e -> assertThat(((ConfigException) e).field()).isEqualTo("discovery.modules[1]"));

        MetaConfig config = MetaConfig.builder().module(eventLine("a", "ok").build()).module(eventLine("b", "ok").build())
                .discover("a").build();
        UnifiedRuntime runtime = start(config);
        assertThat(Fixtures.pids(pidfile())).hasSize(1);
        assertThatThrownBy(() -> runtime.reconcileModules(List.of("b", "a", "b"), T))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("module 'b' is discovered twice")
                .satisfies(e -> assertThat(((ConfigException) e).field()).isEqualTo("discovery.modules[2]"));
        assertThat(runtime.discovery().modules()).containsExactly("a");
        assertThat(runtime.loadedModules()).containsExactly("a");
        assertThat(Fixtures.pids(pidfile())).hasSize(1);
    }

    @Test
    void reconcileNeverUnloadsAModuleLoadedBefore() {
        MetaConfig config = MetaConfig.builder().module(mcp("a").build()).module(eventLine("b", "ok").build())
                .discover("a").preSpawn(PreSpawnData.mcp("a")).build();
        UnifiedRuntime runtime = start(config);
        long pid = runtime.supervisorReport().get("a").pid().orElseThrow();
        assertThat(runtime.reconcileModules(List.of("b"), T)).isEqualTo(1);
        assertThat(runtime.discovery().modules()).containsExactly("b");
        assertThat(runtime.loadedModules()).contains("a", "b");
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).contains(true);
        assertThat(runtime.routeModuleCall(request("a", "echo"), T).moduleId()).isEqualTo("a");
        assertThat(runtime.supervisorReport().get("a").pid()).hasValue(pid);
    }

    @Test
    void anMcpModuleFollowsItsRestartPolicyAfterACrash() throws Exception {
        ManualScheduler scheduler = new ManualScheduler();
        MetaConfig config = MetaConfig.builder()
                .module(mcp("never").restartPolicy(org.metaruntime.supervisor.RestartPolicy.NEVER).build())
                .module(mcp("again").restartPolicy(org.metaruntime.supervisor.RestartPolicy.ON_FAILURE).build())
                .discover("never", "again").preSpawn(PreSpawnData.mcp("never")).preSpawn(PreSpawnData.mcp("again"))
                .build();
        UnifiedRuntime runtime = start(UnifiedRuntime.builder(config).scheduler(scheduler));
        runtime.call(request("never", "crash"), CallOptions.timeout(T)).response().handle((r, e) -> e).get(30, TimeUnit.SECONDS);
        await().atMost(20, TimeUnit.SECONDS).until(() -> untimed(runtime.moduleHealthTransitions(), "never").size() == 3);
        assertThat(untimed(runtime.moduleHealthTransitions(), "never")).endsWith(t("never", HEALTHY,
                ModuleHealthState.FAILED, 2));
        assertThat(scheduler.pendingCount()).isZero();
        assertThat(failure(runtime.call(request("never", "echo"), CallOptions.timeout(T))))
                .isEqualTo(new ModuleRouteError.ModuleUnavailable("never", ModuleHealthState.FAILED));

        runtime.call(request("again", "crash"), CallOptions.timeout(T)).response().handle((r, e) -> e).get(30, TimeUnit.SECONDS);
        await().atMost(20, TimeUnit.SECONDS).until(() -> scheduler.pendingCount() == 1);
        scheduler.runPending();
        await().atMost(20, TimeUnit.SECONDS).until(() -> untimed(runtime.moduleHealthTransitions(), "again")
                .contains(t("again", ModuleHealthState.RESTARTING, HEALTHY, 3)));
        assertThat(runtime.routeModuleCall(request("again", "echo"), T).moduleId()).isEqualTo("again");
    }

    @Test
    void aHugeTimeoutIsCappedAndASubMillisecondOneIsRoundedUp() {
        MetaConfig config = MetaConfig.builder().module(eventLine("ok", "ok").build())
                .module(eventLine("slow", "slow_later").build()).discover("ok", "slow").build();
        UnifiedRuntime runtime = start(config);
        assertThat(runtime.routeModuleCall(request("ok", "x"), Duration.ofDays(365_000)).moduleId()).isEqualTo("ok");
        assertThat(CallOptions.timeout(Duration.ofDays(365_000)).timeout()).contains(CallOptions.MAX_TIMEOUT);
        assertThatThrownBy(() -> runtime.routeModuleCall(request("slow", "x"), Duration.ofNanos(500_000)))
                .isInstanceOf(ModuleRouteException.class)
                .satisfies(e -> assertThat(((ModuleRouteException) e).isTimeout()).isTrue())
                .satisfies(e -> assertThat(((ModuleRouteException) e).processError())
                        .contains(new ProcessBoundaryError.Timeout(1)))
                .hasMessageNotContaining("0 ms");
    }

    private List<JsonNode> stdinLines() throws Exception {
        Path log = dir.resolve("stdin.log");
        if (!java.nio.file.Files.exists(log)) {
            return List.of();
        }
        List<JsonNode> lines = new ArrayList<>();
        for (String line : java.nio.file.Files.readAllLines(log)) {
            lines.add(MAPPER.readTree(line));
        }
        return lines;
    }

    private List<JsonNode> sent(String method) throws Exception {
        return stdinLines().stream().filter(m -> method.equals(m.path("method").asText())).collect(Collectors.toList());
    }

    @Test
    void cancellingAnMcpCallTellsTheServerFreesTheSlotAndAQueuedCallIsNeverSent() throws Exception {
        MetaConfig config = MetaConfig.builder()
                .mcp(mcp("tools", "--record", dir.resolve("stdin.log").toString()).maxInFlightCalls(1).build())
                .discover("tools").build();
        UnifiedRuntime runtime = start(config);
        ModuleCall slow = runtime.call(new ModuleRouteRequest("tools", "slow",
                MAPPER.createObjectNode().put("ms", 60_000)), CallOptions.timeout(T));
        await().atMost(20, TimeUnit.SECONDS).until(() -> sent("tools/call").size() == 1);
        ModuleCall queued = runtime.call(new ModuleRouteRequest("tools", "echo",
                MAPPER.createObjectNode().put("queued", true)), CallOptions.timeout(T));
        queued.cancel();
        assertThat(failure(queued)).isEqualTo(new ModuleRouteError.ModuleRuntime(
                new RuntimeBoundaryError.Mcp(new McpBoundaryError.Cancelled("tools", "echo"))));

        slow.cancel();
        assertThat(failure(slow)).isEqualTo(new ModuleRouteError.ModuleRuntime(
                new RuntimeBoundaryError.Mcp(new McpBoundaryError.Cancelled("tools", "slow"))));
        JsonNode callId = sent("tools/call").get(0).get("id");
        await().atMost(20, TimeUnit.SECONDS).until(() -> sent("notifications/cancelled").size() == 1);
        assertThat(sent("notifications/cancelled").get(0).at("/params/requestId")).isEqualTo(callId);

        // the slot is free at once: the next call is answered while the cancelled one would still sleep
        assertThat(runtime.routeModuleCall(new ModuleRouteRequest("tools", "add",
                MAPPER.createObjectNode().put("a", 1).put("b", 1)), T).payload().asInt()).isEqualTo(2);
        assertThat(sent("tools/call")).hasSize(2).noneMatch(m -> m.at("/params/arguments/queued").asBoolean());
    }

    @Test
    void progressReachesOnlyItsOwnCallInOrderBeforeTheResponse() throws Exception {
        MetaConfig config = MetaConfig.builder().mcp(mcp("tools").build()).discover("tools").build();
        UnifiedRuntime runtime = start(config);
        List<ProgressUpdate> first = new CopyOnWriteArrayList<>();
        List<ProgressUpdate> second = new CopyOnWriteArrayList<>();
        List<Integer> seenAtResponse = new CopyOnWriteArrayList<>();
        ModuleCall a = runtime.call(new ModuleRouteRequest("tools", "progress", MAPPER.createObjectNode().put("steps", 3)),
                CallOptions.builder().timeout(T).onProgress(first::add).build());
        ModuleCall b = runtime.call(new ModuleRouteRequest("tools", "progress", MAPPER.createObjectNode().put("steps", 5)),
                CallOptions.builder().timeout(T).onProgress(update -> {
                    second.add(update);
                    throw new IllegalStateException("a listener bug never fails the call");
                }).build());
        a.response().thenRun(() -> seenAtResponse.add(first.size()));
        assertThat(a.response().get(30, TimeUnit.SECONDS).payload()).isEqualTo(TextNode.valueOf("done 3"));
        assertThat(b.response().get(30, TimeUnit.SECONDS).payload()).isEqualTo(TextNode.valueOf("done 5"));
        assertThat(first).containsExactly(new ProgressUpdate(1, 3.0, "step 1"), new ProgressUpdate(2, 3.0, "step 2"),
                new ProgressUpdate(3, 3.0, "step 3"));
        assertThat(second).extracting(ProgressUpdate::progress).containsExactly(1.0, 2.0, 3.0, 4.0, 5.0);
        assertThat(seenAtResponse).containsExactly(3);
        // without a listener, no progress token is sent
        runtime.routeModuleCall(new ModuleRouteRequest("tools", "progress", MAPPER.createObjectNode()), T);
    }

    @Test
    void theWholeMcpSurfaceOfAModuleWithItsResultsAndNotificationsAcrossARestart() throws Exception {
        ManualScheduler scheduler = new ManualScheduler();
        MetaConfig config = MetaConfig.builder().mcp(mcp("tools").build()).module(eventLine("el", "ok").build())
                .discover("tools", "el").build();
        UnifiedRuntime runtime = start(UnifiedRuntime.builder(config).scheduler(scheduler));
        McpModule tools = runtime.mcp("tools");
        assertThat(tools.moduleId()).isEqualTo("tools");
        assertThat(tools.tools()).extracting(io.modelcontextprotocol.spec.McpSchema.Tool::name)
                .containsExactly("echo", "echo_arguments", "add", "whoami", "json_text", "structured", "multi_text",
                        "mixed", "error", "large", "slow", "hang", "crash", "garbage", "change_tools",
                        "add_tool_silently", "ask_client", "cancelled", "unicode", "progress", "notify");
        assertThat(tools.tools().get(0).inputSchema()).containsEntry("type", "object");

        io.modelcontextprotocol.spec.McpSchema.CallToolResult failed = tools.callTool("error", MAPPER.createObjectNode());
        assertThat(failed.isError()).isTrue();
        assertThat(((io.modelcontextprotocol.spec.McpSchema.TextContent) failed.content().get(0)).text())
                .isEqualTo("tool failed on purpose");
        io.modelcontextprotocol.spec.McpSchema.CallToolResult echoed = tools.callTool("echo_arguments",
                MAPPER.createObjectNode().put("n", 1), CallOptions.timeout(T));
        assertThat(echoed.structuredContent()).isEqualTo(java.util.Map.of("n", 1));
        com.fasterxml.jackson.databind.node.ObjectNode meta = MAPPER.createObjectNode().put("host/trace", "t-1");
        meta.putArray("host/chain").add("a.b");
        io.modelcontextprotocol.spec.McpSchema.CallToolResult withMeta = tools.callTool("echo_arguments",
                MAPPER.createObjectNode().put("with_meta", true), CallOptions.builder().timeout(T).meta(meta).build());
        assertThat(MAPPER.valueToTree(withMeta.structuredContent()).get("meta")).as("the call's _meta").isEqualTo(meta);
        CallOptions withProgress = CallOptions.builder().timeout(T).meta(meta).onProgress(update -> { }).build();
        for (int i = 0; i < 2; i++) {
            JsonNode sent = MAPPER.valueToTree(tools.callTool("echo_arguments",
                    MAPPER.createObjectNode().put("with_meta", true), withProgress).structuredContent()).get("meta");
            assertThat(sent.get("host/trace").asText()).isEqualTo("t-1");
            assertThat(sent.get("host/chain")).isEqualTo(meta.get("host/chain"));
            assertThat(sent.has("progressToken")).as("the call's own progress token").isTrue();
        }
        assertThat(withProgress.meta()).as("the options' entries, unchanged by the calls").contains(meta);
        assertThat(tools.startCall("add", MAPPER.createObjectNode().put("a", 2).put("b", 2), CallOptions.defaults())
                .result().get(30, TimeUnit.SECONDS).content()).hasSize(1);

        assertThatThrownBy(tools::listResources).isInstanceOf(ModuleRouteException.class)
                .satisfies(e -> assertThat(((ModuleRouteException) e).mcpError())
                        .hasValueSatisfying(error -> assertThat(error.code()).isEqualTo("mcp.json_rpc_error")));

        List<String> messages = new CopyOnWriteArrayList<>();
        Subscription notifications = tools.subscribeNotifications(n -> messages.add(n.method()));
        tools.callTool("notify", MAPPER.createObjectNode());
        await().atMost(20, TimeUnit.SECONDS).until(() -> messages.size() == 1);
        runtime.call(request("tools", "crash"), CallOptions.timeout(T)).response().handle((r, e) -> e).get(30, TimeUnit.SECONDS);
        await().atMost(20, TimeUnit.SECONDS).until(() -> scheduler.pendingCount() == 1);
        scheduler.runPending();
        await().atMost(20, TimeUnit.SECONDS).until(() -> untimed(runtime.moduleHealthTransitions(), "tools")
                .contains(t("tools", ModuleHealthState.RESTARTING, HEALTHY, 3)));
        tools.callTool("notify", MAPPER.createObjectNode());
        await().atMost(20, TimeUnit.SECONDS).until(() -> messages.size() == 2);
        assertThat(messages).containsOnly("notifications/message");
        notifications.close();

        assertThatThrownBy(() -> runtime.mcp("el")).isInstanceOf(ModuleRouteException.class)
                .extracting(e -> ((ModuleRouteException) e).error()).isEqualTo(new ModuleRouteError.ModuleRuntime(
                        new RuntimeBoundaryError.Mcp(new McpBoundaryError.McpRequired("el", "mcp"))));
        assertThatThrownBy(() -> runtime.mcp("nobody")).isInstanceOf(ModuleRouteException.class)
                .extracting(e -> ((ModuleRouteException) e).error())
                .isInstanceOf(ModuleRouteError.UnloadedModule.class);
    }

    @Test
    void mcpOfAnEventLineModuleSaysWhichModuleAndBoundaryItIs() {
        MetaConfig config = MetaConfig.builder().module(eventLine("weather", "ok").build()).discover("weather").build();
        UnifiedRuntime runtime = start(config);
        assertThatThrownBy(() -> runtime.mcp("weather")).isInstanceOf(ModuleRouteException.class)
                .hasMessageContaining("module 'weather' is an event-line module")
                .hasMessageContaining("UnifiedRuntime.mcp")
                .hasMessageNotContaining("core module")
                .extracting(e -> ((ModuleRouteException) e).error()).isEqualTo(new ModuleRouteError.ModuleRuntime(
                        new RuntimeBoundaryError.Mcp(new McpBoundaryError.McpRequired("weather", "mcp"))));
    }

    @Test
    void shutdownStopsTheServerOfAPerCallCallInFlightEvenOneThatIgnoresStdinAndSigterm() {
        MetaConfig config = MetaConfig.builder()
                .mcp(mcp("stubborn", "--ignore-sigterm", "--ignore-eof")
                        .mcpSessionMode(org.metaruntime.mcp.McpSessionMode.PER_CALL).build())
                .discover("stubborn").build();
        UnifiedRuntime runtime = start(config);
        await().atMost(20, TimeUnit.SECONDS).until(() -> processesOfThisTest().isEmpty());   // the probe's server
        ModuleCall call = runtime.call(new ModuleRouteRequest("stubborn", "slow",
                MAPPER.createObjectNode().put("ms", 60_000)), CallOptions.timeout(T));
        // the per-call server is running (its pid is written after the probe's) and holds the call
        await().atMost(20, TimeUnit.SECONDS).until(() -> Fixtures.pids(pidfile()).size() == 2
                && processesOfThisTest().size() == 1);
        RuntimeShutdownReport report = runtime.shutdown();
        assertThat(processesOfThisTest()).as("shutdown() returns once the per-call server is gone").isEmpty();
        assertThat(report.orphanProcesses()).isZero();
        assertThat(failure(call)).isEqualTo(new ModuleRouteError.ModuleRuntime(
                new RuntimeBoundaryError.Mcp(new McpBoundaryError.Cancelled("stubborn", "slow"))));
        Fixtures.assertAllGone(pidfile());
        assertThat(processesOfThisTest()).isEmpty();
    }

    private static List<EventEnvelope<?>> readyEvents(UnifiedRuntime runtime) {
        return runtime.mergedEvents().stream().filter(e -> e.eventId().startsWith("evt-mcp-ready-tools-"))
                .collect(Collectors.toList());
    }
}
