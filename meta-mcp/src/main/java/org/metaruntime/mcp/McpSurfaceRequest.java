package org.metaruntime.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.metaruntime.mcp.internal.Json;

/**
 * One request of an MCP server's surface beyond tools: resources (list, templates, read, subscribe, unsubscribe),
 * prompts (list, get) and completion. {@link Method} is the table of that surface (each request's method, the
 * operation its failures name, the array a list pages through, the record its result reads as), written once: a
 * connection ({@link McpConnection#surface}), the runtime's {@code McpModule} and the gateway send these requests.
 * A list follows every page. Immutable.
 *
 * <pre>{@code
 * List<McpSchema.Resource> resources = connection.surface(McpSurfaceRequest.listResources(), Duration.ofSeconds(5));
 * // a client's request passed on, its answer as JSON:
 * JsonNode read = connection.surface(McpSurfaceRequest.Method.READ_RESOURCE.fromWire(params), timeout);
 * }</pre>
 *
 * @param <T> what the request is answered with
 */
public final class McpSurfaceRequest<T> {

    /** The requests of the surface, each with what its answer is read as. */
    public enum Method {
        /** {@code resources/list}: every page of {@code resources}, as {@code List<McpSchema.Resource>}. */
        LIST_RESOURCES(McpSchema.METHOD_RESOURCES_LIST, "list_resources", "resources", McpSchema.Resource.class),
        /** {@code resources/templates/list}: every page of {@code resourceTemplates}. */
        LIST_RESOURCE_TEMPLATES(McpSchema.METHOD_RESOURCES_TEMPLATES_LIST, "list_resource_templates", "resourceTemplates",
                McpSchema.ResourceTemplate.class),
        /** {@code resources/read} of {@code uri}. */
        READ_RESOURCE(McpSchema.METHOD_RESOURCES_READ, "read_resource", null, McpSchema.ReadResourceResult.class),
        /** {@code resources/subscribe} to {@code uri}; no result. */
        SUBSCRIBE_RESOURCE(McpSchema.METHOD_RESOURCES_SUBSCRIBE, "subscribe_resource", null, null),
        /** {@code resources/unsubscribe} from {@code uri}; no result. */
        UNSUBSCRIBE_RESOURCE(McpSchema.METHOD_RESOURCES_UNSUBSCRIBE, "unsubscribe_resource", null, null),
        /** {@code prompts/list}: every page of {@code prompts}. */
        LIST_PROMPTS(McpSchema.METHOD_PROMPT_LIST, "list_prompts", "prompts", McpSchema.Prompt.class),
        /** {@code prompts/get} of {@code name} with {@code arguments}. */
        GET_PROMPT(McpSchema.METHOD_PROMPT_GET, "get_prompt", null, McpSchema.GetPromptResult.class),
        /** {@code completion/complete}. */
        COMPLETE(McpSchema.METHOD_COMPLETION_COMPLETE, "complete", null, McpSchema.CompleteResult.class);

        private final String wireName;
        private final String operation;
        private final String listField;
        private final Class<?> type;

        Method(String wireName, String operation, String listField, Class<?> type) {
            this.wireName = wireName;
            this.operation = operation;
            this.listField = listField;
            this.type = type;
        }

        /** The JSON-RPC method ({@code resources/read}, ...). */
        public String wireName() {
            return wireName;
        }

        /** The operation its failures name ({@code read_resource}, ...). */
        public String operation() {
            return operation;
        }

        /** For a list, the result's array every page adds to; empty for any other request. */
        public Optional<String> listField() {
            return Optional.ofNullable(listField);
        }

        /** The method whose JSON-RPC name is {@code wireName}, if it is one of the surface. */
        public static Optional<Method> of(String wireName) {
            return Arrays.stream(values()).filter(m -> m.wireName.equals(wireName)).findFirst();
        }

        /**
         * This request as a client sent it ({@code params} read as its typed form would send them: {@code uri};
         * {@code name} and {@code arguments}; the {@code CompleteRequest}), answered with the result as JSON: the
         * record the server's answer reads as, written back (a list as {@code {<field>: [every item]}}, a request
         * without result as {@code {}}).
         */
        public McpSurfaceRequest<JsonNode> fromWire(JsonNode params) {
            JsonNode p = params == null ? Json.MAPPER.createObjectNode() : params;
            ObjectNode sent = switch (this) {
                case LIST_RESOURCES, LIST_RESOURCE_TEMPLATES, LIST_PROMPTS -> Json.MAPPER.createObjectNode();
                case READ_RESOURCE, SUBSCRIBE_RESOURCE, UNSUBSCRIBE_RESOURCE -> uri(p.path("uri").asText());
                case GET_PROMPT -> prompt(p.path("name").asText(), p.has("arguments")
                        ? Json.MAPPER.convertValue(p.get("arguments"), Map.class) : Map.of());
                case COMPLETE -> Json.MAPPER.valueToTree(Json.MAPPER.convertValue(p, McpSchema.CompleteRequest.class));
            };
            return new McpSurfaceRequest<>(this, sent, this::toWire);
        }

