package org.metaruntime.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonReferenceSchema;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.langchain4j.service.tool.ToolProviderRequest;
import dev.langchain4j.service.tool.ToolProviderResult;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.metaruntime.core.MetaConfig;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.core.ModuleRouteRequest;
import org.metaruntime.core.StartMode;
import org.metaruntime.core.UnifiedRuntime;
import org.metaruntime.testing.CapturedLogs;
import org.metaruntime.testing.FixtureScripts;
import org.metaruntime.test.InjectRuntime;
import org.metaruntime.test.MetaRuntimeTest;
import org.metaruntime.test.ModuleSource;
import org.slf4j.event.Level;

/**
 * The provider over real module processes (the python MCP fixture server), driven by langchain4j's own
 * {@link AiServices} with a scripted chat model: the model asks for a tool call, langchain4j runs it through the
 * provider, and the model's second answer quotes what the tool returned. Each test has its own runtime, and no
 * module process outlives it ({@link MetaRuntimeTest}).
 */
@MetaRuntimeTest
@Timeout(120)
class MetaRuntimeToolProviderTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final ToolProviderRequest REQUEST = new ToolProviderRequest("memory", UserMessage.from("hi"));

    @InjectRuntime
    UnifiedRuntime runtime;

    /** The assistant of the tests: one user message in, the model's last text out. */
    interface Assistant {
        String chat(String message);
    }

    /** A chat model that first asks for one tool call, then answers with the text of the tool's result. */
    static final class ScriptedModel implements ChatModel {
        private final String tool;
        private final String arguments;
        final List<ChatRequest> requests = new CopyOnWriteArrayList<>();
        final List<ToolExecutionResultMessage> results = new CopyOnWriteArrayList<>();

        ScriptedModel(String tool, String arguments) {
            this.tool = tool;
            this.arguments = arguments;
        }

        @Override
        public ChatResponse doChat(ChatRequest request) {
            requests.add(request);
            ChatMessage last = request.messages().get(request.messages().size() - 1);
            if (last instanceof ToolExecutionResultMessage result) {
                results.add(result);
                return ChatResponse.builder().aiMessage(AiMessage.from("the tool said: " + result.text())).build();
            }
            return ChatResponse.builder().aiMessage(AiMessage.from(ToolExecutionRequest.builder().id("call-1")
                    .name(tool).arguments(arguments).build())).build();
        }
    }

    private static List<String> server(String... switches) {
        return FixtureScripts.mcpServerCommand(switches);
    }

    private static McpSchema.Tool declared(String name, String description, String schema) throws Exception {
        @SuppressWarnings("unchecked")
        Map<String, Object> inputSchema = MAPPER.readValue(schema.replace('\'', '"'), Map.class);
        return McpSchema.Tool.builder(name).description(description).inputSchema(inputSchema).build();
    }

    @ModuleSource
    static MetaConfig modules() throws Exception {
        return MetaConfig.builder()
                .mcp(ModuleConfig.builder("echo").command(server()).build())
                .mcp(ModuleConfig.builder("seats").command(server()).build())
                .mcp(ModuleConfig.builder("fragile").command(server()).build())
                .module(ModuleConfig.builder("typed").command(server()).bare(List.of(
                        declared("echo", "Echoes text", "{'type':'object','properties':{"
                                + "'text':{'type':'string','description':'what to echo'},"
                                + "'mode':{'type':'string','enum':['plain','loud']},"
                                + "'at':{'$ref':'#/$defs/Point'}},'required':['text'],'additionalProperties':false,"
                                + "'$defs':{'Point':{'type':'object','properties':{'x':{'type':'number'}}}}}"),
                        declared("add", "Adds", "{'type':'object','properties':{'a':{'type':'integer','minimum':0}}}"),
                        McpSchema.Tool.builder("titled").title("A tool with a title only")
                                .inputSchema(Map.of("type", "object")).build()))
                        .build())
                .mcp(ModuleConfig.builder("later").command(server()).startMode(StartMode.LAZY).build())
                .mcp(ModuleConfig.builder("slowpoke").command(server()).callTimeout(Duration.ofMillis(500)).build())
                .module(ModuleConfig.builder("lines").command(FixtureScripts.eventLineModuleCommand("lines"))
                        .env("FIXTURE_MODE", "stay").build())
                .mcp(ModuleConfig.builder("broken").command(server("--fail-at", "initialize")).build())
                .discover("echo", "seats", "fragile", "typed", "lines", "broken", "later", "slowpoke")
                .build();
    }

    @BeforeEach
    void everyModuleButTheBrokenOneIsLoadedAndTheLogsAreClear() {
        assertThat(runtime.loadedModules()).contains("echo", "seats", "fragile", "typed", "lines", "slowpoke")
                .doesNotContain("broken");
        assertThat(CapturedLogs.installed()).isTrue();
        CapturedLogs.clear();
    }

    private static Map<String, ToolSpecification> specifications(MetaRuntimeToolProvider provider) {
        Map<String, ToolSpecification> byName = new java.util.LinkedHashMap<>();
        provider.provideTools(REQUEST).tools().keySet().forEach(spec -> byName.put(spec.name(), spec));
        return byName;
    }

    private static ToolExecutor executor(MetaRuntimeToolProvider provider, String name) {
        return provider.provideTools(REQUEST).toolExecutorByName(name);
    }

    private String ask(ScriptedModel model) {
        Assistant assistant = AiServices.builder(Assistant.class).chatModel(model)
                .toolProvider(MetaRuntimeToolProvider.builder(runtime).build()).build();
        return assistant.chat("please use the tool");
    }

    // ------------------------------------------------------------------------------------------------ listing

    @Test
    void everyLoadedMcpModuleToolIsOfferedUnderItsOutwardNameInDiscoveryOrder() {
        MetaRuntimeToolProvider provider = MetaRuntimeToolProvider.builder(runtime).build();
        assertThat(provider.isDynamic()).isFalse();
        Map<String, ToolSpecification> specs = specifications(provider);
        List<String> names = List.copyOf(specs.keySet());
        assertThat(names).contains("echo__echo", "echo__error", "echo__unicode", "seats__echo", "typed__echo")
                .noneMatch(name -> name.startsWith("lines__") || name.startsWith("broken__"))
                .doesNotContain("typed__add");
        assertThat(names.indexOf("echo__echo")).isLessThan(names.indexOf("seats__echo"));
        assertThat(names.indexOf("seats__echo")).isLessThan(names.indexOf("typed__echo"));
        assertThat(specs.get("echo__echo").description()).isEqualTo("echo__echo");
        assertThat(specs.get("typed__titled").description()).isEqualTo("A tool with a title only");
        assertThat(specs.get("echo__echo").parameters()).isEqualTo(JsonObjectSchema.builder().build());
    }

    @Test
    void theSchemaOfADeclaredToolIsMappedAndOneItCannotExpressIsLeftOutWithOneWarning() {
        MetaRuntimeToolProvider provider = MetaRuntimeToolProvider.builder(runtime).build();
        ToolSpecification echo = specifications(provider).get("typed__echo");
        assertThat(echo.description()).isEqualTo("Echoes text");
        assertThat(echo.parameters().properties()).containsEntry("text",
                JsonStringSchema.builder().description("what to echo").build())
                .containsEntry("mode", JsonEnumSchema.builder().enumValues("plain", "loud").build())
                .containsEntry("at", JsonReferenceSchema.builder().reference("Point").build());
        assertThat(echo.parameters().required()).containsExactly("text");
        assertThat(echo.parameters().additionalProperties()).isFalse();
        assertThat(echo.parameters().definitions()).containsOnlyKeys("Point");

        specifications(provider);
        List<CapturedLogs.Entry> warnings = CapturedLogs.matching(e -> e.level() == Level.WARN
                && e.logger().equals(MetaRuntimeToolProvider.class.getName()));
        assertThat(warnings).hasSize(1);
        assertThat(warnings.get(0).message()).contains("\"add\"").contains("\"typed\"").contains("minimum");
    }

    @Test
    void theFilterSeesTheModuleAndTheToolAsListedAndHidesWhatItRefuses() {
        List<String> seen = new CopyOnWriteArrayList<>();
        MetaRuntimeToolProvider provider = MetaRuntimeToolProvider.builder(runtime).filter((moduleId, tool) -> {
            seen.add(moduleId + "/" + tool.name());
            return !(moduleId.equals("echo") && tool.name().equals("error"));
        }).build();
        Map<String, ToolSpecification> specs = specifications(provider);
        assertThat(specs).doesNotContainKey("echo__error").containsKey("seats__error").containsKey("echo__echo");
        assertThat(seen).contains("echo/error", "typed/echo");
    }

    @Test
    void aSeatVerbIsOfferedAsSeatUnderscoreVerbAndCallsTheToolByItsOwnName() {
        runtime.routeModuleCall(new ModuleRouteRequest("seats", "change_tools",
                MAPPER.createObjectNode().put("name", "calendar.book")), Duration.ofSeconds(20));
        MetaRuntimeToolProvider provider = MetaRuntimeToolProvider.builder(runtime).build();
        await().atMost(Duration.ofSeconds(20)).until(() -> specifications(provider).containsKey("seats__calendar_book"));
        ToolExecutionResult result = executor(provider, "seats__calendar_book").executeWithContext(
                ToolExecutionRequest.builder().id("1").name("seats__calendar_book").arguments("{}").build(), null);
        assertThat(result.isError()).isFalse();
        assertThat(result.resultText()).isEqualTo("late tool calendar.book");
    }

    // ------------------------------------------------------------------------------- AiServices and execution

    @Test
    void anAiServiceCallsAModuleToolAndTheModelReadsItsAnswerUnicodeIncluded() {
        ScriptedModel model = new ScriptedModel("echo__echo", "{\"text\":\"héllo 世界 🎉\"}");
        assertThat(ask(model)).isEqualTo("the tool said: héllo 世界 🎉");
        assertThat(model.requests.get(0).toolSpecifications()).extracting(ToolSpecification::name)
                .contains("echo__echo");
        assertThat(model.results).singleElement().satisfies(r -> assertThat(r.isError()).isNotEqualTo(Boolean.TRUE));
    }

    @Test
    void aStructuredResultReachesTheModelAsCompactJson() {
        ScriptedModel model = new ScriptedModel("echo__structured", "{\"value\":{\"city\":\"Zürich\",\"n\":1}}");
        assertThat(ask(model)).isEqualTo("the tool said: {\"city\":\"Zürich\",\"n\":1}");
    }

    @Test
    void anIsErrorResultIsAToolErrorTheModelReads() {
        ScriptedModel model = new ScriptedModel("echo__error", "{\"message\":\"no such city\"}");
        assertThat(ask(model)).isEqualTo("the tool said: no such city");
        assertThat(model.results).singleElement().satisfies(r -> assertThat(r.isError()).isTrue());

        ToolExecutor executor = executor(MetaRuntimeToolProvider.builder(runtime).build(), "echo__error");
        ToolExecutionRequest request = ToolExecutionRequest.builder().id("2").name("echo__error")
                .arguments("{\"message\":\"refused\"}").build();
        ToolExecutionResult result = executor.executeWithContext(request, null);
        assertThat(result.isError()).isTrue();
        assertThat(result.resultText()).isEqualTo("refused");
        assertThat(executor.execute(request, "memory")).isEqualTo("refused");
    }

    @Test
    void aModuleThatCrashesDuringTheCallIsAToolErrorNamingTheModuleNotAnException() {
        ScriptedModel model = new ScriptedModel("fragile__crash", "{}");
        String answer = ask(model);
        assertThat(answer).startsWith("the tool said: ").contains("'fragile'");
        assertThat(model.results).singleElement().satisfies(r -> assertThat(r.isError()).isTrue());
    }

    @Test
    void argumentsThatAreNotAJsonObjectAreAToolErrorAndNeverReachTheModule() {
        ScriptedModel model = new ScriptedModel("echo__echo_arguments", "[1, 2]");
        String answer = ask(model);
        assertThat(answer).contains("module 'echo'").contains("must be a JSON object");
        ToolExecutor executor = executor(MetaRuntimeToolProvider.builder(runtime).build(), "echo__echo_arguments");
        for (String bad : List.of("\"text\"", "not json", "{\"a\":1} trailing")) {
            ToolExecutionResult result = executor.executeWithContext(ToolExecutionRequest.builder().id("3")
                    .name("echo__echo_arguments").arguments(bad).build(), null);
            assertThat(result.isError()).as(bad).isTrue();
            assertThat(result.resultText()).as(bad).contains("module 'echo'");
        }
        for (String empty : new String[] {null, "", "  "}) {
            ToolExecutionResult result = executor.executeWithContext(ToolExecutionRequest.builder().id("4")
                    .name("echo__echo_arguments").arguments(empty).build(), null);
            assertThat(result.isError()).isFalse();
            assertThat(result.resultText()).isEqualTo("{}");
        }
    }

    @Test
    void listingStartsALazyModule() {
        assertThat(runtime.supervisorReport().get("later").pid()).isEmpty();
        Map<String, ToolSpecification> specs = specifications(MetaRuntimeToolProvider.builder(runtime).build());
        assertThat(specs).containsKey("later__echo");
        assertThat(runtime.supervisorReport().get("later").pid()).isPresent();
    }

    @Test
    void aCallThatTimesOutIsAToolErrorNamingTheModule() {
        ToolExecutor executor = executor(MetaRuntimeToolProvider.builder(runtime).build(), "slowpoke__slow");
        ToolExecutionResult result = executor.executeWithContext(ToolExecutionRequest.builder().id("5")
                .name("slowpoke__slow").arguments("{\"ms\": 60000}").build(), null);
        assertThat(result.isError()).isTrue();
        assertThat(result.resultText()).contains("'slowpoke'").contains("within 500 ms");
    }

    @Test
    void aLazyListingNeverThrowsForAModuleThatCannotList() {
        ToolProviderResult result = MetaRuntimeToolProvider.builder(runtime).build().provideTools(REQUEST);
        assertThat(result.tools().keySet()).extracting(ToolSpecification::name)
                .noneMatch(name -> name.startsWith("broken__"));
    }
}
