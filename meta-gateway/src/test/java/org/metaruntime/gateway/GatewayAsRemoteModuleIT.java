package org.metaruntime.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.core.CallOptions;
import org.metaruntime.core.MetaConfig;
import org.metaruntime.core.ModuleCall;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.core.ModuleRouteError;
import org.metaruntime.core.ModuleRouteException;
import org.metaruntime.core.ModuleRouteRequest;
import org.metaruntime.core.RuntimeBoundaryError;
import org.metaruntime.core.RuntimeOptions;
import org.metaruntime.core.UnifiedRuntime;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.supervisor.internal.manual.ManualScheduler;
import org.metaruntime.testing.LeakCheck;
import org.metaruntime.testing.ListeningServer;

/**
 * A runtime whose module is a second meta-gateway, a separate process serving its own pods over Streamable HTTP:
 * the gateway's tools are listed and called through the runtime's remote module; the gateway killed and started
 * again on the same port, between calls (its new process does not know the session: HTTP 404, a new session) and
 * with a call in flight (the module fails, calls fail fast, and it is healthy again once the gateway is back).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class GatewayAsRemoteModuleIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration T = Duration.ofSeconds(60);

    @TempDir
    Path dir;
    private ListeningServer gateway;
    private UnifiedRuntime runtime;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes().pidFilesIn(() -> dir.resolve("pids"), "");

    @AfterEach
    void nothingLeft() throws Exception {
        if (runtime != null) {
            runtime.close();
        }
        if (gateway != null) {
            gateway.close();
        }
    }

    private void startGateway() throws Exception {
        Path manifests = NodeClient.manifests(dir, dir.resolve("pids"), "fixture", "other");
        gateway = ListeningServer.start("meta-gateway", port -> List.of(Repo.tool("sh"), Repo.COMMAND.toString(),
                "--manifests", manifests.toString(), "--transport", "http", "--port", String.valueOf(port)), port -> Map.of());
    }

    private UnifiedRuntime runtimeOverTheGateway(ManualScheduler scheduler) {
        ModuleConfig remote = ModuleConfig.builder("gw").url(URI.create("http://127.0.0.1:" + gateway.port() + "/mcp"))
                .callTimeout(T).build();
        runtime = UnifiedRuntime.builder(MetaConfig.builder().module(remote).discover("gw").build())
                .options(RuntimeOptions.builder().startupTimeout(T).shutdownHook(false).build())
                .scheduler(scheduler)
                .start();
        return runtime;
    }

    private List<String> moves() {
        return runtime.moduleHealthTransitions().stream().map(t -> t.from() + "->" + t.to() + "@" + t.attempt())
                .collect(Collectors.toList());
    }

    private String echo(String text) {
        ObjectNode args = JSON.createObjectNode().put("text", text);
        return runtime.routeModuleCall(new ModuleRouteRequest("gw", "fixture__echo", args), T).payload().path("echo").asText();
    }

    @Test
    void aGatewayIsARemoteModuleOfARuntimeAndSurvivesBeingKilledAndStartedAgain() throws Exception {
        startGateway();
        ManualScheduler scheduler = new ManualScheduler();
        runtimeOverTheGateway(scheduler);
        assertThat(moves()).containsExactly("null->STARTING@0", "STARTING->HEALTHY@1");
        assertThat(runtime.mcp("gw").tools()).extracting(McpSchema.Tool::name)
                .contains("fixture__echo", "other__echo", "meta__status");
        assertThat(echo("日本語 🎉")).isEqualTo("日本語 🎉");

        // killed and back between calls: the new process does not know the session; a new one serves the call
        gateway.kill();
        gateway.restart();
        assertThat(echo("after a restart")).isEqualTo("after a restart");
        assertThat(moves()).as("a renewed session is no failure").hasSize(2);

        // killed with a call in flight
        CountDownLatch inFlight = new CountDownLatch(1);
        ModuleCall slow = runtime.call(new ModuleRouteRequest("gw", "fixture__slow",
                JSON.createObjectNode().put("seconds", 2.5).put("steps", 10)), CallOptions.builder().timeout(T)
                .onProgress(p -> inFlight.countDown()).build());
        assertThat(inFlight.await(60, TimeUnit.SECONDS)).isTrue();
        gateway.kill();
        ExecutionException failed = catchThrowableOfType(ExecutionException.class, () -> slow.response().get());
        ModuleRouteError error = ((ModuleRouteException) failed.getCause()).error();
        assertThat(((RuntimeBoundaryError.Mcp) ((ModuleRouteError.ModuleRuntime) error).error()).error())
                .isInstanceOf(McpBoundaryError.SessionLost.class);
        await().atMost(T).until(() -> moves().contains("FAILED->RESTARTING@2"));
        ModuleRouteException fast = catchThrowableOfType(ModuleRouteException.class, () -> echo("meanwhile"));
        assertThat(fast.error()).isEqualTo(new ModuleRouteError.ModuleUnavailable("gw", ModuleHealthState.RESTARTING));

        gateway.restart();
        scheduler.runPending();
        await().atMost(T).until(() -> moves().contains("RESTARTING->HEALTHY@3"));
        assertThat(echo("back")).isEqualTo("back");
        List<ModuleCall> many = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            many.add(runtime.call(new ModuleRouteRequest("gw", "other__echo", JSON.createObjectNode().put("text", "n" + i)),
                    CallOptions.timeout(T)));
        }
        for (int i = 0; i < 32; i++) {
            assertThat(many.get(i).response().get(60, TimeUnit.SECONDS).payload().path("echo").asText()).isEqualTo("n" + i);
        }
    }
}
