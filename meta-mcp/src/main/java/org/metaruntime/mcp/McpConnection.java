package org.metaruntime.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.metaruntime.mcp.internal.CallWindow;
import org.metaruntime.mcp.internal.Json;
import org.metaruntime.mcp.internal.Handshake;
import org.metaruntime.mcp.internal.NotificationHub;
import org.metaruntime.mcp.internal.SessionLifecycle;
import org.metaruntime.mcp.internal.SessionOpener;
import org.metaruntime.mcp.internal.SessionParts;
import org.metaruntime.mcp.internal.SessionPeer;
import org.metaruntime.mcp.internal.ServerAnnouncement;
import org.metaruntime.mcp.internal.Surface;
import org.metaruntime.mcp.internal.ToolCallHandle;
import org.metaruntime.mcp.internal.ToolCatalog;
import org.metaruntime.supervisor.ProcessExit;
import org.metaruntime.supervisor.ProcessSpec;
import org.metaruntime.supervisor.Scheduler;
import org.metaruntime.supervisor.StopLadder;
import org.metaruntime.supervisor.StopReport;
import org.metaruntime.supervisor.internal.Failures;

/**
 * An initialized MCP session with one module's server: a stdio server (the child process, on the runtime's own
 * process transport) or a remote server over MCP Streamable HTTP ({@link #open(McpHttpEndpoint, McpClientOptions,
 * Duration)}); the MCP Java SDK's client session, the server's tools, and the whole MCP surface (tools, resources,
 * prompts, completion, notifications, {@link #ping}). Both kinds share every rule below: ids, the call window,
 * cancellation, progress, the whole result, the errors. Thread-safe: any number of threads may call at once; calls
 * are multiplexed by JSON-RPC id.
 *
 * <p>At most {@link McpClientOptions#maxInFlight()} calls are sent and unanswered at a time; further calls wait
 * in a FIFO queue (at most {@link McpClientOptions#maxQueued()}, beyond which a call fails at once with
 * {@link McpBoundaryError.CallRefused}), and the caller's timeout covers the wait: a queued call whose timeout
 * passed, or that was cancelled, is never sent. On a call's timeout the client sends {@code notifications/cancelled}
 * for its id and drops a late answer. When the process dies, every call in flight or queued fails at once with
 * {@link McpBoundaryError.ToolCallFailed}, the exception carrying the exit code and stderr tail ({@link #exitFuture()}
 * tells the owner). A remote session ends when its server cannot be reached, answers 5xx, or forgets the session
 * (HTTP 404) and initialising a new one does not cure it: every call in flight or queued fails at once with
 * {@link McpBoundaryError.SessionLost} and the reason ({@link #sessionEnd()} tells the owner). Always {@link #close(Duration) close} a connection, even after its
 * process died or its server went away: closing releases the shared timer and HTTP client and stops what is left of
 * the process tree (remote: ends the session on the server).
 *
 * <pre>{@code
 * ProcessSpec spec = ProcessSpec.builder("weather").command("python3", "weather_server.py").build();
 * try (McpConnection connection = McpConnection.open(spec, McpClientOptions.defaults(), Duration.ofSeconds(30))) {
 *     connection.listTools(Duration.ofSeconds(5));
 *     JsonNode payload = connection.callTool("forecast", arguments, Duration.ofSeconds(10));
 *     McpToolCall call = connection.startCall("render", arguments, McpCallOptions.of(Duration.ofMinutes(1)));
 *     call.cancel();
 * }
 * }</pre>
 */
public final class McpConnection implements AutoCloseable {

    /** The protocol versions this client accepts from a server; the first is the one it offers. */
    public static final List<String> PROTOCOL_VERSIONS = Handshake.PROTOCOL_VERSIONS;

    private static final Duration DEFAULT_CLOSE_TIMEOUT = SessionOpener.CLOSE_TIMEOUT;

    private final String moduleId;
    private final McpClientOptions options;
    private final SessionPeer peer;
    private final CallWindow window;
    private final ToolCatalog catalog;
    private final Surface surface;
    private final NotificationHub notifications;
    private final SessionLifecycle lifecycle;
    private final ServerAnnouncement server;

    private McpConnection(SessionParts parts) {
        this.moduleId = parts.moduleId();
        this.options = parts.options();
        this.peer = parts.peer();
        this.window = parts.window();
        this.catalog = parts.catalog();
        this.surface = parts.surface();
        this.notifications = parts.notifications();
        this.lifecycle = parts.lifecycle();
        this.server = parts.server();
    }