        /** One item of a list's page, or a whole answer, read as this method's record ({@code null}: no result). */
        public Object read(JsonNode json) {
            if (type == null) {
                return null;
            }
            return type == JsonNode.class ? json : Json.MCP_MAPPER.convertValue(json, type);
        }

        private JsonNode toWire(Object value) {
            if (value == null) {
                return Json.MAPPER.createObjectNode();
            }
            if (listField != null) {
                ObjectNode out = Json.MAPPER.createObjectNode();
                out.set(listField, Json.MAPPER.valueToTree(value));
                return out;
            }
            return Json.MAPPER.valueToTree(value);
        }
    }

    private final Method method;
    private final ObjectNode params;
    private final Function<Object, T> answer;

    private McpSurfaceRequest(Method method, ObjectNode params, Function<Object, T> answer) {
        this.method = Objects.requireNonNull(method, "method");
        this.params = Objects.requireNonNull(params, "params");
        this.answer = Objects.requireNonNull(answer, "answer");
    }

    /** {@code resources/list}. */
    public static McpSurfaceRequest<List<McpSchema.Resource>> listResources() {
        return typed(Method.LIST_RESOURCES, Json.MAPPER.createObjectNode());
    }

    /** {@code resources/templates/list}. */
    public static McpSurfaceRequest<List<McpSchema.ResourceTemplate>> listResourceTemplates() {
        return typed(Method.LIST_RESOURCE_TEMPLATES, Json.MAPPER.createObjectNode());
    }

    /** {@code resources/read} of {@code uri}. */
    public static McpSurfaceRequest<McpSchema.ReadResourceResult> readResource(String uri) {
        return typed(Method.READ_RESOURCE, uri(Objects.requireNonNull(uri, "uri")));
    }

    /** {@code resources/subscribe}: the server then sends {@code notifications/resources/updated} for {@code uri}. */
    public static McpSurfaceRequest<Void> subscribeResource(String uri) {
        return typed(Method.SUBSCRIBE_RESOURCE, uri(Objects.requireNonNull(uri, "uri")));
    }

    /** {@code resources/unsubscribe} from {@code uri}. */
    public static McpSurfaceRequest<Void> unsubscribeResource(String uri) {
        return typed(Method.UNSUBSCRIBE_RESOURCE, uri(Objects.requireNonNull(uri, "uri")));
    }

    /** {@code prompts/list}. */
    public static McpSurfaceRequest<List<McpSchema.Prompt>> listPrompts() {
        return typed(Method.LIST_PROMPTS, Json.MAPPER.createObjectNode());
    }

    /** {@code prompts/get} of {@code name} with {@code arguments} (null for none). */
    public static McpSurfaceRequest<McpSchema.GetPromptResult> getPrompt(String name, Map<?, ?> arguments) {
        return typed(Method.GET_PROMPT, prompt(Objects.requireNonNull(name, "name"), arguments));
    }

    /** {@code completion/complete}. */
    public static McpSurfaceRequest<McpSchema.CompleteResult> complete(McpSchema.CompleteRequest request) {
        return typed(Method.COMPLETE, Json.MAPPER.valueToTree(Objects.requireNonNull(request, "request")));
    }

    /** The request's row of the surface. */
    public Method method() {
        return method;
    }

    /** The params sent (a copy). */
    public ObjectNode params() {
        return params.deepCopy();
    }

    /**
     * The request's answer from what the server sent, read by {@link Method#read}: the record, a list's items in
     * server order, or null for a request without result.
     */
    T answer(Object read) {
        return answer.apply(read);
    }

    @SuppressWarnings("unchecked")
    private static <T> McpSurfaceRequest<T> typed(Method method, ObjectNode params) {
        return new McpSurfaceRequest<>(method, params, value -> (T) value);
    }

    private static ObjectNode uri(String uri) {
        return Json.MAPPER.createObjectNode().put("uri", uri);
    }

    private static ObjectNode prompt(String name, Map<?, ?> arguments) {
        ObjectNode params = Json.MAPPER.createObjectNode().put("name", name);
        if (arguments != null) {
            params.set("arguments", Json.MAPPER.valueToTree(arguments));
        }
        return params;
    }

    @Override
    public String toString() {
        return "McpSurfaceRequest[" + method.wireName + " " + params + "]";
    }
}
