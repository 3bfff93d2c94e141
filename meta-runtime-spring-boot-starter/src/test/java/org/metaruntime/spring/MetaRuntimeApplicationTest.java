package org.metaruntime.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.metaruntime.spring.app.ScriptedChatModel.answerWithToolResponse;
import static org.metaruntime.spring.app.ScriptedChatModel.toolCall;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.metaruntime.core.ModuleRouteException;
import org.metaruntime.core.UnifiedRuntime;
import org.metaruntime.spring.app.ScriptedChatModel;
import org.metaruntime.spring.app.TestApplication;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.execution.ToolExecutionException;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A Spring Boot application with three real module processes: an eager MCP module that is required, a lazy one
 * with a declared tool, and one that cannot start. Its health, tool callbacks (through Spring AI's ChatClient with a
 * scripted model), filter, observations and shutdown.
 */
@SpringBootTest(classes = TestApplication.class, properties = {
        "meta.runtime.modules.tools.start=eager",
        "meta.runtime.modules.tools.required=true",
        "meta.runtime.modules.lazy.tools[0].name=unicode",
        "meta.runtime.modules.lazy.tools[0].description=Answers with the text and fixed Unicode",
        "meta.runtime.modules.lazy.tools[0].input-schema={\"type\":\"object\",\"properties\":{\"text\":"
                + "{\"type\":\"string\",\"description\":\"any text\"}},\"required\":[\"text\"]}",
        "meta.runtime.modules.broken.start=eager",
        "meta.runtime.modules.broken.restart-policy=never"})
@DirtiesContext
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(60)
class MetaRuntimeApplicationTest {

    private static final FixtureModules MODULES = new FixtureModules();
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @DynamicPropertySource
    static void modules(DynamicPropertyRegistry registry) {
        MODULES.declare(registry, "tools");
        MODULES.declare(registry, "lazy");
        MODULES.declare(registry, "broken", "--fail-at", "initialize");
    }

    private static volatile boolean closed;

    @Autowired
    ConfigurableApplicationContext context;
    @Autowired
    UnifiedRuntime runtime;
    @Autowired
    MetaRuntimeHealthIndicator health;
    @Autowired
    MetaRuntimeToolCallbackProvider callbacks;
    @Autowired
    ScriptedChatModel chatModel;
    @Autowired
    TestObservationRegistry observations;

    private List<String> names() {
        return Arrays.stream(callbacks.getToolCallbacks()).map(c -> c.getToolDefinition().name()).toList();
    }

    private ToolCallback callback(String name) {
        return Arrays.stream(callbacks.getToolCallbacks()).filter(c -> c.getToolDefinition().name().equals(name))
                .findFirst().orElseThrow();
    }

    @Test
    @Order(1)
    @SuppressWarnings("unchecked")
    void theContextStartsAndHealthShowsEveryModule() {
        Health h = health.health();
        assertThat(h.getStatus()).isEqualTo(Status.UP);
        Map<String, Map<String, Object>> modules = (Map<String, Map<String, Object>>) h.getDetails().get("modules");
        assertThat(modules).containsOnlyKeys("tools", "lazy", "broken");
        assertThat(new ArrayList<>(modules.keySet())).containsExactly("tools", "lazy", "broken");
        assertThat(modules.get("tools")).containsEntry("state", "Healthy").containsEntry("required", true)
                .containsEntry("restarts", 0).containsKey("pid").doesNotContainKey("lastError");
        assertThat(modules.get("lazy")).containsEntry("state", "NotStarted").containsEntry("required", false)
                .doesNotContainKeys("pid", "lastError");
        assertThat(modules.get("broken")).containsEntry("state", "Stopped").doesNotContainKey("pid");
        assertThat((String) modules.get("broken").get("lastError")).isNotBlank();
        assertThat(h.getDetails()).containsEntry("down", List.of("broken")).containsEntry("degraded", true);
        assertThat(context.getBean("metaRuntimeHealthIndicator")).isSameAs(health);
        assertThat(context.getBean("metaRuntime")).isSameAs(runtime);
    }

    @Test
    @Order(2)
    void aLazyModuleSpawnsNothingWhileItsDeclaredToolsAreListed() {
        List<String> names = names();
        assertThat(names).contains("tools__echo", "tools__unicode", "lazy__unicode").doesNotContain("tools__hang")
                .noneMatch(name -> name.startsWith("broken__"));
        assertThat(names.indexOf("tools__echo")).isLessThan(names.indexOf("lazy__unicode"));
        assertThat(names).filteredOn(name -> name.startsWith("lazy__")).containsExactly("lazy__unicode");
        assertThat(MODULES.pids("lazy")).isEmpty();

        ToolCallback declared = callback("lazy__unicode");
        assertThat(declared.getToolDefinition().description()).isEqualTo("Answers with the text and fixed Unicode");
        assertThat(declared.getToolDefinition().inputSchema()).isEqualTo("{\"type\":\"object\",\"properties\":"
                + "{\"text\":{\"type\":\"string\",\"description\":\"any text\"}},\"required\":[\"text\"]}");
        assertThat(callback("tools__echo").getToolDefinition().description()).isEqualTo("tools__echo");
    }