    /**
     * Spawns the server and runs {@code initialize} (then sends {@code notifications/initialized}).
     *
     * @param timeout bounds spawn and {@code initialize}; must be positive
     * @throws McpBoundaryException {@code ConnectionFailed} (spawn or initialize failed) or {@code Timeout}
     *                              with operation {@code connect}; the process is stopped before it is thrown
     */
    public static McpConnection open(ProcessSpec spec, McpClientOptions options, Duration timeout) {
        return Waits.opened(openAsync(spec, options, timeout, Scheduler.shared()), spec.moduleId());
    }

    /**
     * {@link #open} without blocking on {@code initialize}, the connection's deadlines (the era probe's among them) on
     * {@code clock}; a failed open has stopped the process first.
     */
    static CompletableFuture<McpConnection> openAsync(ProcessSpec spec, McpClientOptions options, Duration timeout,
                                                      Scheduler clock) {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(options, "options");
        return SessionOpener.stdio(spec, options, Waits.validated(timeout), clock, McpConnection::new);
    }

    /**
     * Connects to a remote server over MCP Streamable HTTP and runs {@code initialize} (then sends
     * {@code notifications/initialized}). The session id the server gives is sent back with every later request.
     *
     * <pre>{@code
     * McpHttpEndpoint endpoint = McpHttpEndpoint.of("search", URI.create("http://127.0.0.1:3001/mcp"));
     * try (McpConnection connection = McpConnection.open(endpoint, McpClientOptions.defaults(), Duration.ofSeconds(30))) {
     *     connection.callTool("echo", arguments, Duration.ofSeconds(10));
     * }
     * }</pre>
     *
     * @param timeout bounds connecting and {@code initialize}; must be positive
     * @throws McpBoundaryException {@code ConnectionFailed} (nothing listens, an HTTP error, an invalid answer) or
     *                              {@code Timeout} with operation {@code connect}
     */
    public static McpConnection open(McpHttpEndpoint endpoint, McpClientOptions options, Duration timeout) {
        return Waits.opened(openAsync(endpoint, options, timeout, Scheduler.shared()), endpoint.moduleId());
    }

    /**
     * {@link #open(McpHttpEndpoint, McpClientOptions, Duration)} without blocking on {@code initialize}, the
     * deadlines on {@code clock}.
     */
    static CompletableFuture<McpConnection> openAsync(McpHttpEndpoint endpoint, McpClientOptions options,
                                                      Duration timeout, Scheduler clock) {
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(options, "options");
        return SessionOpener.http(endpoint, options, Waits.validated(timeout), clock, McpConnection::new);
    }

    // ---- what the connection is

    /** The module id of the process this connection talks to. */
    public String moduleId() {
        return moduleId;
    }

    /**
     * The server's process id.
     *
     * @throws IllegalStateException for a remote server, which has no local process
     */
    public long pid() {
        return peer.pid();
    }

    /** Whether the server is remote (MCP Streamable HTTP) rather than a local stdio process. */
    public boolean isRemote() {
        return peer.endpoint().isPresent();
    }

    /** The remote server's endpoint; empty for a stdio server. */
    public Optional<McpHttpEndpoint> endpoint() {
        return peer.endpoint();
    }

    /** The remote session's id as the server gave it ({@code Mcp-Session-Id}); empty for stdio or a sessionless server. */
    public Optional<String> sessionId() {
        return peer.sessionId();
    }

    /** How many times the remote server forgot the session (HTTP 404) and a new one was initialised in its place. */
    public long sessionRenewals() {
        return peer.sessionRenewals();
    }

    /**
     * Completes when the session has ended, for any reason: closed by the host, the stdio server's exit, or a remote
     * server lost (unreachable, 5xx, a forgotten session that a new {@code initialize} did not cure).
     */
    public CompletableFuture<McpSessionEnd> sessionEnd() {
        return lifecycle.ended().thenApply(t -> new McpSessionEnd(t.reason(), lifecycle.closedByHost()));
    }

