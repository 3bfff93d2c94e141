package org.metaruntime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;
import static org.metaruntime.supervisor.ModuleHealthState.FAILED;
import static org.metaruntime.supervisor.ModuleHealthState.HEALTHY;
import static org.metaruntime.supervisor.ModuleHealthState.RESTARTING;
import static org.metaruntime.supervisor.ModuleHealthState.STARTING;
import static org.metaruntime.supervisor.ModuleHealthState.STOPPED;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpProtocolEra;
import org.metaruntime.mcp.McpSessionMode;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.supervisor.RestartPolicy;
import org.metaruntime.supervisor.internal.manual.ManualScheduler;
import org.metaruntime.testing.FixtureScripts;
import org.metaruntime.testing.LeakCheck;
import org.metaruntime.testing.ListeningServer;
import org.metaruntime.testing.ProcessLeaks;
import org.metaruntime.testing.Tools;

/**
 * Remote MCP modules in the runtime against {@code @modelcontextprotocol/server-everything} over Streamable HTTP on
 * loopback (the copy meta-mcp's build installs): probed, routed, called, supervised and health-checked like stdio
 * MCP modules; the server killed and started again mid-traffic.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class RemoteModulesTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Duration T = Duration.ofSeconds(30);
    static final Path EVERYTHING = Path.of("..", "meta-mcp", "src", "test", "node", "node_modules", "@modelcontextprotocol",
            "server-everything", "dist", "index.js").toAbsolutePath().normalize();
    /** The modern (2026-07-28) test server on the TypeScript SDK v2 that meta-mcp's tests use. */
    static final Path MODERN_SERVER = Path.of("..", "meta-mcp", "src", "test", "node", "modern_server.mjs").toAbsolutePath()
            .normalize();

    @TempDir
    Path dir;
    private ListeningServer server;
    private final List<UnifiedRuntime> runtimes = new ArrayList<>();

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes().threads("meta-mcp-http");

    @AfterEach
    void close() {
        runtimes.forEach(UnifiedRuntime::close);
        if (server != null) {
            server.close();
        }
    }

    /** server-everything's Streamable HTTP server on a free loopback port. */
    static ListeningServer everything() {
        String node = Tools.required("node");
        if (!Files.isRegularFile(EVERYTHING)) {
            throw new AssertionError("server-everything is not installed at " + EVERYTHING + " (meta-mcp's build runs npm ci)");
        }
        return ListeningServer.start("server-everything", port -> List.of(node, EVERYTHING.toString(), "streamableHttp"),
                port -> Map.of("PORT", String.valueOf(port)));
    }

    private ModuleConfig.Builder remote(String id, int port) {
        return ModuleConfig.builder(id).url(URI.create("http://127.0.0.1:" + port + "/mcp")).header("X-Meta-Test", "yes");
    }

    private UnifiedRuntime start(MetaConfig config, ManualScheduler scheduler) {
        UnifiedRuntime.Builder builder = UnifiedRuntime.builder(config).options(RuntimeOptions.builder().startupTimeout(T)
                .shutdownHook(false).stopStdinGrace(Duration.ofMillis(500)).stopTermGrace(Duration.ofMillis(500)).build());
        if (scheduler != null) {
            builder.scheduler(scheduler);
        }
        UnifiedRuntime runtime = builder.start();
        runtimes.add(runtime);
        return runtime;
    }

    private static List<String> moves(UnifiedRuntime runtime, String id) {
        return runtime.moduleHealthTransitions().stream().filter(t -> t.moduleId().equals(id))
                .map(t -> t.from() + "->" + t.to() + "@" + t.attempt()).collect(Collectors.toList());
    }

    private static String move(ModuleHealthState from, ModuleHealthState to, int attempt) {
        return from + "->" + to + "@" + attempt;
    }

    private static List<EventEnvelope<?>> events(UnifiedRuntime runtime, String prefix) {
        return runtime.mergedEvents().stream().filter(e -> e.eventId().startsWith(prefix)).collect(Collectors.toList());
    }

    private static ObjectNode args(String key, String value) {
        return MAPPER.createObjectNode().put(key, value);
    }

    @Test
    void aRemoteModulePinnedLegacyAgainstAModernOnlyServerFailsAsUnsupportedProtocol() {
        String node = Tools.required("node");
        if (!Files.isRegularFile(MODERN_SERVER) || !Files.isDirectory(MODERN_SERVER.resolveSibling("node_modules"))) {
            throw new AssertionError("the modern test server is not installed at " + MODERN_SERVER + " (meta-mcp's build runs npm ci)");
        }
        server = ListeningServer.start("modern-only", port -> List.of(node, MODERN_SERVER.toString(), "--modern-only",
                "--http", dir.resolve("port").toString()), port -> Map.of("PORT", String.valueOf(port)));
        UnifiedRuntime runtime = start(MetaConfig.builder().module(remote("modern", server.port())
                .protocolEra(McpProtocolEra.LEGACY).restartPolicy(RestartPolicy.NEVER).build()).discover("modern")
                .preSpawn(PreSpawnData.mcp("modern")).build(), null);

        assertThat(runtime.loadedModules()).isEmpty();
        assertThat(moves(runtime, "modern")).containsExactly(move(null, STARTING, 0), move(STARTING, FAILED, 1),
                move(FAILED, STOPPED, 1));
        assertThat(runtime.mergedEvents().stream().map(EventEnvelope::event)
                .filter(e -> e instanceof UnifiedEvent.Module).map(e -> ((UnifiedEvent.Module) e).event())
                .filter(e -> e.module().equals("modern") && e.eventType().equals("supervisor.warning"))
                .map(e -> e.payload().path("error_type").asText()).toList()).containsExactly("mcp.unsupported_protocol");
        RuntimeFromConfigException failed = catchThrowableOfType(RuntimeFromConfigException.class,
                () -> runtime.spawnMember("modern", T));
        assertThat(failed.error()).isEqualTo(new RuntimeFromConfigError.Runtime(new RuntimeBoundaryError.Mcp(
                new McpBoundaryError.UnsupportedProtocol("modern", McpProtocolEra.LEGACY, List.of("2026-07-28")))));
    }

    @Test
    void aRemoteModuleIsProbedRoutedAndCalledLikeAStdioMcpModule() {
        server = everything();
        UnifiedRuntime runtime = start(MetaConfig.builder().module(remote("everything", server.port()).build())
                .discover("everything").build(), null);

        assertThat(moves(runtime, "everything")).containsExactly(move(null, STARTING, 0), move(STARTING, HEALTHY, 1));
        assertThat(events(runtime, "evt-mcp-ready-everything-")).singleElement()
                .satisfies(e -> assertThat(e.event().toString()).contains("echo", "get-sum"));
        assertThat(runtime.routeModuleCall(new ModuleRouteRequest("everything", "echo", args("message", "日本語 🎉")), T)
                .payload().asText()).isEqualTo("Echo: 日本語 🎉");
        McpSchema.CallToolResult whole = runtime.mcp("everything").callTool("get-structured-content", args("location", "Chicago"));
        assertThat(whole.structuredContent()).isNotNull();
        assertThat(runtime.mcp("everything").tools()).extracting(McpSchema.Tool::name).contains("trigger-long-running-operation");
        assertThat(runtime.supervisorReport().get("everything").pid()).isEmpty();

        ModuleRouteException unknown = catchThrowableOfType(ModuleRouteException.class,
                () -> runtime.routeModuleCall(new ModuleRouteRequest("everything", "no-such-tool", MAPPER.createObjectNode()), T));
        assertThat(unknown.error()).isInstanceOf(ModuleRouteError.ModuleRuntime.class);
        assertThat(((RuntimeBoundaryError.Mcp) ((ModuleRouteError.ModuleRuntime) unknown.error()).error()).error())
                .isInstanceOf(McpBoundaryError.ToolNotFound.class);
        assertThat(runtime.moduleHealthTransitions()).hasSize(2);
    }

    @Test
    void aRemoteModuleNothingListensForIsStoppedAtStartupAndUnloaded() {
        int port = ListeningServer.freePort();
        UnifiedRuntime runtime = start(MetaConfig.builder().module(remote("gone", port).build()).discover("gone").build(), null);

        assertThat(moves(runtime, "gone")).containsExactly(move(null, STARTING, 0), move(STARTING, FAILED, 1),
                move(FAILED, STOPPED, 1));
        assertThat(events(runtime, "evt-supervisor-warning-gone-")).hasSize(1);
        ModuleRouteException unloaded = catchThrowableOfType(ModuleRouteException.class,
                () -> runtime.routeModuleCall(new ModuleRouteRequest("gone", "echo", MAPPER.createObjectNode()), T));
        assertThat(unloaded.error()).isInstanceOf(ModuleRouteError.UnloadedModule.class);
        assertThat(((ModuleRouteError.UnloadedModule) unloaded.error()).startupError().toString()).contains("ConnectionFailed");

        RuntimeFromConfigException spawn = catchThrowableOfType(RuntimeFromConfigException.class,
                () -> runtime.spawnMember("gone", T));
        RuntimeBoundaryError error = ((RuntimeFromConfigError.Runtime) spawn.error()).error();
        assertThat(((RuntimeBoundaryError.Mcp) error).error()).isInstanceOf(McpBoundaryError.ConnectionFailed.class);
        assertThat(spawn.getMessage()).contains("gone", "cannot be reached");
    }

    @Test
    void aRemoteServerKilledMidTrafficFailsCallsAtOnceAndTheModuleIsHealthyAgainWhenItReturns() throws Exception {
        server = everything();
        ManualScheduler scheduler = new ManualScheduler();
        UnifiedRuntime runtime = start(MetaConfig.builder().module(remote("everything", server.port()).build())
                .discover("everything").build(), scheduler);

        AtomicInteger progressed = new AtomicInteger();
        List<ModuleCall> running = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            AtomicInteger seen = new AtomicInteger();
            running.add(runtime.call(new ModuleRouteRequest("everything", "trigger-long-running-operation",
                    MAPPER.createObjectNode().put("duration", 300).put("steps", 300)), CallOptions.builder()
                    .timeout(Duration.ofMinutes(10)).onProgress(p -> {
                        if (seen.getAndIncrement() == 0) {
                            progressed.incrementAndGet();
                        }
                    }).build()));
        }
        await().atMost(T).until(() -> progressed.get() == running.size()); // every call is in flight at the server
        server.kill();
        for (ModuleCall call : running) {
            ExecutionException failed = catchThrowableOfType(ExecutionException.class, () -> call.response().get());
            ModuleRouteError error = ((ModuleRouteException) failed.getCause()).error();
            McpBoundaryError mcp = ((RuntimeBoundaryError.Mcp) ((ModuleRouteError.ModuleRuntime) error).error()).error();
            assertThat(mcp).isInstanceOf(McpBoundaryError.SessionLost.class);
        }
        await().atMost(T).until(() -> moves(runtime, "everything").contains(move(FAILED, RESTARTING, 2)));
        assertThat(moves(runtime, "everything")).containsExactly(move(null, STARTING, 0), move(STARTING, HEALTHY, 1),
                move(HEALTHY, FAILED, 2), move(FAILED, RESTARTING, 2));
        assertThat(events(runtime, "evt-supervisor-warning-everything-")).singleElement()
                .satisfies(e -> assertThat(e.event().toString()).contains("lost its session", "cannot be reached"));

        // while it restarts, calls fail fast
        ModuleRouteException fast = catchThrowableOfType(ModuleRouteException.class, () -> runtime.routeModuleCall(
                new ModuleRouteRequest("everything", "echo", args("message", "x")), Duration.ofMinutes(10)));
        assertThat(fast.error()).isEqualTo(new ModuleRouteError.ModuleUnavailable("everything", RESTARTING));

        // a reconnect while it is still down fails, and is retried with backoff
        scheduler.runPending();
        await().atMost(T).until(() -> moves(runtime, "everything").contains(move(FAILED, RESTARTING, 3)));
        assertThat(moves(runtime, "everything")).contains(move(RESTARTING, FAILED, 3));

        server.restart();
        scheduler.runPending();
        await().atMost(T).until(() -> moves(runtime, "everything").contains(move(RESTARTING, HEALTHY, 4)));
        assertThat(runtime.routeModuleCall(new ModuleRouteRequest("everything", "echo", args("message", "back")), T)
                .payload().asText()).isEqualTo("Echo: back");
        assertThat(events(runtime, "evt-mcp-ready-everything-")).hasSize(2);
    }

    @Test
    void missedHealthCheckPingsAreAFailureOfARemoteModule() throws Exception {
        server = everything();
        ManualScheduler scheduler = new ManualScheduler();
        UnifiedRuntime runtime = start(MetaConfig.builder().module(remote("everything", server.port())
                .healthCheck(Duration.ofMillis(400)).build()).discover("everything").build(), scheduler);
        assertThat(moves(runtime, "everything")).containsExactly(move(null, STARTING, 0), move(STARTING, HEALTHY, 1));

        // answered pings keep it healthy
        scheduler.advance(Duration.ofMillis(400));
        scheduler.advance(Duration.ofMillis(400));
        scheduler.advance(Duration.ofMillis(400));
        assertThat(runtime.routeModuleCall(new ModuleRouteRequest("everything", "echo", args("message", "x")), T)
                .payload().asText()).isEqualTo("Echo: x");

        signal("STOP", server.pid()); // frozen: connected, but nothing answers
        try {
            scheduler.advance(Duration.ofMillis(400));
            scheduler.advance(Duration.ofMillis(400));
            scheduler.advance(Duration.ofMillis(400));
            await().atMost(T).until(() -> moves(runtime, "everything").contains(move(FAILED, RESTARTING, 2)));
            assertThat(events(runtime, "evt-supervisor-warning-everything-")).singleElement()
                    .satisfies(e -> assertThat(e.event().toString()).contains("missed 3 health-check pings"));
        } finally {
            signal("CONT", server.pid());
        }
        scheduler.runPending();
        await().atMost(T).until(() -> moves(runtime, "everything").contains(move(RESTARTING, HEALTHY, 3)));
        assertThat(runtime.routeModuleCall(new ModuleRouteRequest("everything", "echo", args("message", "y")), T)
                .payload().asText()).isEqualTo("Echo: y");
    }

    @Test
    void missedHealthCheckPingsAreAFailureOfAStdioModuleToo() throws Exception {
        Path pids = dir.resolve("pids");
        ManualScheduler scheduler = new ManualScheduler();
        UnifiedRuntime runtime = start(MetaConfig.builder().module(ModuleConfig.builder("tools")
                        .command(FixtureScripts.mcpServerCommand("--pid-file", pids.toString()))
                        .healthCheck(Duration.ofMillis(400)).build())
                .discover("tools").preSpawn(PreSpawnData.mcp("tools")).build(), scheduler);
        assertThat(moves(runtime, "tools")).containsExactly(move(null, STARTING, 0), move(STARTING, HEALTHY, 1));
        long pid = Fixtures.pids(pids).get(0);
        scheduler.advance(Duration.ofMillis(400));
        scheduler.advance(Duration.ofMillis(400));
        scheduler.advance(Duration.ofMillis(400));
        assertThat(runtime.routeModuleCall(new ModuleRouteRequest("tools", "add", MAPPER.createObjectNode().put("a", 1)
                .put("b", 2)), T).payload().asInt()).isEqualTo(3);

        signal("STOP", pid);
        scheduler.advance(Duration.ofMillis(400));
        scheduler.advance(Duration.ofMillis(400));
        scheduler.advance(Duration.ofMillis(400));
        await().atMost(T).until(() -> moves(runtime, "tools").contains(move(FAILED, RESTARTING, 2)));
        ProcessLeaks.assertAllGone(List.of(pid)); // the frozen server was killed
        scheduler.runPending();
        await().atMost(T).until(() -> moves(runtime, "tools").contains(move(RESTARTING, HEALTHY, 3)));
        assertThat(Fixtures.pids(pids)).hasSize(2);
    }

    private static void signal(String name, long pid) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + name, String.valueOf(pid)).inheritIO().start();
        assertThat(kill.waitFor()).isZero();
    }

    @Test
    void remoteModulesAreConfiguredWithAUrlAndHeaders() {
        URI url = URI.create("https://tools.example/mcp");
        ModuleConfig remote = ModuleConfig.builder("r").url(url).header("Authorization", "Bearer t0ken").build();
        assertThat(remote.isRemote()).isTrue();
        assertThat(remote.url()).contains(url);
        assertThat(remote.headers()).containsEntry("Authorization", "Bearer t0ken");
        assertThat(remote.toString()).doesNotContain("t0ken");
        assertThat(remote.healthCheckInterval()).contains(ModuleConfig.DEFAULT_REMOTE_HEALTH_CHECK);
        assertThat(remote.toBuilder().healthCheck(Duration.ZERO).build().healthCheckInterval()).isEmpty();
        assertThat(ModuleConfig.builder("s").command("x").build().healthCheckInterval()).isEmpty();
        assertThat(ModuleConfig.builder("s").command("x").healthCheck(Duration.ofSeconds(5)).build().healthCheckInterval())
                .contains(Duration.ofSeconds(5));
        assertThat(remote.toBuilder().build()).isEqualTo(remote);
        MetaConfig config = MetaConfig.builder().module(remote).discover("r").build();
        assertThat(config.boundaryOf("r")).isEqualTo(ModuleBoundaryKind.MCP);

        assertThat(catchThrowableOfType(ConfigException.class, () -> ModuleConfig.builder("r").url(URI.create("ftp://x/mcp"))))
                .hasMessageContaining("modules[r].url");
        assertThat(catchThrowableOfType(ConfigException.class, () -> ModuleConfig.builder("r").url(url).command("x").build()))
                .hasMessageContaining("both a command and a url");
        assertThat(catchThrowableOfType(ConfigException.class, () -> ModuleConfig.builder("r").url(url).env("A", "b").build()))
                .hasMessageContaining("no process");
        assertThat(catchThrowableOfType(ConfigException.class, () -> ModuleConfig.builder("r").url(url)
                .mcpSessionMode(McpSessionMode.PER_CALL).build())).hasMessageContaining("PERSISTENT");
        assertThat(catchThrowableOfType(ConfigException.class, () -> ModuleConfig.builder("r").command("x")
                .header("A", "b").build())).hasMessageContaining("no url");
        assertThat(catchThrowableOfType(ConfigException.class, () -> ModuleConfig.builder("r").url(url)
                .header("Mcp-Session-Id", "b"))).hasMessageContaining("modules[r].headers");
        assertThat(catchThrowableOfType(ConfigException.class, () -> MetaConfig.builder()
                .module(ModuleConfig.builder("n").build()).build().validate())).hasMessageContaining("no url");
    }
}