    @Test
    @Order(3)
    void theChatClientCallsAModuleToolAndGetsItsAnswer() throws Exception {
        chatModel.script(List.of(toolCall("lazy__unicode", "{\"text\":\"naïve ✓ 𝄞\"}"), answerWithToolResponse()));

        String answer = ChatClient.builder(chatModel).build().prompt().user("use the tool")
                .toolCallbacks(callbacks).call().content();

        String expected = "{\"got\": \"naïve ✓ 𝄞\", \"fixed\": \"héllo 世界 🎉\"}";
        assertThat(answer).isEqualTo("the tool said: " + expected);
        assertThat(MODULES.pids("lazy")).hasSize(1);
        assertThat(names()).contains("lazy__echo", "lazy__unicode");
        assertThat(MAPPER.readTree(callback("lazy__unicode").call("{\"text\":\"x\"}")).get("fixed").asText())
                .isEqualTo("héllo 世界 🎉");
    }

    @Test
    @Order(4)
    void aToolErrorReachesSpringAiAsAToolExecutionException() {
        ToolCallback error = callback("tools__error");
        assertThatThrownBy(() -> error.call("{\"message\":\"no such city: Zürich\"}"))
                .isInstanceOfSatisfying(ToolExecutionException.class, e -> {
                    assertThat(e.getMessage()).isEqualTo("no such city: Zürich");
                    assertThat(e.getToolDefinition()).isSameAs(error.getToolDefinition());
                    assertThat(e.getCause()).isInstanceOf(RuntimeException.class)
                            .hasMessage("no such city: Zürich");
                });
        assertThatThrownBy(() -> error.call("[1, 2]")).isInstanceOfSatisfying(ToolExecutionException.class, e ->
                assertThat(e.getCause()).isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("tools").hasMessageContaining("must be a JSON object"));
        assertThat(callback("tools__echo").call(null)).isEmpty();
    }

    @Test
    @Order(5)
    void theCallbacksFollowAListChanged() {
        assertThat(names()).doesNotContain("tools__fresh_tool");
        runtime.mcp("tools").callTool("change_tools", MAPPER.createObjectNode().put("name", "fresh_tool"));
        await().atMost(Duration.ofSeconds(10)).until(() -> names().contains("tools__fresh_tool"));
        assertThat(callback("tools__fresh_tool").call("{}")).isEqualTo("late tool fresh_tool");
    }

    @Test
    @Order(6)
    void everyCallIsObserved() {
        observations.clear();
        callback("tools__echo").call("{\"text\":\"observed\"}");
        assertThatThrownBy(() -> callback("tools__error").call("{}")).isInstanceOf(ToolExecutionException.class);
        runtime.routeModuleCall(new org.metaruntime.core.ModuleRouteRequest("tools", "add",
                MAPPER.createObjectNode().put("a", 1).put("b", 2)));
        assertThatThrownBy(() -> runtime.mcp("broken")).isInstanceOf(ModuleRouteException.class);
        assertThatThrownBy(() -> runtime.routeModuleCall(new org.metaruntime.core.ModuleRouteRequest("broken", "echo",
                null))).isInstanceOf(ModuleRouteException.class);

        List<String> seen = new ArrayList<>();
        List<Throwable> errors = new ArrayList<>();
        observations.assertThat().hasHandledContextsThatSatisfy(contexts -> {
            for (Observation.Context c : contexts) {
                if (c.getName().equals("meta.runtime.call")) {
                    seen.add(c.getLowCardinalityKeyValue("module").getValue() + "/"
                            + c.getLowCardinalityKeyValue("tool").getValue() + "/"
                            + c.getLowCardinalityKeyValue("outcome").getValue());
                    if (c.getError() != null) {
                        errors.add(c.getError());
                    }
                }
            }
        });
        assertThat(seen).containsExactly("tools/echo/success", "tools/error/tool_error", "tools/add/success",
                "broken/echo/error");
        assertThat(errors).singleElement().isInstanceOf(ModuleRouteException.class);
    }

    @Test
    @Order(7)
    void aModuleThatCrashesDuringAToolCallIsAToolErrorTheModelReads() {
        chatModel.script(List.of(toolCall("tools__crash", "{}"), answerWithToolResponse()));

        String answer = ChatClient.builder(chatModel).build().prompt().user("crash it")
                .toolCallbacks(callbacks).call().content();

        assertThat(answer).startsWith("the tool said: ").contains("tools");
        assertThatThrownBy(() -> callback("lazy__crash").call("{}"))
                .isInstanceOfSatisfying(ToolExecutionException.class, e ->
                        assertThat(e.getCause()).isInstanceOf(ModuleRouteException.class).hasMessageContaining("lazy"));
    }

    /** The context is closed after this test; {@link #closingTheContextLeftNoProcess} checks what it left. */
    @Test
    @Order(8)
    @DirtiesContext(methodMode = DirtiesContext.MethodMode.AFTER_METHOD)
    void theLastTestClosesTheContext() {
        assertThat(MODULES.pids("tools")).isNotEmpty();
        assertThat(MODULES.pids("lazy")).isNotEmpty();
        assertThat(MODULES.pids("broken")).isNotEmpty();
        closed = true;
    }

    @AfterAll
    static void closingTheContextLeftNoProcess() {
        if (closed) {
            MODULES.assertAllGone("tools", "lazy", "broken");
        }
    }
}