    /**
     * Sends an MCP {@code ping} and waits for its answer.
     *
     * @throws McpBoundaryException {@code RequestFailed} (the session ended, an HTTP error), {@code JsonRpcError},
     *                              {@code Interrupted} or {@code Timeout} with operation {@code ping}
     */
    public void ping(Duration timeout) {
        Waits.get(pingAsync(timeout), moduleId, "ping");
    }

    /** {@link #ping} without blocking: completes when the server answered, or fails as {@link #ping} throws. */
    public CompletableFuture<Void> pingAsync(Duration timeout) {
        return surface.ping(Waits.validated(timeout).toMillis(), deadline(timeout));
    }

    /**
     * The protocol version in use: {@code "2026-07-28"} for a modern server, else the version agreed in
     * {@code initialize} (null for a bare server).
     */
    public String protocolVersion() {
        return server.protocolVersion();
    }

    /** The era the server is spoken to in: modern, or legacy (a bare server too). */
    public McpProtocolEra protocolEra() {
        return server.era();
    }

    /**
     * The server's capabilities as it announced them in {@code initialize} or {@code server/discover} (null for a
     * bare server).
     */
    public McpSchema.ServerCapabilities serverCapabilities() {
        return server.capabilities();
    }

    /**
     * The server's name and version as it sent them in {@code initialize} (or, modern, in the {@code _meta} of its
     * {@code server/discover} result; null when it sent none, and for a bare server).
     */
    public McpSchema.Implementation serverInfo() {
        return server.info();
    }

    /** The last bytes the server wrote to stderr (bounded by the process spec); empty for a remote server. */
    public String stderrTail() {
        return peer.stderrTail();
    }

    /**
     * Completes when the server process exits, for any reason (see {@link ProcessExit#requestedByRuntime()}); for a
     * remote server, which has no process, it never completes: use {@link #sessionEnd()}.
     */
    public CompletableFuture<ProcessExit> exitFuture() {
        return peer.exitFuture();
    }

    /** True until the connection is closed or the process is gone. */
    public boolean isOpen() {
        return window.termination() == null;
    }

    /** Calls sent and not yet answered. */
    public int inFlight() {
        return window.callsInFlight();
    }

    // ---- tools

    /** The tool names last listed by the server, in server order (refreshed on {@code tools/list_changed}). */
    public List<String> tools() {
        return catalog.names();
    }

    /** The tools last listed, as the server sent them (name, title, description, schemas, annotations, {@code _meta}). */
    public List<McpSchema.Tool> toolDescriptors() {
        return catalog.descriptors();
    }

    /**
     * {@link #toolDescriptors()} once every {@code notifications/tools/list_changed} received so far is re-read (at
     * once when none is), so a listener of that notification gets the changed list; a failed re-read keeps the list.
     */
    public CompletableFuture<List<McpSchema.Tool>> toolDescriptorsAsync() {
        return catalog.settled();
    }

    /**
     * Runs {@code tools/list} (every page) and caches the result.
     *
     * @return tool names in server order
     * @throws McpBoundaryException {@code ToolListFailed} or {@code Timeout} with operation {@code list_tools}
     */
    public List<String> listTools(Duration timeout) {
        Waits.get(listToolsAsync(timeout), moduleId, "list_tools");
        return catalog.names();
    }

    CompletableFuture<List<String>> listToolsAsync(Duration timeout) {
        return catalog.fetch(Waits.validated(timeout).toMillis(), deadline(timeout)).thenApply(listed -> catalog.names());
    }

    /**
     * Starts a {@code tools/call} and returns its handle at once (see {@link McpToolCall} for cancel, and
     * {@link McpCallOptions} for progress and per-call handlers). A tool the cache does not list is looked up again
     * once before the call fails with {@code ToolNotFound}. Never throws for a failure of the call.
     *
     * @param arguments a JSON object, or {@code null}/JSON null for none
     */
    public McpToolCall startCall(String tool, JsonNode arguments, McpCallOptions options) {
        return start(tool, arguments, options, true);
    }

    /** A call; {@code timed} false for a caller that waits for it and enforces its deadline itself. */
    private ToolCallHandle start(String tool, JsonNode arguments, McpCallOptions options, boolean timed) {
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(options, "options");
        return ToolCallHandle.start(window, catalog, tool, arguments, options, window.isBare(), timed);
    }

