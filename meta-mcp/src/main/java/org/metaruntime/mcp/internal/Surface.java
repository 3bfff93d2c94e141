package org.metaruntime.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpBoundaryException;

/**
 * The MCP surface of a server beyond tools: resources (list, templates, read, subscribe, unsubscribe), prompts
 * (list, get) and completion, each a request through the connection's {@link CallWindow} with its own deadline,
 * every list following all its pages, each answer converted to the SDK's record. Thread-safe.
 */
public final class Surface {

    private final CallWindow window;

    /** The surface requested through {@code window}. */
    public Surface(CallWindow window) {
        this.window = window;
    }

    /** {@code resources/list}, every page. */
    public CompletableFuture<List<McpSchema.Resource>> listResources(long timeoutMs, long deadline) {
        return list(McpSchema.METHOD_RESOURCES_LIST, "list_resources", "resources", McpSchema.Resource.class,
                timeoutMs, deadline);
    }

    /** {@code resources/templates/list}, every page. */
    public CompletableFuture<List<McpSchema.ResourceTemplate>> listResourceTemplates(long timeoutMs, long deadline) {
        return list(McpSchema.METHOD_RESOURCES_TEMPLATES_LIST, "list_resource_templates", "resourceTemplates",
                McpSchema.ResourceTemplate.class, timeoutMs, deadline);
    }

    /** {@code prompts/list}, every page. */
    public CompletableFuture<List<McpSchema.Prompt>> listPrompts(long timeoutMs, long deadline) {
        return list(McpSchema.METHOD_PROMPT_LIST, "list_prompts", "prompts", McpSchema.Prompt.class, timeoutMs, deadline);
    }

    /** {@code resources/read}. */
    public CompletableFuture<McpSchema.ReadResourceResult> readResource(String uri, long timeoutMs, long deadline) {
        ObjectNode params = Json.MAPPER.createObjectNode().put("uri", uri);
        return request(McpSchema.METHOD_RESOURCES_READ, "read_resource", params, McpSchema.ReadResourceResult.class,
                timeoutMs, deadline);
    }

    /** {@code resources/subscribe} or {@code resources/unsubscribe} ({@code method}) for {@code uri}. */
    public CompletableFuture<Void> subscribe(String method, String operation, String uri, long timeoutMs, long deadline) {
        ObjectNode params = Json.MAPPER.createObjectNode().put("uri", uri);
        return request(method, operation, params, JsonNode.class, timeoutMs, deadline).thenApply(ignored -> null);
    }

    /** {@code prompts/get}. */
    public CompletableFuture<McpSchema.GetPromptResult> getPrompt(String name, Map<String, Object> arguments,
                                                                 long timeoutMs, long deadline) {
        ObjectNode params = Json.MAPPER.createObjectNode().put("name", name);
        if (arguments != null) {
            params.set("arguments", Json.MAPPER.valueToTree(arguments));
        }
        return request(McpSchema.METHOD_PROMPT_GET, "get_prompt", params, McpSchema.GetPromptResult.class,
                timeoutMs, deadline);
    }

    /** {@code completion/complete}. */
    public CompletableFuture<McpSchema.CompleteResult> complete(McpSchema.CompleteRequest request, long timeoutMs,
                                                               long deadline) {
        ObjectNode params = Json.MAPPER.valueToTree(request);
        return request(McpSchema.METHOD_COMPLETION_COMPLETE, "complete", params, McpSchema.CompleteResult.class,
                timeoutMs, deadline);
    }

    /** Any request {@code method} with {@code params}: the server's result as sent. */
    public CompletableFuture<JsonNode> send(String method, ObjectNode params, long timeoutMs, long deadline) {
        return request(method, method, params, JsonNode.class, timeoutMs, deadline);
    }

    /**
     * {@code ping} (a modern server, which has no {@code ping}: {@code server/discover}): completes when the server
     * answered.
     */
    public CompletableFuture<Void> ping(long timeoutMs, long deadline) {
        String method = window.envelope().isModern() ? Discovery.METHOD : McpSchema.METHOD_PING;
        return request(method, "ping", Json.MAPPER.createObjectNode(), JsonNode.class, timeoutMs, deadline)
                .thenApply(ignored -> null);
    }

    private <T> CompletableFuture<List<T>> list(String method, String operation, String field, Class<T> type,
                                                long timeoutMs, long deadline) {
        String moduleId = window.moduleId();
        return Pages.all(window, Request.Kind.SURFACE, method, operation, field,
                item -> Json.MCP_MAPPER.convertValue(item, type),
                reason -> new McpBoundaryError.RequestFailed(moduleId, operation, reason), timeoutMs, deadline);
    }

    private <T> CompletableFuture<T> request(String method, String operation, ObjectNode params, Class<T> type,
                                             long timeoutMs, long deadline) {
        Request r = window.create(Request.Kind.SURFACE, method, operation, null, params, timeoutMs, deadline, null);
        window.submit(r);
        return r.future().thenApply(result -> {
            if (type == JsonNode.class) {
                return type.cast(result);
            }
            try {
                return Json.MCP_MAPPER.convertValue(result, type);
            } catch (RuntimeException e) {
                throw new McpBoundaryException(new McpBoundaryError.RequestFailed(window.moduleId(), operation,
                        "the server sent an invalid " + method + " result: " + e.getMessage()), e);
            }
        });
    }
}
