package org.metaruntime.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.metaruntime.events.Subscription;
import org.metaruntime.mcp.McpSurfaceRequest;
import org.metaruntime.mcp.McpToolCall;
import org.metaruntime.supervisor.internal.Failures;

/**
 * The whole MCP surface of one module, from {@link UnifiedRuntime#mcp(String)}: the tool descriptors as the server
 * sent them, tool calls with their whole {@code CallToolResult}, resources, prompts, completion and the server's
 * notifications. These are the MCP SDK's own record types ({@code McpSchema.*}).
 *
 * <pre>{@code
 * McpModule files = runtime.mcp("files");
 * McpSchema.CallToolResult listing = files.callTool("list_directory", mapper.readTree("{\"path\":\"/srv\"}"));
 * if (Boolean.TRUE.equals(listing.isError())) {            // a value here, not an exception
 *     log.warn("the tool refused: {}", listing.content());
 * }
 * try (Subscription changes = files.subscribeNotifications(n -> log.info("{}", n.method()))) { ... }
 * }</pre>
 *
 * <p><b>Payloads.</b> {@code routeModuleCall} answers with a projection of the result: its
 * {@code structuredContent} when present; else, when every content block is text, the texts concatenated and parsed
 * as JSON when they parse (numbers kept exactly as written), else that text as a JSON string; else the content
 * blocks as a JSON array. A result with {@code isError: true} fails the routed call with
 * {@code McpBoundaryError.ToolReturnedError}, which carries the whole result. Use this interface when the
 * projection is not enough.
 *
 * <p>Every operation goes through the runtime's checks (the module is loaded and takes calls; a lazy module is started
 * first) and is bounded by the module's call timeout; failures throw {@link ModuleRouteException} with the errors of
 * {@code routeModuleCall}. The module's current session serves each operation, so after a restart the next
 * operation reaches the new server; notification listeners stay subscribed across restarts.
 *
 * <p>Thread-safe.
 */
public interface McpModule {

    /** The module's id. */
    String moduleId();

    /**
     * The MCP protocol version in use with the module's current process or connection: {@code "2026-07-28"} for a
     * modern server, else the legacy version {@code initialize} agreed (null for a bare JSON-RPC module). A new
     * process (after a restart) may speak another.
     */
    String protocolVersion();

    /**
     * The capabilities the module's current process or connection announced ({@code initialize} or
     * {@code server/discover}, extensions included); null for a bare JSON-RPC module.
     */
    default McpSchema.ServerCapabilities serverCapabilities() {
        return null;
    }

    /**
     * Sends the request {@code method} with {@code params} (an extension's request, such as {@code tasks/get}) with
     * the module's call timeout, and returns the server's result as sent. {@code params._meta} is kept.
     *
     * @throws UnsupportedOperationException when the module does not send requests of its caller's choosing
     */
    default JsonNode request(String method, ObjectNode params) {
        throw new UnsupportedOperationException(method + " is not sent to module " + moduleId());
    }

    /**
     * Like {@link #request}, without blocking the caller: a lazy module is started off its thread, and the answer
     * completes the future (dependent stages may run on the runtime's threads: they must not block); a failure fails
     * it with the exception {@link #request} throws. By default, {@link #request} on the caller's thread.
     */
    default CompletableFuture<JsonNode> requestAsync(String method, ObjectNode params) {
        return Failures.answered(() -> request(method, params));
    }

    /** The tools in server order, as sent (name, title, description, schemas, annotations, {@code _meta}). */
    List<McpSchema.Tool> tools();

    /**
     * The tools like {@link #tools()}, without blocking the caller: a lazy module is started off the caller's thread
     * (a pre-warm), as for {@link #startCall}, and the future completes with the tools once it runs, or exceptionally
     * with the {@link ModuleRouteException} {@link #tools()} would throw. While the module's list is being re-read after
     * its {@code notifications/tools/list_changed}, the future completes once it is: a notification listener that asks
     * gets the changed list. Dependent stages may run on the runtime's thread that finished the start or the re-read:
     * they must not block. By default, {@link #tools()} on the caller's thread.
     *
     * <pre>{@code
     * module.toolsAsync().thenAccept(tools -> log.info("{} is up with {} tools", module.moduleId(), tools.size()));
     * }</pre>
     */
    default CompletableFuture<List<McpSchema.Tool>> toolsAsync() {
        return Failures.answered(() -> tools());
    }

    /**
     * What the tool named {@code tool} is for: {@code SeatVerb(seat, verb)} for a name {@code <seat>.<verb>}, else
     * {@code Own()}. Read from the name alone; nothing is sent to the module.
     */
    default ToolRole role(String tool) {
        return ToolRole.of(tool);
    }

