package org.metaruntime.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.metaruntime.testing.FixtureScripts;
import org.metaruntime.testing.LeakCheck;

/** The call listener sees every call through the runtime, with its outcome, against a real MCP module. */
@Timeout(60)
class ModuleCallListenerTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path dir;

    private UnifiedRuntime runtime;

    record Seen(String moduleId, String tool, ModuleCallListener.Outcome outcome, Throwable error) {
    }

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes().pidFile(() -> dir.resolve("pids"));

    @AfterEach
    void close() {
        if (runtime != null) {
            runtime.close();
        }
    }

    private UnifiedRuntime start(ModuleCallListener listener) {
        ModuleConfig module = ModuleConfig.builder("m").command(FixtureScripts.mcpServerCommand(dir.toString(),
                "--pid-file", dir.resolve("pids").toString())).build();
        return UnifiedRuntime.builder(MetaConfig.builder().mcp(module).discover("m").build())
                .options(RuntimeOptions.builder().startupTimeout(Duration.ofSeconds(20)).shutdownHook(false).build())
                .callListener(listener).start();
    }

    @Test
    void everyKindOfCallIsToldWithItsOutcome() throws Exception {
        List<Seen> seen = new CopyOnWriteArrayList<>();
        runtime = start((moduleId, tool) -> (outcome, error) -> seen.add(new Seen(moduleId, tool, outcome, error)));

        runtime.routeModuleCall(new ModuleRouteRequest("m", "echo", MAPPER.createObjectNode().put("text", "hi")));
        assertThatThrownBy(() -> runtime.routeModuleCall(new ModuleRouteRequest("m", "error", MAPPER.createObjectNode())))
                .isInstanceOf(ModuleRouteException.class);
        runtime.routeModuleCallAsync(new ModuleRouteRequest("nobody", "echo", null), Duration.ofSeconds(5))
                .handle((r, e) -> null).join();
        runtime.mcp("m").callTool("echo", MAPPER.createObjectNode());
        runtime.mcp("m").callTool("error", MAPPER.createObjectNode());
        runtime.mcp("m").startCall("add", MAPPER.createObjectNode().put("a", 1).put("b", 2), CallOptions.defaults())
                .result().join();
        assertThatThrownBy(() -> runtime.mcp("m").callTool("crash", MAPPER.createObjectNode()))
                .isInstanceOf(ModuleRouteException.class);

        await().atMost(Duration.ofSeconds(10)).until(() -> seen.size() == 7);
        assertThat(seen).extracting(Seen::moduleId, Seen::tool, Seen::outcome).containsExactly(
                org.assertj.core.groups.Tuple.tuple("m", "echo", ModuleCallListener.Outcome.SUCCESS),
                org.assertj.core.groups.Tuple.tuple("m", "error", ModuleCallListener.Outcome.TOOL_ERROR),
                org.assertj.core.groups.Tuple.tuple("nobody", "echo", ModuleCallListener.Outcome.ERROR),
                org.assertj.core.groups.Tuple.tuple("m", "echo", ModuleCallListener.Outcome.SUCCESS),
                org.assertj.core.groups.Tuple.tuple("m", "error", ModuleCallListener.Outcome.TOOL_ERROR),
                org.assertj.core.groups.Tuple.tuple("m", "add", ModuleCallListener.Outcome.SUCCESS),
                org.assertj.core.groups.Tuple.tuple("m", "crash", ModuleCallListener.Outcome.ERROR));
        assertThat(seen.get(2).error()).isInstanceOf(ModuleRouteException.class);
        assertThat(seen.get(6).error()).isInstanceOf(ModuleRouteException.class);
        assertThat(seen.get(0).error()).isNull();
    }

    @Test
    void aListenerThatThrowsNeverHurtsTheCall() {
        runtime = start((moduleId, tool) -> {
            if (tool.equals("echo")) {
                throw new IllegalStateException("listener broken on purpose");
            }
            return (outcome, error) -> {
                throw new IllegalStateException("listener broken on purpose");
            };
        });
        assertThat(runtime.routeModuleCall(new ModuleRouteRequest("m", "echo",
                MAPPER.createObjectNode().put("text", "ok"))).payload().asText()).isEqualTo("ok");
        assertThat(runtime.mcp("m").callTool("add", MAPPER.createObjectNode().put("a", 1).put("b", 2)).isError())
                .isNotEqualTo(Boolean.TRUE);
    }
}