    /**
     * Calls a tool and returns the whole result; a result with {@code isError: true} is returned, not thrown.
     *
     * @throws McpBoundaryException {@code ToolNotFound}, {@code ToolCallFailed}, {@code SessionLost},
     *                              {@code JsonRpcError}, {@code CallRefused}, {@code LineTooLong}, {@code Interrupted}
     *                              or {@code Timeout}
     */
    public McpSchema.CallToolResult callToolResult(String tool, JsonNode arguments, McpCallOptions options) {
        ToolCallHandle call = start(tool, arguments, options, false);
        return Waits.call(call.result(), call.request());
    }

    /**
     * Calls a tool and maps its result to a payload: {@code structuredContent} when present; else, when every
     * content block is text, the texts concatenated, parsed as JSON when they are one JSON value (numbers exactly),
     * otherwise a JSON string; else the content blocks as sent. The timeout bounds the whole call: a tool-list
     * refresh on a cache miss, the wait for an in-flight slot, and the answer.
     *
     * @param arguments a JSON object, or {@code null}/JSON null for none
     * @throws McpBoundaryException as {@link #callToolResult}, and {@code ToolReturnedError} for {@code isError: true}
     */
    public JsonNode callTool(String tool, JsonNode arguments, Duration timeout) {
        ToolCallHandle call = start(tool, arguments, McpCallOptions.of(timeout), false);
        return Waits.call(call.payload(), call.request());
    }

    /**
     * Like {@link #callTool} without blocking: the returned future completes with the payload or with a
     * {@link McpBoundaryException}; cancelling it cancels the call. It completes on the module's stdout thread or
     * on the shared timer: dependent stages must not block.
     */
    public CompletableFuture<JsonNode> callToolAsync(String tool, JsonNode arguments, Duration timeout) {
        return startCall(tool, arguments, McpCallOptions.of(timeout)).payload();
    }

    // ---- resources, prompts, completion, notifications

    /**
     * Sends one request of the MCP surface beyond tools (resources, prompts, completion; a list follows every page) and
     * returns its answer.
     *
     * @throws McpBoundaryException {@code JsonRpcError} (e.g. unknown resource), {@code RequestFailed},
     *                              {@code Interrupted} or {@code Timeout} naming the request's operation
     *                              ({@code read_resource}, ...)
     */
    public <T> T surface(McpSurfaceRequest<T> request, Duration timeout) {
        return Waits.get(surfaceAsync(request, timeout), moduleId, request.method().operation());
    }

    /**
     * Like {@link #surface}, without blocking: the answer completes the future (on the thread that read it, so
     * dependent stages must not block), and a failure fails it with the {@link McpBoundaryException} {@link #surface}
     * throws.
     */
    public <T> CompletableFuture<T> surfaceAsync(McpSurfaceRequest<T> request, Duration timeout) {
        McpSurfaceRequest.Method method = Objects.requireNonNull(request, "request").method();
        return Failures.attempt(() -> surface.send(method, request.params(), Waits.validated(timeout).toMillis(),
                deadline(timeout)).thenApply(request::answer));
    }

    /** {@code resources/list}, every page. @throws McpBoundaryException as {@link #surface} */
    public List<McpSchema.Resource> listResources(Duration timeout) {
        return surface(McpSurfaceRequest.listResources(), timeout);
    }

    /** {@code resources/templates/list}, every page. @throws McpBoundaryException as {@link #surface} */
    public List<McpSchema.ResourceTemplate> listResourceTemplates(Duration timeout) {
        return surface(McpSurfaceRequest.listResourceTemplates(), timeout);
    }

    /** {@code resources/read}. @throws McpBoundaryException as {@link #surface}, with operation {@code read_resource} */
    public McpSchema.ReadResourceResult readResource(String uri, Duration timeout) {
        return surface(McpSurfaceRequest.readResource(uri), timeout);
    }

    /** {@code resources/subscribe}: the server then sends {@code notifications/resources/updated} for {@code uri}. */
    public void subscribeResource(String uri, Duration timeout) {
        surface(McpSurfaceRequest.subscribeResource(uri), timeout);
    }

    /** {@code resources/unsubscribe}. */
    public void unsubscribeResource(String uri, Duration timeout) {
        surface(McpSurfaceRequest.unsubscribeResource(uri), timeout);
    }

    /** {@code prompts/list}, every page. @throws McpBoundaryException as {@link #surface} */
    public List<McpSchema.Prompt> listPrompts(Duration timeout) {
        return surface(McpSurfaceRequest.listPrompts(), timeout);
    }

