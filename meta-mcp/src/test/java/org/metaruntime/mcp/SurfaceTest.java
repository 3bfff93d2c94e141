package org.metaruntime.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole MCP surface of a module against {@code @modelcontextprotocol/server-everything} (and the python fixture
 * where server-everything has no such case): tool descriptors, whole results, resources, prompts, completion,
 * notifications, and server-to-client requests answered by the call's handler.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class SurfaceTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration T = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @RegisterExtension
    final OpenConnections opened = new OpenConnections();

    private McpConnection everything(McpClientOptions options) {
        McpConnection c = McpProbe.probe(Peers.everything("everything"), options, T).connection();
        opened.add(c);
        return c;
    }

    private McpSchema.Tool descriptor(McpConnection c, String name) {
        return c.toolDescriptors().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void toolDescriptorsAreKeptAsSent() {
        McpConnection c = everything(McpClientOptions.defaults());
        assertThat(c.toolDescriptors()).extracting(McpSchema.Tool::name).containsExactlyElementsOf(c.tools());
        McpSchema.Tool longRunning = descriptor(c, "trigger-long-running-operation");
        assertThat(longRunning.title()).isEqualTo("Trigger Long Running Operation Tool");
        assertThat(longRunning.description()).contains("progress");
        assertThat(longRunning.annotations().readOnlyHint()).isTrue();
        assertThat(longRunning.annotations().destructiveHint()).isFalse();
        assertThat(longRunning.inputSchema()).containsKey("properties");
        McpSchema.Tool structured = descriptor(c, "get-structured-content");
        assertThat(structured.outputSchema()).isNotNull().containsKey("properties");
    }

    @Test
    void wholeResultsKeepEveryContentBlock() {
        McpConnection c = everything(McpClientOptions.defaults());
        McpSchema.CallToolResult image = c.callToolResult("get-tiny-image", null, McpCallOptions.of(T));
        assertThat(image.content()).hasAtLeastOneElementOfType(McpSchema.ImageContent.class);
        McpSchema.ImageContent png = image.content().stream().filter(McpSchema.ImageContent.class::isInstance)
                .map(McpSchema.ImageContent.class::cast).findFirst().orElseThrow();
        assertThat(png.mimeType()).isEqualTo("image/png");
        assertThat(png.data()).isNotBlank();

        McpSchema.CallToolResult weather = c.callToolResult("get-structured-content",
                JSON.createObjectNode().put("location", "New York"), McpCallOptions.of(T));
        assertThat(weather.structuredContent()).isInstanceOfSatisfying(Map.class, m -> assertThat(m).containsKey("temperature"));
        assertThat(weather.content()).isNotEmpty();
        assertThat(weather.isError()).isNotEqualTo(Boolean.TRUE);

        McpSchema.CallToolResult links = c.callToolResult("get-resource-links", JSON.createObjectNode().put("count", 3),
                McpCallOptions.of(T));
        assertThat(links.content()).filteredOn(McpSchema.ResourceLink.class::isInstance).hasSize(3);
        assertThat(links.content().get(0)).isInstanceOf(McpSchema.TextContent.class);
    }

    @Test
    void isErrorIsAValueInTheWholeResult() {
        McpConnection c = McpProbe.probe(Peers.python("py", dir.resolve("pid")), McpClientOptions.defaults(), T).connection();
        opened.add(c);
        McpSchema.CallToolResult failed = c.callToolResult("error", JSON.createObjectNode().put("message", "bad input"),
                McpCallOptions.of(T));
        assertThat(failed.isError()).isTrue();
        assertThat(((McpSchema.TextContent) failed.content().get(0)).text()).isEqualTo("bad input");
    }

    @Test
    void aJsonRpcErrorKeepsItsCodeAndData() {
        McpConnection c = everything(McpClientOptions.defaults());
        McpBoundaryError e = catchThrowableOfType(McpBoundaryException.class,
                () -> c.readResource("demo://resource/dynamic/text/not-a-number", T)).error();
        assertThat(e).isInstanceOfSatisfying(McpBoundaryError.JsonRpcError.class, rpc -> {
            assertThat(rpc.operation()).isEqualTo("read_resource");
            assertThat(rpc.errorCode()).isNotZero();
            assertThat(rpc.errorMessage()).isNotBlank();
        });
        assertThat(e.code()).isEqualTo(McpBoundaryError.CODE_JSON_RPC_ERROR);
    }

    @Test
    void anyRequestIsAnsweredAsSentBlockingOrNot() {
        McpConnection c = everything(McpClientOptions.defaults());
        JsonNode listed = c.request("prompts/list", null, T);
        assertThat(listed.get("prompts")).isNotEmpty();
        assertThat(c.requestAsync("prompts/list", null, T).join()).isEqualTo(listed);

        CompletableFuture<JsonNode> unknown = c.requestAsync("no_such/method", JSON.createObjectNode(), T);
        ExecutionException failed = catchThrowableOfType(ExecutionException.class, () -> unknown.get(30, TimeUnit.SECONDS));
        assertThat(failed.getCause()).isInstanceOfSatisfying(McpBoundaryException.class, thrown ->
                assertThat(thrown.error()).isInstanceOfSatisfying(McpBoundaryError.JsonRpcError.class, rpc -> {
                    assertThat(rpc.operation()).isEqualTo("no_such/method");
                    assertThat(rpc.errorCode()).isEqualTo(-32601);
                }));
    }

    @Test
    void resourcesAreListedReadAndSubscribed() {
        McpConnection c = everything(McpClientOptions.defaults());
        List<McpSchema.JSONRPCNotification> seen = new CopyOnWriteArrayList<>();
        McpSubscription sub = c.subscribeNotifications(seen::add);

        List<McpSchema.Resource> resources = c.listResources(T);
        assertThat(resources).isNotEmpty();
        assertThat(resources).extracting(McpSchema.Resource::uri).allMatch(u -> u.startsWith("demo://"));
        List<McpSchema.ResourceTemplate> templates = c.listResourceTemplates(T);
        assertThat(templates).extracting(McpSchema.ResourceTemplate::uriTemplate)
                .contains("demo://resource/dynamic/text/{resourceId}", "demo://resource/dynamic/blob/{resourceId}");

        McpSchema.ReadResourceResult text = c.readResource("demo://resource/dynamic/text/1", T);
        assertThat(text.contents()).hasSize(1);
        assertThat(text.contents().get(0)).isInstanceOf(McpSchema.TextResourceContents.class);
        McpSchema.ReadResourceResult blob = c.readResource("demo://resource/dynamic/blob/2", T);
        assertThat(blob.contents().get(0)).isInstanceOf(McpSchema.BlobResourceContents.class);
        assertThat(c.surfaceAsync(McpSurfaceRequest.readResource("demo://resource/dynamic/text/1"), T).join())
                .isEqualTo(text);

        String uri = "demo://resource/dynamic/text/1";
        c.subscribeResource(uri, T);
        // the server acknowledges a subscription with a log message
        await().atMost(T).until(() -> seen.stream().anyMatch(n -> n.method().equals(McpSchema.METHOD_NOTIFICATION_MESSAGE)
                && String.valueOf(n.params()).contains(uri)));
        c.callTool("toggle-subscriber-updates", null, T);
        await().atMost(T).until(() -> seen.stream().anyMatch(n -> n.method().equals(McpSchema.METHOD_NOTIFICATION_RESOURCES_UPDATED)
                && ((JsonNode) n.params()).path("uri").asText().equals(uri)));
        c.unsubscribeResource(uri, T);
        c.callTool("toggle-subscriber-updates", null, T);
        sub.close();
        assertThat(sub.isClosed()).isTrue();
    }

    @Test
    void promptsAndCompletion() {
        McpConnection c = everything(McpClientOptions.defaults());
        List<McpSchema.Prompt> prompts = c.listPrompts(T);
        assertThat(prompts).extracting(McpSchema.Prompt::name).contains("simple-prompt", "args-prompt", "completable-prompt");
        McpSchema.GetPromptResult prompt = c.getPrompt("args-prompt", Map.of("city", "Paris"), T);
        assertThat(prompt.messages()).isNotEmpty();
        assertThat(((McpSchema.TextContent) prompt.messages().get(0).content()).text()).contains("Paris");
        McpSchema.GetPromptResult simple = c.getPrompt("simple-prompt", null, T);
        assertThat(simple.messages()).isNotEmpty();

        McpSchema.CompleteResult departments = c.complete(new McpSchema.CompleteRequest(
                new McpSchema.PromptReference("completable-prompt"),
                new McpSchema.CompleteRequest.CompleteArgument("department", "S")), T);
        assertThat(departments.completion().values()).containsExactlyInAnyOrder("Sales", "Support");
        McpSchema.CompleteResult names = c.complete(new McpSchema.CompleteRequest(
                new McpSchema.PromptReference("completable-prompt"),
                new McpSchema.CompleteRequest.CompleteArgument("name", ""),
                new McpSchema.CompleteRequest.CompleteContext(Map.of("department", "Engineering"))), T);
        assertThat(names.completion().values()).containsExactly("Alice", "Bob", "Charlie");
    }

    @Test
    void samplingDuringACallIsAnsweredByThatCallsHandler() {
        McpConnection c = everything(McpClientOptions.builder().announceSampling(true).build());
        List<String> modules = new CopyOnWriteArrayList<>();
        McpCallOptions options = McpCallOptions.builder(T).samplingHandler((module, params) -> {
            modules.add(module);
            String asked = params.at("/messages/0/content/text").asText();
            return CompletableFuture.completedFuture(JSON.createObjectNode().put("role", "assistant").put("model", "test-model")
                    .put("stopReason", "endTurn")
                    .set("content", JSON.createObjectNode().put("type", "text").put("text", "answer to " + asked)));
        }).build();
        McpSchema.CallToolResult result = c.callToolResult("trigger-sampling-request",
                JSON.createObjectNode().put("prompt", "what is 6 x 7?").put("maxTokens", 10), options);
        String text = ((McpSchema.TextContent) result.content().get(0)).text();
        assertThat(text).contains("test-model").contains("answer to").contains("what is 6 x 7?");
        assertThat(modules).containsExactly("everything");

        // without a handler for the call, and none on the connection, the server gets -32601
        McpSchema.CallToolResult refused = c.callToolResult("trigger-sampling-request",
                JSON.createObjectNode().put("prompt", "again"), McpCallOptions.of(T));
        assertThat(refused.isError()).isTrue();
        assertThat(((McpSchema.TextContent) refused.content().get(0)).text()).contains("-32601");
    }
}
