package org.metaruntime.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.metaruntime.core.MetaConfig;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.core.RuntimeOptions;
import org.metaruntime.core.UnifiedRuntime;
import org.metaruntime.testing.FixtureScripts;
import org.metaruntime.testing.LeakCheck;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;

/**
 * The starter's configuration in real application contexts: bad input fails the context naming the property,
 * fail-fast, modules from manifests and a Claude Desktop config, backing off, a host's own runtime, and the
 * generated configuration metadata.
 */
@Timeout(60)
class MetaRuntimeConfigurationTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final FixtureModules modules = new FixtureModules();
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(MetaRuntimeAutoConfiguration.class));

    @RegisterExtension
    final LeakCheck leaks = LeakCheck.processes().pidFilesIn(modules::dir, ".pids");

    /** {@code meta.runtime.modules.<id>.command[i]=...} of the MCP fixture. */
    private String[] command(String id, String... switches) {
        List<String> command = modules.command(id, switches);
        List<String> properties = new ArrayList<>();
        for (int i = 0; i < command.size(); i++) {
            properties.add("meta.runtime.modules." + id + ".command[" + i + "]=" + command.get(i));
        }
        return properties.toArray(String[]::new);
    }

    private String failure(String... properties) {
        String[] message = new String[1];
        runner.withPropertyValues(properties).run(context -> {
            assertThat(context).hasFailed();
            StringBuilder all = new StringBuilder();
            for (Throwable t = context.getStartupFailure(); t != null; t = t.getCause()) {
                all.append(t.getMessage()).append('\n');
            }
            message[0] = all.toString();
        });
        return message[0];
    }

    @Test
    void anUnknownKeyFailsTheContextNamingIt() {
        assertThat(failure("meta.runtime.modules.a.comand=python3")).contains("meta.runtime.modules.a.comand");
        assertThat(failure("meta.runtime.fial-fast=true")).contains("meta.runtime.fial-fast");
    }

    @Test
    void aValueOfTheWrongTypeFailsTheContextNamingTheProperty() {
        assertThat(failure("meta.runtime.modules.a.command=python3", "meta.runtime.modules.a.call-timeout=soon"))
                .contains("meta.runtime.modules.a.call-timeout");
        assertThat(failure("meta.runtime.modules.a.command=python3", "meta.runtime.modules.a.protocol=grpc"))
                .contains("meta.runtime.modules.a.protocol");
    }

    @Test
    void aModuleWithNeitherCommandNorUrlFailsTheContextNamingTheProperty() {
        assertThat(failure("meta.runtime.modules.a.start=eager")).contains("meta.runtime.modules.a.command")
                .contains("needs a command");
        assertThat(failure("meta.runtime.modules.a.command=python3", "meta.runtime.modules.a.url=http://localhost:1/mcp"))
                .contains("meta.runtime.modules.a.url").contains("both");
        assertThat(failure("meta.runtime.modules.a.command=python3", "meta.runtime.modules.a.protocol=jsonrpc"))
                .contains("meta.runtime.modules.a.tools");
        assertThat(failure("meta.runtime.modules.a.url=http://localhost:1/mcp",
                "meta.runtime.modules.a.protocol=event-line")).contains("meta.runtime.modules.a.url");
        assertThat(failure("meta.runtime.modules.a.command=python3", "meta.runtime.modules.a.tools[0].name=t",
                "meta.runtime.modules.a.tools[0].input-schema=[1]"))
                .contains("meta.runtime.modules.a.tools[0].input-schema");
        assertThat(failure("meta.runtime.modules.a.command[0]=python3", "meta.runtime.modules.b.command[0]= ",
                "meta.runtime.modules.b.command[1]=x")).contains("meta.runtime.modules.b.command[0]");
    }

    @Test
    void failFastClosesTheRuntimeAndFailsTheContext() {
        List<String> properties = new ArrayList<>(List.of("meta.runtime.fail-fast=true",
                "meta.runtime.modules.good.start=eager", "meta.runtime.modules.bad.start=eager",
                "meta.runtime.modules.bad.restart-policy=never"));
        properties.addAll(List.of(command("good")));
        properties.addAll(List.of(command("bad", "--fail-at", "initialize")));
        runner.withPropertyValues(properties.toArray(String[]::new)).run(context -> {
            assertThat(context).hasFailed();
            Throwable root = NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure());
            assertThat(root).isInstanceOfSatisfying(MetaRuntimeStartupException.class, e -> {
                assertThat(e.failedModules()).containsExactly("bad");
                assertThat(e.getMessage()).contains("bad").doesNotContain("good:");
            });
            assertThat(modules.pids("good")).hasSize(1);
            modules.assertAllGone("good", "bad");
        });
    }

    @Test
    void withoutFailFastAModuleThatCannotStartLeavesTheContextUp() {
        runner.withPropertyValues(command("bad", "--fail-at", "initialize"))
                .withPropertyValues("meta.runtime.modules.bad.start=eager", "meta.runtime.modules.bad.restart-policy=never")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(MetaRuntimeToolCallbackProvider.class).getToolCallbacks()).isEmpty();
                });
    }

    @Test
    void aLazyModuleWithoutDeclaredToolsIsStartedByTheFirstListing() {
        runner.withPropertyValues(command("later")).withPropertyValues(command("refusing", "--fail-at", "initialize"))
                .withPropertyValues("meta.runtime.modules.refusing.restart-policy=never")
                .run(context -> {
                    assertThat(modules.pids("later")).isEmpty();
                    assertThat(modules.pids("refusing")).isEmpty();
                    ToolCallback[] callbacks = context.getBean(MetaRuntimeToolCallbackProvider.class).getToolCallbacks();
                    assertThat(Arrays.stream(callbacks).map(c -> c.getToolDefinition().name()))
                            .contains("later__echo").noneMatch(name -> name.startsWith("refusing__"));
                    assertThat(modules.pids("later")).hasSize(1);
                    assertThat(modules.pids("refusing")).isNotEmpty();
                });
    }

    @Test
    void theStateDirIsCreatedAndHoldsTheEventLog() {
        Path state = modules.dir().resolve("state").resolve("meta");
        runner.withPropertyValues("meta.runtime.state-dir=" + state).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(UnifiedRuntime.class).eventLog()).isPresent();
            assertThat(state.resolve("event_log.sqlite3")).exists();
        });
    }

    @Test
    void withoutSpringAiActuatorAndMicrometerTheRuntimeAloneIsCreated() {
        runner.withClassLoader(new FilteredClassLoader(org.springframework.ai.tool.ToolCallbackProvider.class,
                        org.springframework.boot.health.contributor.HealthIndicator.class,
                        io.micrometer.observation.ObservationRegistry.class))
                .withPropertyValues(command("plain")).withPropertyValues("meta.runtime.modules.plain.start=eager")
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(UnifiedRuntime.class)
                            .doesNotHaveBean("metaRuntimeHealthIndicator")
                            .doesNotHaveBean("metaRuntimeToolCallbackProvider")
                            .doesNotHaveBean("metaRuntimeCallObservations");
                    assertThat(context.getBean(UnifiedRuntime.class).loadedModules()).containsExactly("plain");
                });
    }

    @Test
    void theContextsCallListenersAreToldOfEveryCallBesideTheObservations() {
        List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        runner.withPropertyValues(command("told"))
                .withBean("broken", org.metaruntime.core.ModuleCallListener.class, () -> (moduleId, tool) -> {
                    throw new IllegalStateException("a listener broken on purpose");
                })
                .withBean("recording", org.metaruntime.core.ModuleCallListener.class, () -> (moduleId, tool) ->
                        (outcome, error) -> seen.add(moduleId + "/" + tool + "/" + outcome))
                .run(context -> {
                    assertThat(context).hasBean("metaRuntimeCallObservations");
                    ToolCallback echo = Arrays.stream(context.getBean(MetaRuntimeToolCallbackProvider.class)
                            .getToolCallbacks()).filter(c -> c.getToolDefinition().name().equals("told__echo"))
                            .findFirst().orElseThrow();
                    assertThat(echo.call("{\"text\":\"hi\"}")).isEqualTo("hi");
                    assertThat(seen).containsExactly("told/echo/SUCCESS");
                });
    }

    @Test
    void enabledFalseBacksOffEntirely() {
        runner.withPropertyValues(command("never")).withPropertyValues("meta.runtime.enabled=false",
                "meta.runtime.modules.never.start=eager").run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(UnifiedRuntime.class)
                            .doesNotHaveBean(MetaRuntimeHealthIndicator.class)
                            .doesNotHaveBean(MetaRuntimeToolCallbackProvider.class);
                    assertThat(modules.pids("never")).isEmpty();
                });
    }

    @Test
    void aHostsOwnRuntimeIsUsed() {
        ModuleConfig own = ModuleConfig.builder("own").command(modules.command("own")).build();
        UnifiedRuntime hostRuntime = UnifiedRuntime.builder(MetaConfig.builder().mcp(own).discover("own").build())
                .options(RuntimeOptions.builder().shutdownHook(false).build()).start();
        try {
            runner.withBean(UnifiedRuntime.class, () -> hostRuntime).run(context -> {
                assertThat(context).hasNotFailed().hasSingleBean(UnifiedRuntime.class);
                assertThat(context.getBean(UnifiedRuntime.class)).isSameAs(hostRuntime);
                assertThat(context.getBean(MetaRuntimeHealthIndicator.class).health().getDetails().get("modules"))
                        .asString().contains("own");
                assertThat(Arrays.stream(context.getBean(MetaRuntimeToolCallbackProvider.class).getToolCallbacks())
                        .map(c -> c.getToolDefinition().name())).contains("own__echo");
            });
        } finally {
            hostRuntime.close();
        }
    }

    @Test
    void modulesFromManifestsAndAClaudeConfigFollowThePropertyModules() throws IOException {
        Path pods = Files.createDirectories(modules.dir().resolve("pods"));
        String python = FixtureScripts.mcpServerCommand().get(0);
        String script = FixtureScripts.mcpServer().toString();
        Files.writeString(pods.resolve("b-listed.yaml"), "apiVersion: mcp-meta/v1\nkind: ToolPod\nmetadata:\n"
                + "  name: listed\nspec:\n  command: [" + json(python) + ", " + json(script) + ", \"--pid-file\", "
                + json(modules.pidfile("listed").toString()) + "]\n");
        Files.writeString(pods.resolve("a-declared.yaml"), "apiVersion: mcp-meta/v1\nkind: ToolPod\nmetadata:\n"
                + "  name: declared\nspec:\n  command: [" + json(python) + ", " + json(script) + ", \"--pid-file\", "
                + json(modules.pidfile("declared").toString()) + "]\n  tools:\n    - name: echo\n"
                + "      description: \"Echoes a text.\"\n      inputSchema: {type: object}\n");
        Path claude = modules.dir().resolve("claude_desktop_config.json");
        Files.writeString(claude, "{\"mcpServers\": {\"desktop\": {\"command\": " + json(python) + ", \"args\": ["
                + json(script) + ", \"--pid-file\", " + json(modules.pidfile("desktop").toString()) + "]}}}");
        runner.withPropertyValues(command("first"))
                .withPropertyValues("meta.runtime.manifests[0]=" + pods, "meta.runtime.claude-config=" + claude)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    UnifiedRuntime runtime = context.getBean(UnifiedRuntime.class);
                    assertThat(runtime.discovery().modules()).containsExactly("first", "declared", "listed", "desktop");
                    assertThat(modules.pids("declared")).isEmpty();
                    assertThat(modules.pids("listed")).hasSize(1);
                    assertThat(modules.pids("desktop")).hasSize(1);
                    assertThat(Arrays.stream(context.getBean(MetaRuntimeToolCallbackProvider.class).getToolCallbacks())
                            .map(c -> c.getToolDefinition().name()).filter(n -> n.startsWith("declared__")))
                            .containsExactly("declared__echo");
                });
    }

    @Test
    void anInvalidManifestOrAnIdDeclaredTwiceFailsTheContext() throws IOException {
        Path pods = Files.createDirectories(modules.dir().resolve("bad-pods"));
        Path manifest = pods.resolve("broken.yaml");
        Files.writeString(manifest, "apiVersion: mcp-meta/v1\nkind: ToolPod\nmetadata:\n  name: broken\nspec:\n"
                + "  comand: [x]\n");
        assertThat(failure("meta.runtime.manifests[0]=" + pods)).contains(manifest + ":");

        Path good = Files.createDirectories(modules.dir().resolve("good-pods"));
        Files.writeString(good.resolve("twice.yaml"), "apiVersion: mcp-meta/v1\nkind: ToolPod\nmetadata:\n"
                + "  name: twice\nspec:\n  command: [\"true\"]\n");
        assertThat(failure("meta.runtime.manifests[0]=" + good, "meta.runtime.modules.twice.command=true"))
                .contains("meta.runtime.modules.twice").contains("declared twice");

        assertThat(failure("meta.runtime.claude-config=" + modules.dir().resolve("missing.json")))
                .contains("missing.json");
    }

    @Test
    void theJarCarriesConfigurationMetadata() throws IOException {
        JsonNode metadata;
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            metadata = MAPPER.readTree(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        assertThat(metadata.path("groups").findValuesAsText("name")).contains("meta.runtime");
        assertThat(metadata.path("groups").get(0).path("sourceType").asText())
                .isEqualTo(MetaRuntimeProperties.class.getName());
        List<String> names = new ArrayList<>();
        for (JsonNode property : metadata.path("properties")) {
            names.add(property.path("name").asText());
            assertThat(property.path("description").asText()).as(property.path("name").asText()).isNotBlank();
        }
        assertThat(names).contains("meta.runtime.enabled", "meta.runtime.fail-fast", "meta.runtime.manifests",
                "meta.runtime.claude-config", "meta.runtime.state-dir", "meta.runtime.modules");
        for (JsonNode property : metadata.path("properties")) {
            if (property.path("name").asText().equals("meta.runtime.enabled")) {
                assertThat(property.path("defaultValue").asBoolean()).isTrue();
            }
            if (property.path("name").asText().equals("meta.runtime.modules")) {
                assertThat(property.path("type").asText()).isEqualTo("java.util.Map<java.lang.String,"
                        + MetaRuntimeProperties.Module.class.getName() + ">");
            }
        }
    }

    private static String json(String text) {
        try {
            return MAPPER.writeValueAsString(text);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
