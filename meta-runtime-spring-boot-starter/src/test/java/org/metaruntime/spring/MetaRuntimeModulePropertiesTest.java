package org.metaruntime.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.metaruntime.core.UnifiedRuntime;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.testing.LeakCheck;
import org.metaruntime.testing.ListeningServer;
import org.metaruntime.testing.ProcessLeaks;
import org.metaruntime.testing.Tools;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.execution.ToolExecutionException;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

/**
 * Per-module properties in real application contexts: a remote module ({@code url}, {@code headers}) served by
 * {@code @modelcontextprotocol/server-everything} over Streamable HTTP (the headers seen on the wire), {@code env},
 * {@code workdir} and {@code restart-policy} of local modules, and a callback's description when the tool has none.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MetaRuntimeModulePropertiesTest {

    /** server-everything as meta-mcp's build installs it. */
    private static final Path EVERYTHING = Path.of("..", "meta-mcp", "src", "test", "node", "node_modules",
            "@modelcontextprotocol", "server-everything", "dist", "index.js").toAbsolutePath().normalize();

    private final FixtureModules modules = new FixtureModules();
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(MetaRuntimeAutoConfiguration.class));
    private ListeningServer server;

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes().threads("meta-mcp-http");

    @AfterEach
    void close() {
        if (server != null) {
            server.close();
        }
    }

    private static String node() {
        String node = Tools.required("node");
        if (!Files.isRegularFile(EVERYTHING)) {
            throw new AssertionError("server-everything is not installed at " + EVERYTHING
                    + " (meta-mcp's build runs npm ci)");
        }
        return node;
    }

    /** {@code meta.runtime.modules.<id>.command[i]=...} of the python MCP fixture. */
    private String[] fixture(String id, String... switches) {
        return indexed(id, modules.command(id, switches));
    }

    private static String[] indexed(String id, List<String> command) {
        List<String> properties = new ArrayList<>();
        for (int i = 0; i < command.size(); i++) {
            properties.add("meta.runtime.modules." + id + ".command[" + i + "]=" + command.get(i));
        }
        return properties.toArray(String[]::new);
    }

    private static ToolCallback callback(ApplicationContext context, String name) {
        return Arrays.stream(context.getBean(MetaRuntimeToolCallbackProvider.class).getToolCallbacks())
                .filter(c -> c.getToolDefinition().name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no callback " + name));
    }

    /** Blocks until module {@code id} moves to {@code state} (the test's timeout bounds the wait). */
    private static CountDownLatch reaching(UnifiedRuntime runtime, String id, ModuleHealthState state, int times) {
        CountDownLatch latch = new CountDownLatch(times);
        runtime.subscribeHealth(t -> {
            if (t.moduleId().equals(id) && t.to() == state) {
                latch.countDown();
            }
        });
        return latch;
    }

    @Test
    void aRemoteModuleDeclaredWithAUrlAndHeadersGivesCallbacks() {
        String node = node();
        server = ListeningServer.start("server-everything", port -> List.of(node, EVERYTHING.toString(), "streamableHttp"),
                port -> Map.of("PORT", String.valueOf(port)));
        try (RecordingProxy proxy = new RecordingProxy(server.port())) {
            runner.withPropertyValues("meta.runtime.modules.everything.url=http://127.0.0.1:" + proxy.port() + "/mcp",
                            "meta.runtime.modules.everything.headers.X-Meta-Test=from-properties")
                    .run(context -> {
                    assertThat(context).hasNotFailed();
                    ToolCallback echo = callback(context, "everything__echo");
                    assertThat(echo.getToolDefinition().inputSchema()).contains("message");
                    assertThat(echo.call("{\"message\":\"日本語 🎉\"}")).isEqualTo("Echo: 日本語 🎉");
                    assertThat(callback(context, "everything__get-sum").call("{\"a\":2,\"b\":3}")).contains("5");
                    assertThat(context.getBean(UnifiedRuntime.class).supervisorReport().get("everything").pid()).isEmpty();
                    });
            assertThat(proxy.heads()).isNotEmpty().allSatisfy(head -> assertThat(head.toLowerCase(java.util.Locale.ROOT))
                    .contains("\r\nx-meta-test: from-properties"));
        }
    }

    @Test
    void envIsSeenByTheModule() {
        List<String> properties = new ArrayList<>(List.of(indexed("local", List.of(node(), EVERYTHING.toString(), "stdio"))));
        properties.add("meta.runtime.modules.local.env.META_SPRING_PROBE=from-properties");
        runner.withPropertyValues(properties.toArray(String[]::new)).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(callback(context, "local__get-env").call("{}")).contains("\"META_SPRING_PROBE\": \"from-properties\"");
        });
    }

    @Test
    void workdirIsWhereTheModuleRuns() throws Exception {
        Path workdir = Files.createDirectories(modules.dir().resolve("work"));
        List<String> command = new ArrayList<>(org.metaruntime.testing.FixtureScripts.mcpServerCommand());
        command.addAll(List.of("--pid-file", "relative.pids"));
        List<String> properties = new ArrayList<>(List.of(indexed("here", command)));
        properties.addAll(List.of("meta.runtime.modules.here.workdir=" + workdir, "meta.runtime.modules.here.start=eager"));
        runner.withPropertyValues(properties.toArray(String[]::new)).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(ProcessLeaks.pidsIn(workdir.resolve("relative.pids"))).hasSize(1);
        });
        ProcessLeaks.assertAllGone(ProcessLeaks.pidsIn(workdir.resolve("relative.pids")));
    }

    @Test
    void restartPolicyNeverLeavesACrashedModuleDown() {
        runner.withPropertyValues(fixture("once")).withPropertyValues("meta.runtime.modules.once.restart-policy=never")
                .run(context -> {
                    UnifiedRuntime runtime = context.getBean(UnifiedRuntime.class);
                    ToolCallback echo = callback(context, "once__echo");
                    assertThat(echo.call("{\"text\":\"hi\"}")).isEqualTo("hi");
                    CountDownLatch down = reaching(runtime, "once", ModuleHealthState.FAILED, 1);
                    assertThatThrownBy(() -> callback(context, "once__crash").call("{}"))
                            .isInstanceOf(ToolExecutionException.class).hasMessageContaining("exited with code 3");
                    down.await();
                    assertThatThrownBy(() -> echo.call("{\"text\":\"again\"}")).isInstanceOf(ToolExecutionException.class);
                    assertThat(modules.pids("once")).hasSize(1);
                    assertThat(runtime.moduleHealthTransitions()).noneMatch(t -> t.moduleId().equals("once")
                            && t.to() == ModuleHealthState.RESTARTING);
                });
        modules.assertAllGone("once");
    }

    @Test
    void restartPolicyOnFailureRestartsACrashedModule() {
        runner.withPropertyValues(fixture("again")).withPropertyValues("meta.runtime.modules.again.restart-policy=on-failure")
                .run(context -> {
                    UnifiedRuntime runtime = context.getBean(UnifiedRuntime.class);
                    ToolCallback echo = callback(context, "again__echo");
                    assertThat(echo.call("{\"text\":\"hi\"}")).isEqualTo("hi");
                    CountDownLatch back = reaching(runtime, "again", ModuleHealthState.HEALTHY, 1);
                    assertThatThrownBy(() -> callback(context, "again__crash").call("{}"))
                            .isInstanceOf(ToolExecutionException.class).hasMessageContaining("exited with code 3");
                    back.await();
                    assertThat(echo.call("{\"text\":\"again\"}")).isEqualTo("again");
                    assertThat(modules.pids("again")).hasSize(2);
                });
        modules.assertAllGone("again");
    }

    @Test
    void aCallbacksDescriptionFallsBackToTheToolsTitleThenItsName() throws Exception {
        String node = node();
        Path dir = Files.createDirectories(modules.dir().resolve("titled"));
        Files.createSymbolicLink(dir.resolve("node_modules"), EVERYTHING.getParent().getParent().getParent().getParent());
        Path script = dir.resolve("titled_server.mjs");
        Files.writeString(script, """
                import { McpServer } from '@modelcontextprotocol/server';
                import { serveStdio } from '@modelcontextprotocol/server/stdio';
                import * as z from 'zod/v4';
                const ok = async () => ({ content: [{ type: 'text', text: 'ok' }] });
                serveStdio(() => {
                  const server = new McpServer({ name: 'titled', version: '1.0.0' });
                  server.registerTool('titled', { title: 'A tool with a title only', inputSchema: z.object({}) }, ok);
                  server.registerTool('bare', { inputSchema: z.object({}) }, ok);
                  return server;
                }, { legacy: 'serve' });
                """);
        runner.withPropertyValues(indexed("t", List.of(node, script.toString()))).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(callback(context, "t__titled").getToolDefinition().description()).isEqualTo("A tool with a title only");
            assertThat(callback(context, "t__bare").getToolDefinition().description()).isEqualTo("t__bare");
            assertThat(callback(context, "t__titled").call("{}")).isEqualTo("ok");
        });
    }
}