    /** Calls a tool with the module's call timeout and returns the whole result ({@code isError: true} included). */
    McpSchema.CallToolResult callTool(String tool, JsonNode arguments);

    /** Calls a tool with {@code options} (timeout, progress) and returns the whole result. */
    McpSchema.CallToolResult callTool(String tool, JsonNode arguments, CallOptions options);

    /**
     * Starts a tool call and returns its handle at once, on the same path as {@link UnifiedRuntime#call} (a lazy module
     * is started off the caller's thread): {@code result()} completes with the whole result, or fails with a
     * {@link ModuleRouteException} with the errors of a routed call (a check or a failed start included);
     * {@code cancel()} sends {@code notifications/cancelled}.
     */
    default McpToolCall startCall(String tool, JsonNode arguments, CallOptions options) {
        java.util.Objects.requireNonNull(options, "options");
        return startCall(tool, arguments, module -> options);
    }

    /**
     * Starts a tool call like {@link #startCall(String, JsonNode, CallOptions)}, with options chosen when the call is
     * sent (after a lazy start, so they may depend on what the started module announced, and its timeout may be what
     * is left of a deadline). {@code options} runs once, on the thread that sends the call, and must not block; when
     * it throws, the call fails with that failure.
     *
     * <pre>{@code
     * long deadline = System.nanoTime() + budget.toNanos();
     * McpToolCall call = module.startCall("render", arguments,
     *         m -> CallOptions.timeout(Duration.ofNanos(deadline - System.nanoTime())));
     * }</pre>
     */
    McpToolCall startCall(String tool, JsonNode arguments, java.util.function.Function<? super McpModule, CallOptions> options);

    /**
     * Sends one request of the module's MCP surface beyond tools ({@link McpSurfaceRequest}: resources, prompts,
     * completion; a list follows every page) through the runtime's checks, with the module's call timeout, and returns
     * its answer. The methods below are its typed forms.
     *
     * @throws ModuleRouteException with the errors of {@code routeModuleCall}
     */
    <T> T surface(McpSurfaceRequest<T> request);

    /**
     * Like {@link #surface}, without blocking the caller: a lazy module is started off its thread, and the answer
     * completes the future (dependent stages may run on the runtime's threads: they must not block); a failure fails
     * it with the {@link ModuleRouteException} {@link #surface} throws. By default, {@link #surface} on the caller's
     * thread.
     */
    default <T> CompletableFuture<T> surfaceAsync(McpSurfaceRequest<T> request) {
        return Failures.answered(() -> surface(request));
    }

    /** {@code resources/list}, every page. */
    default List<McpSchema.Resource> listResources() {
        return surface(McpSurfaceRequest.listResources());
    }

    /** {@code resources/templates/list}, every page. */
    default List<McpSchema.ResourceTemplate> listResourceTemplates() {
        return surface(McpSurfaceRequest.listResourceTemplates());
    }

    /** {@code resources/read}. */
    default McpSchema.ReadResourceResult readResource(String uri) {
        return surface(McpSurfaceRequest.readResource(uri));
    }

    /** {@code resources/subscribe}: the server then sends {@code notifications/resources/updated} for {@code uri}. */
    default void subscribeResource(String uri) {
        surface(McpSurfaceRequest.subscribeResource(uri));
    }

    /** {@code resources/unsubscribe}. */
    default void unsubscribeResource(String uri) {
        surface(McpSurfaceRequest.unsubscribeResource(uri));
    }

    /** {@code prompts/list}, every page. */
    default List<McpSchema.Prompt> listPrompts() {
        return surface(McpSurfaceRequest.listPrompts());
    }

    /** {@code prompts/get} with {@code arguments} (null for none). */
    default McpSchema.GetPromptResult getPrompt(String name, Map<String, Object> arguments) {
        return surface(McpSurfaceRequest.getPrompt(name, arguments));
    }

    /** {@code completion/complete}. */
    default McpSchema.CompleteResult complete(McpSchema.CompleteRequest request) {
        return surface(McpSurfaceRequest.complete(request));
    }

    /**
     * Receives the server's notifications ({@code tools/list_changed}, resource and prompt list changes, resource
     * updates, {@code notifications/message} log lines), on the module's reading thread: keep the listener fast. The
     * listener stays subscribed across the module's processes; subscribing does not start a lazy module.
     */
    Subscription subscribeNotifications(Consumer<? super McpSchema.JSONRPCNotification> listener);
}