    /** {@code prompts/get} with {@code arguments} (null for none). @throws McpBoundaryException as {@link #surface} */
    public McpSchema.GetPromptResult getPrompt(String name, Map<String, Object> arguments, Duration timeout) {
        return surface(McpSurfaceRequest.getPrompt(name, arguments), timeout);
    }

    /** {@code completion/complete}. @throws McpBoundaryException as {@link #surface} */
    public McpSchema.CompleteResult complete(McpSchema.CompleteRequest request, Duration timeout) {
        return surface(McpSurfaceRequest.complete(request), timeout);
    }

    /**
     * Sends the request {@code method} with {@code params} (for example an extension's, such as {@code tasks/get}) and
     * returns the server's result as sent. {@code params._meta} is kept; a modern server's request gets the
     * protocol version and client info added to it. @throws McpBoundaryException as {@link #surface}
     */
    public JsonNode request(String method, ObjectNode params, Duration timeout) {
        return Waits.get(requestAsync(method, params, timeout), moduleId, Objects.requireNonNull(method, "method"));
    }

    /**
     * Like {@link #request}, without blocking: the answer completes the future (on the thread that read it, so
     * dependent stages must not block), and a failure fails it with the {@link McpBoundaryException} {@link #request}
     * throws.
     */
    public CompletableFuture<JsonNode> requestAsync(String method, ObjectNode params, Duration timeout) {
        Objects.requireNonNull(method, "method");
        ObjectNode sent = params == null ? Json.MAPPER.createObjectNode() : params.deepCopy();
        return Failures.attempt(() -> surface.send(method, sent, Waits.validated(timeout).toMillis(), deadline(timeout)));
    }

    /**
     * Registers a listener of the server's notifications ({@code tools/list_changed}, resource and prompt list
     * changes, {@code resources/updated}, {@code notifications/message}, ...; progress goes to its call). The
     * listener runs on the module's stdout thread, in arrival order: it must be fast and must not throw (one that
     * throws is logged and stays registered). Closing the connection closes every subscription.
     */
    public McpSubscription subscribeNotifications(Consumer<? super McpSchema.JSONRPCNotification> listener) {
        return notifications.subscribe(listener);
    }

    // ---- close

    /**
     * Closes the session and stops the server with the stop ladder (stdin EOF, SIGTERM, SIGKILL), its graces
     * shortened to fit in {@code timeout}. Calls still in flight fail with {@code ToolCallFailed}. Idempotent:
     * a second close reports the first one's outcome.
     *
     * @throws McpBoundaryException {@code CloseFailed} (a process of the tree survived, or stopping failed) or
     *                              {@code Timeout} with operation {@code close}
     */
    public void close(Duration timeout) {
        Waits.throwIfFailed(closeQuietly(timeout));
    }

    /** {@link #close(Duration)} with a 10 s timeout. */
    @Override
    public void close() {
        close(DEFAULT_CLOSE_TIMEOUT);
    }

    /**
     * {@link #close(Duration)} without waiting: completes once the server is stopped, or exceptionally with the
     * {@link McpBoundaryException} that {@code close} would throw. Never blocks; idempotent like {@code close}.
     */
    public CompletableFuture<Void> closeAsync(Duration timeout) {
        return closeAsync(Waits.validated(timeout), options.stopLadder()).thenAccept(Waits::throwIfFailed);
    }

    /** Closes like {@link #close(Duration)} and returns the close error instead of throwing it (null when ok). */
    McpBoundaryError closeQuietly(Duration timeout) {
        return Waits.closed(closeAsync(Waits.validated(timeout), options.stopLadder()), moduleId);
    }

    /** Closes with {@code ladder} fitted to {@code timeout}; completes with the close error, or null when ok. */
    CompletableFuture<McpBoundaryError> closeAsync(Duration timeout, StopLadder ladder) {
        return lifecycle.close(timeout, ladder);
    }

    /** How many late answers to timed-out or cancelled requests were dropped. */
    long droppedAnswers() {
        return window.droppedAnswers();
    }

    /** What the stop ladder did on close (null before close). */
    StopReport stopReport() {
        return lifecycle.stopReport();
    }

    // ---- helpers

    /** The deadline {@code timeout} from now, on the window's clock. */
    private long deadline(Duration timeout) {
        return window.now() + Waits.validated(timeout).toNanos();
    }

}
