package org.metaruntime.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpClientSession;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.ClientCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Implementation;
import io.modelcontextprotocol.spec.McpSchema.InitializeRequest;
import io.modelcontextprotocol.spec.McpSchema.InitializeResult;
import io.modelcontextprotocol.spec.ProtocolVersions;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.metaruntime.mcp.internal.Json;
import org.metaruntime.mcp.internal.ProcessClientTransport;
import org.metaruntime.mcp.internal.SharedTimer;
import org.metaruntime.mcp.internal.ToolResults;
import org.metaruntime.supervisor.ModuleProcess;
import org.metaruntime.supervisor.ProcessBoundaryException;
import org.metaruntime.supervisor.ProcessExit;
import org.metaruntime.supervisor.ProcessSpec;
import org.metaruntime.supervisor.StopLadder;
import org.metaruntime.supervisor.StopReport;
import org.metaruntime.supervisor.StopStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * An initialized MCP session with one module's stdio server: the child process, the MCP Java SDK's client
 * session on the runtime's own process transport, and the cached tool list. Thread-safe: any number of
 * threads may call at once; calls are multiplexed by JSON-RPC id.
 *
 * <p>At most {@link McpClientOptions#maxInFlight()} calls are sent and unanswered at a time; further calls wait
 * in a FIFO queue (at most {@link McpClientOptions#maxQueued()}, beyond which a call fails at once), and the
 * caller's timeout covers the wait. On a call's timeout the client sends {@code notifications/cancelled} for
 * its id and drops a late answer. When the process dies, every call in flight or queued fails at once with
 * {@link McpBoundaryError.ToolCallFailed} carrying the exit code and stderr tail ({@link #exitFuture()} tells the
 * owner). Always {@link #close(Duration) close} a connection, even after its process died: closing releases the
 * shared timer and stops what is left of the process tree.
 *
 * <pre>{@code
 * ProcessSpec spec = ProcessSpec.builder("weather").command("python3", "weather_server.py").build();
 * try (McpConnection connection = McpConnection.open(spec, McpClientOptions.defaults(), Duration.ofSeconds(30))) {
 *     List<String> tools = connection.listTools(Duration.ofSeconds(5));
 *     JsonNode payload = connection.callTool("forecast", arguments, Duration.ofSeconds(10));
 * }
 * }</pre>
 */
public final class McpConnection implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(McpConnection.class);

    /** The protocol versions this client accepts from a server; the first is the one it offers. */
    public static final List<String> PROTOCOL_VERSIONS = List.of(ProtocolVersions.MCP_2025_11_25,
            ProtocolVersions.MCP_2025_06_18, ProtocolVersions.MCP_2025_03_26, ProtocolVersions.MCP_2024_11_05);

    private static final Implementation CLIENT_INFO = Implementation.builder("meta-runtime", "0.1.0").build();
    /** The SDK session's own per-request timeout; it never applies, as requests are sent through the transport. */
    private static final Duration SESSION_REQUEST_TIMEOUT = Duration.ofDays(1);
    /** How long the tool list refresh after {@code notifications/tools/list_changed} may take. */
    private static final Duration REFRESH_TIMEOUT = Duration.ofSeconds(30);
    /** After stdout closes, how long to wait for the exit code before failing calls without it. */
    private static final long STDOUT_CLOSED_WAIT_MS = 1000;
    private static final int MAX_TOOL_PAGES = 1000;
    private static final int REASON_TAIL_CHARS = 4000;
    private static final Duration DEFAULT_CLOSE_TIMEOUT = Duration.ofSeconds(10);

    private final String moduleId;
    private final McpClientOptions options;
    private final ScheduledExecutorService timer;
    private final ProcessClientTransport transport;
    private volatile McpClientSession session;
    private volatile String protocolVersion;

    private volatile List<String> tools = List.of();
    private volatile Set<String> toolSet = Set.of();
    private final AtomicBoolean refreshing = new AtomicBoolean();
    private final AtomicBoolean refreshAgain = new AtomicBoolean();

    private final Object slots = new Object();
    private int inFlight;
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    private final Set<Pending> sent = ConcurrentHashMap.newKeySet();

    private final AtomicReference<String> terminated = new AtomicReference<>();
    private volatile ProcessExit exit;

    private final Object closeLock = new Object();
    private boolean closed;
    private McpBoundaryError closeError;
    private volatile StopReport stopReport;

    private McpConnection(String moduleId, McpClientOptions options) {
        this.moduleId = moduleId;
        this.options = options;
        this.timer = SharedTimer.acquire();
        this.transport = new ProcessClientTransport(moduleId, new ProcessClientTransport.Events() {
            @Override
            public void stdoutClosed() {
                onStdoutClosed();
            }

            @Override
            public void exited(ProcessExit exit) {
                onExit(exit);
            }
        });
    }

    /**
     * Spawns the server and runs {@code initialize} (then sends {@code notifications/initialized}).
     *
     * @param timeout bounds spawn and {@code initialize}; must be positive
     * @throws McpBoundaryException {@code ConnectionFailed} (spawn or initialize failed) or {@code Timeout}
     *                              with operation {@code connect}; the process is stopped before it is thrown
     */
    public static McpConnection open(ProcessSpec spec, McpClientOptions options, Duration timeout) {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(options, "options");
        long deadline = deadline(timeout);
        McpConnection connection = new McpConnection(spec.moduleId(), options);
        try {
            connection.transport.start(spec);
        } catch (ProcessBoundaryException e) {
            SharedTimer.release();
            throw new McpBoundaryException(new McpBoundaryError.ConnectionFailed(spec.moduleId(), e.error().message()), e);
        }
        try {
            connection.initialize(deadline, timeout.toMillis());
            return connection;
        } catch (RuntimeException e) {
            connection.abort();
            throw e;
        }
    }

    private void initialize(long deadline, long timeoutMs) {
        session = new McpClientSession(SESSION_REQUEST_TIMEOUT, transport, requestHandlers(), notificationHandlers(),
                Function.<Mono<Void>>identity());
        ClientCapabilities.Builder capabilities = ClientCapabilities.builder().roots(false);
        if (options.samplingHandler().isPresent()) {
            capabilities.sampling();
        }
        if (options.elicitationHandler().isPresent()) {
            capabilities.elicitation();
        }
        InitializeRequest request = InitializeRequest.builder(PROTOCOL_VERSIONS.get(0), capabilities.build(), CLIENT_INFO).build();
        Pending p = new Pending(Kind.CONNECT, null, "connect", timeoutMs, null);
        send(p, McpSchema.METHOD_INITIALIZE, request);
        JsonNode result = await(p, deadline);
        InitializeResult init;
        try {
            init = Json.MCP_MAPPER.convertValue(result, InitializeResult.class);
        } catch (RuntimeException e) {
            throw new McpBoundaryException(new McpBoundaryError.ConnectionFailed(moduleId,
                    "the server sent an invalid initialize result: " + e.getMessage()), e);
        }
        if (init.protocolVersion() == null || !PROTOCOL_VERSIONS.contains(init.protocolVersion())) {
            throw new McpBoundaryException(new McpBoundaryError.ConnectionFailed(moduleId,
                    "the server speaks protocol version " + init.protocolVersion() + ", supported: " + PROTOCOL_VERSIONS));
        }
        protocolVersion = init.protocolVersion();
        session.sendNotification(McpSchema.METHOD_NOTIFICATION_INITIALIZED, null)
                .subscribe(null, e -> log.warn("module '{}': could not send notifications/initialized: {}", moduleId, e.toString()));
    }

    // ---- public API

    /** The module id of the process this connection talks to. */
    public String moduleId() {
        return moduleId;
    }

    /** The server's process id. */
    public long pid() {
        return transport.process().pid();
    }

    /** The protocol version agreed in {@code initialize}. */
    public String protocolVersion() {
        return protocolVersion;
    }

    /** The last bytes the server wrote to stderr (bounded by the process spec). */
    public String stderrTail() {
        return transport.process().stderrTail();
    }

    /** Completes when the server process exits, for any reason (see {@link ProcessExit#requestedByRuntime()}). */
    public CompletableFuture<ProcessExit> exitFuture() {
        return transport.process().exitFuture().copy();
    }

    /** True until the connection is closed or the process is gone. */
    public boolean isOpen() {
        return terminated.get() == null;
    }

    /** The tool names last listed by the server, in server order (refreshed on {@code tools/list_changed}). */
    public List<String> tools() {
        return tools;
    }

    /** Calls sent and not yet answered. */
    public int inFlight() {
        synchronized (slots) {
            return inFlight;
        }
    }

    /**
     * Runs {@code tools/list} (all pages) and caches the result.
     *
     * @return tool names in server order
     * @throws McpBoundaryException {@code ToolListFailed} or {@code Timeout} with operation {@code list_tools}
     */
    public List<String> listTools(Duration timeout) {
        long deadline = deadline(timeout);
        long timeoutMs = timeout.toMillis();
        List<String> names = new ArrayList<>();
        String cursor = null;
        int page = 0;
        do {
            Pending p = new Pending(Kind.LIST, null, "list_tools", timeoutMs, null);
            send(p, McpSchema.METHOD_TOOLS_LIST, listParams(cursor));
            cursor = addPage(await(p, deadline), names, page++);
        } while (cursor != null);
        return cache(names);
    }

    /**
     * Calls a tool and maps its result to a payload (structured content, parsed text, text, or content blocks).
     * The timeout bounds the whole call: a tool-list refresh on a cache miss, the wait for an in-flight slot,
     * and the answer.
     *
     * @param arguments a JSON object, or {@code null}/JSON null for none
     * @throws McpBoundaryException {@code ToolNotFound}, {@code ToolCallFailed} or {@code Timeout} with operation
     *                              {@code call_tool:<tool>}
     */
    public JsonNode callTool(String tool, JsonNode arguments, Duration timeout) {
        Objects.requireNonNull(tool, "tool");
        long deadline = deadline(timeout);
        long timeoutMs = timeout.toMillis();
        ObjectNode params = callParams(tool, arguments);
        if (!toolSet.contains(tool)) {
            refreshOnMiss(tool, deadline, timeoutMs);
        }
        Pending p = new Pending(Kind.CALL, tool, "call_tool:" + tool, timeoutMs, params);
        admit(p);
        return ToolResults.toPayload(moduleId, tool, await(p, deadline));
    }

    /**
     * Like {@link #callTool} without blocking: the returned future completes with the payload or with a
     * {@link McpBoundaryException}. The timeout is enforced by a shared timer. The future completes on the
     * module's stdout thread or on that timer: dependent stages must not block (use the {@code *Async}
     * variants with an executor of your own for slow work).
     */
    public CompletableFuture<JsonNode> callToolAsync(String tool, JsonNode arguments, Duration timeout) {
        Objects.requireNonNull(tool, "tool");
        long deadline = deadline(timeout);
        long timeoutMs = timeout.toMillis();
        ObjectNode params;
        try {
            params = callParams(tool, arguments);
        } catch (McpBoundaryException e) {
            return CompletableFuture.failedFuture(e);
        }
        if (toolSet.contains(tool)) {
            return startAsync(tool, params, deadline, timeoutMs);
        }
        return ensureListed(tool, deadline, timeoutMs).thenCompose(ignored -> startAsync(tool, params, deadline, timeoutMs));
    }

    private CompletableFuture<JsonNode> startAsync(String tool, ObjectNode params, long deadline, long timeoutMs) {
        Pending p = new Pending(Kind.CALL, tool, "call_tool:" + tool, timeoutMs, params);
        p.arm(deadline);
        admit(p);
        return p.future.thenApply(result -> ToolResults.toPayload(moduleId, tool, result));
    }

    /** Refreshes the tool list once for a tool the cache does not have; fails with ToolNotFound or Timeout. */
    private void refreshOnMiss(String tool, long deadline, long timeoutMs) {
        try {
            listTools(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
        } catch (McpBoundaryException e) {
            log.debug("module '{}': refreshing the tool list for '{}' failed: {}", moduleId, tool, e.getMessage());
        }
        missing(tool, deadline, timeoutMs);
    }

    /** The async {@link #refreshOnMiss}. */
    private CompletableFuture<Void> ensureListed(String tool, long deadline, long timeoutMs) {
        return fetchTools(deadline, timeoutMs).handle((listed, e) -> {
            missing(tool, deadline, timeoutMs);
            return null;
        });
    }

    /** Throws ToolNotFound (or Timeout once the deadline passed) when {@code tool} is not cached. */
    private void missing(String tool, long deadline, long timeoutMs) {
        if (!toolSet.contains(tool)) {
            throw new McpBoundaryException(System.nanoTime() - deadline >= 0
                    ? timeoutOf(tool, timeoutMs)
                    : new McpBoundaryError.ToolNotFound(moduleId, tool, tools));
        }
    }

    /**
     * Closes the session and stops the server with the stop ladder (stdin EOF, SIGTERM, SIGKILL), its graces
     * shortened to fit in {@code timeout}. Calls still in flight fail with {@code ToolCallFailed}. Idempotent:
     * a second close reports the first one's outcome.
     *
     * @throws McpBoundaryException {@code CloseFailed} (a process of the tree survived, or stopping failed) or
     *                              {@code Timeout} with operation {@code close}
     */
    public void close(Duration timeout) {
        McpBoundaryError error = closeQuietly(timeout);
        if (error != null) {
            throw new McpBoundaryException(error);
        }
    }

    /** {@link #close(Duration)} with a 10 s timeout. */
    @Override
    public void close() {
        close(DEFAULT_CLOSE_TIMEOUT);
    }

    /** Closes like {@link #close(Duration)} and returns the close error instead of throwing it (null when ok). */
    McpBoundaryError closeQuietly(Duration timeout) {
        long timeoutMs = validated(timeout).toMillis();
        synchronized (closeLock) {
            if (closed) {
                return closeError;
            }
            closed = true;
            terminate("the connection to module '" + moduleId + "' was closed");
            ModuleProcess process = transport.process();
            process.closeStdin(); // at once: the ladder's first step starts on another thread
            try {
                StopReport report = process.stopAsync(fit(options.stopLadder(), timeout)).get(timeoutMs, TimeUnit.MILLISECONDS);
                stopReport = report;
                if (report.survivors() > 0) {
                    closeError = new McpBoundaryError.CloseFailed(moduleId,
                            report.survivors() + " process(es) of the server's tree survived the stop ladder");
                } else if (report.stage() == StopStage.KILLED || report.stage() == StopStage.EXITED_AFTER_SIGTERM) {
                    log.warn("module '{}': the server did not exit on stdin EOF; stopped with {}", moduleId, report.stage());
                }
            } catch (TimeoutException e) {
                closeError = new McpBoundaryError.Timeout(moduleId, "close", timeoutMs);
            } catch (ExecutionException e) {
                closeError = new McpBoundaryError.CloseFailed(moduleId, String.valueOf(e.getCause()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                closeError = new McpBoundaryError.CloseFailed(moduleId, "interrupted while stopping the server");
            } finally {
                SharedTimer.release();
            }
            return closeError;
        }
    }

    /** How many late answers to timed-out requests were dropped. */
    long droppedAnswers() {
        return transport.droppedAnswers();
    }

    /** What the stop ladder did on close (null before close). */
    StopReport stopReport() {
        return stopReport;
    }

    /** Stops the process at once after a failed open; reports nothing. */
    private void abort() {
        synchronized (closeLock) {
            if (closed) {
                return;
            }
            closed = true;
            terminate("the connection to module '" + moduleId + "' could not be opened");
            try {
                transport.process().stop(StopLadder.immediate());
            } catch (RuntimeException e) {
                log.warn("module '{}': stopping the server after a failed connect failed: {}", moduleId, e.toString());
            } finally {
                SharedTimer.release();
            }
        }
    }

    // ---- tools/list

    /** {@code tools/list} (all pages) with a timer on each page; caches the result. */
    private CompletableFuture<List<String>> fetchTools(long deadline, long timeoutMs) {
        List<String> names = new ArrayList<>();
        return fetchPage(null, names, 0, deadline, timeoutMs).thenApply(ignored -> cache(names));
    }

    private CompletableFuture<Void> fetchPage(String cursor, List<String> names, int page, long deadline, long timeoutMs) {
        Pending p = new Pending(Kind.LIST, null, "list_tools", timeoutMs, null);
        p.arm(deadline);
        send(p, McpSchema.METHOD_TOOLS_LIST, listParams(cursor));
        return p.future.thenCompose(result -> {
            String next = addPage(result, names, page);
            return next == null ? CompletableFuture.completedFuture(null)
                    : fetchPage(next, names, page + 1, deadline, timeoutMs);
        });
    }

    private static ObjectNode listParams(String cursor) {
        ObjectNode params = Json.MAPPER.createObjectNode();
        if (cursor != null) {
            params.put("cursor", cursor);
        }
        return params;
    }

    /** Adds the tool names of one {@code tools/list} page; returns the next cursor, or null on the last page. */
    private String addPage(JsonNode result, List<String> names, int page) {
        JsonNode list = result.get("tools");
        if (list == null || !list.isArray()) {
            throw new McpBoundaryException(new McpBoundaryError.ToolListFailed(moduleId,
                    "the server sent a tools/list result without a tools array"));
        }
        for (JsonNode tool : list) {
            JsonNode name = tool.get("name");
            if (name == null || !name.isTextual()) {
                throw new McpBoundaryException(new McpBoundaryError.ToolListFailed(moduleId,
                        "the server listed a tool without a name"));
            }
            names.add(name.textValue());
        }
        JsonNode next = result.get("nextCursor");
        if (next == null || !next.isTextual() || next.textValue().isEmpty()) {
            return null;
        }
        if (page + 1 >= MAX_TOOL_PAGES) {
            throw new McpBoundaryException(new McpBoundaryError.ToolListFailed(moduleId,
                    "the server sent more than " + MAX_TOOL_PAGES + " pages of tools"));
        }
        return next.textValue();
    }

    private List<String> cache(List<String> names) {
        List<String> list = List.copyOf(names);
        toolSet = Set.copyOf(list);
        tools = list;
        return list;
    }

    private void refreshTools() {
        if (!isOpen()) {
            return;
        }
        if (!refreshing.compareAndSet(false, true)) {
            refreshAgain.set(true);
            return;
        }
        fetchTools(deadline(REFRESH_TIMEOUT), REFRESH_TIMEOUT.toMillis()).whenComplete((list, e) -> {
            if (e != null) {
                log.debug("module '{}': refreshing the tool list failed: {}", moduleId, e.toString());
            }
            refreshing.set(false);
            if (refreshAgain.getAndSet(false)) {
                refreshTools();
            }
        });
    }

    // ---- requests

    private ObjectNode callParams(String tool, JsonNode arguments) {
        ObjectNode params = Json.MAPPER.createObjectNode();
        params.put("name", tool);
        if (arguments == null || arguments.isNull() || arguments.isMissingNode()) {
            params.putObject("arguments");
        } else if (arguments.isObject()) {
            params.set("arguments", arguments);
        } else {
            throw new McpBoundaryException(new McpBoundaryError.ToolCallFailed(moduleId, tool,
                    "arguments must be a JSON object, got " + arguments.getNodeType()));
        }
        return params;
    }

    private void admit(Pending p) {
        if (terminated.get() != null) {
            p.fail(p.failure(terminated.get()));
            return;
        }
        boolean start;
        synchronized (slots) {
            if (inFlight < options.maxInFlight()) {
                inFlight++;
                p.holdsSlot = true;
                start = true;
            } else if (queue.size() < options.maxQueued()) {
                queue.add(p);
                start = false;
            } else {
                start = false;
                p.rejected = true;
            }
        }
        if (p.rejected) {
            p.fail(p.failure(options.maxInFlight() + " calls are in flight and " + options.maxQueued()
                    + " are queued; the call was refused"));
        } else if (start) {
            send(p, McpSchema.METHOD_TOOLS_CALL, p.params);
        } else if (terminated.get() != null) {
            p.fail(p.failure(terminated.get()));
        }
    }

    private void releaseSlot() {
        Pending next;
        synchronized (slots) {
            do {
                next = queue.poll();
            } while (next != null && next.isFinished());
            if (next == null) {
                inFlight--;
            } else {
                next.holdsSlot = true;
            }
        }
        if (next != null) {
            send(next, McpSchema.METHOD_TOOLS_CALL, next.params);
        }
    }

    private void send(Pending p, String method, Object params) {
        if (p.isFinished()) {
            return;
        }
        sent.add(p);
        String reason = terminated.get();
        if (reason != null) {
            p.fail(p.failure(reason));
            return;
        }
        String id = transport.nextId();
        p.requestId = id;
        try {
            transport.sendRequest(id, method, params, p);
        } catch (RuntimeException e) {
            if (transport.process().isAlive()) {
                p.failWith(e);
            }
            // else the exit is on its way: terminate() fails p with the exit code and stderr tail
        }
    }

    private JsonNode await(Pending p, long deadline) {
        try {
            long remaining = deadline - System.nanoTime();
            if (remaining > 0) {
                return p.future.get(remaining, TimeUnit.NANOSECONDS);
            }
        } catch (TimeoutException e) {
            // expired below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (p.fail(p.failure("the calling thread was interrupted"))) {
                p.abandon();
            }
        } catch (ExecutionException e) {
            throw rethrow(e.getCause());
        }
        p.expire();
        return join(p.future);
    }

    private static <T> T join(CompletableFuture<T> future) {
        try {
            return future.get();
        } catch (ExecutionException e) {
            throw rethrow(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CompletionException(e);
        }
    }

    private static RuntimeException rethrow(Throwable cause) {
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof McpBoundaryException) {
            return new McpBoundaryException(((McpBoundaryException) cause).error(), cause);
        }
        if (cause instanceof RuntimeException) {
            return (RuntimeException) cause;
        }
        return new CompletionException(cause);
    }

    private McpBoundaryError.Timeout timeoutOf(String tool, long timeoutMs) {
        return new McpBoundaryError.Timeout(moduleId, "call_tool:" + tool, timeoutMs);
    }

    // ---- process events

    /** No answer can come any more; wait a little for the exit code, which makes the better reason. */
    private void onStdoutClosed() {
        if (terminated.get() != null) {
            return;
        }
        schedule(() -> {
            ProcessExit e = exit;
            terminate(e != null ? exitReason(e) : "module '" + moduleId + "' closed its stdout");
        }, STDOUT_CLOSED_WAIT_MS);
    }

    /** The process layer calls this after the child's stdout was read to the end (or its drain timed out). */
    private void onExit(ProcessExit e) {
        exit = e;
        terminate(exitReason(e));
    }

    private String exitReason(ProcessExit e) {
        String tail = e.stderrTail() == null ? "" : e.stderrTail().strip();
        if (tail.length() > REASON_TAIL_CHARS) {
            tail = "..." + tail.substring(tail.length() - REASON_TAIL_CHARS);
        }
        return "the server process (pid " + e.pid() + ") exited with code " + e.exitCode()
                + (tail.isEmpty() ? " and wrote nothing to stderr" : "; stderr tail: " + tail);
    }

    private void schedule(Runnable task, long delayMs) {
        try {
            timer.schedule(task, delayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            task.run();
        }
    }

    /** Fails everything in flight or queued with {@code reason}; later calls fail at once. */
    private void terminate(String reason) {
        if (!terminated.compareAndSet(null, reason)) {
            return;
        }
        if (!closed) {
            log.warn("module '{}': MCP session ended: {}", moduleId, reason);
        }
        for (Pending p : sent) {
            p.fail(p.failure(reason));
        }
        List<Pending> waiting;
        synchronized (slots) {
            waiting = new ArrayList<>(queue);
            queue.clear();
        }
        for (Pending p : waiting) {
            p.fail(p.failure(reason));
        }
        transport.shutdown();
        if (session != null) {
            session.close();
        }
    }

    // ---- server-to-client requests and notifications

    private Map<String, McpClientSession.RequestHandler<?>> requestHandlers() {
        Map<String, McpClientSession.RequestHandler<?>> handlers = new HashMap<>();
        handlers.put(McpSchema.METHOD_PING, params -> Mono.just(Json.MAPPER.createObjectNode()));
        ObjectNode roots = Json.MAPPER.createObjectNode();
        ArrayNode list = roots.putArray("roots");
        for (McpRoot root : options.roots()) {
            ObjectNode r = list.addObject().put("uri", root.uri());
            if (root.name() != null) {
                r.put("name", root.name());
            }
        }
        handlers.put(McpSchema.METHOD_ROOTS_LIST, params -> Mono.just(roots.deepCopy()));
        handlers.put(McpSchema.METHOD_SAMPLING_CREATE_MESSAGE,
                hostHandler(McpSchema.METHOD_SAMPLING_CREATE_MESSAGE, options.samplingHandler().orElse(null)));
        handlers.put(McpSchema.METHOD_ELICITATION_CREATE,
                hostHandler(McpSchema.METHOD_ELICITATION_CREATE, options.elicitationHandler().orElse(null)));
        return handlers;
    }

    private McpClientSession.RequestHandler<JsonNode> hostHandler(String method, McpClientRequestHandler handler) {
        if (handler == null) {
            return params -> Mono.error(McpError.builder(McpSchema.ErrorCodes.METHOD_NOT_FOUND)
                    .message("the host does not support " + method).build());
        }
        return params -> Mono.defer(() -> {
            JsonNode p = params instanceof JsonNode ? (JsonNode) params : Json.MAPPER.valueToTree(params);
            return Mono.fromCompletionStage(handler.handle(moduleId, p));
        }).onErrorMap(e -> !(e instanceof McpError), e -> McpError.builder(McpSchema.ErrorCodes.INTERNAL_ERROR)
                .message("the host failed to answer " + method + ": " + e.getMessage()).build());
    }

    private Map<String, McpClientSession.NotificationHandler> notificationHandlers() {
        Map<String, McpClientSession.NotificationHandler> handlers = new HashMap<>();
        handlers.put(McpSchema.METHOD_NOTIFICATION_TOOLS_LIST_CHANGED, params -> {
            refreshTools();
            return Mono.empty();
        });
        handlers.put(McpSchema.METHOD_NOTIFICATION_MESSAGE, params -> {
            log.debug("module '{}' logged: {}", moduleId, params);
            return Mono.empty();
        });
        McpClientSession.NotificationHandler ignore = params -> Mono.empty();
        for (String method : List.of(McpSchema.METHOD_NOTIFICATION_PROGRESS, "notifications/cancelled",
                McpSchema.METHOD_NOTIFICATION_RESOURCES_LIST_CHANGED, McpSchema.METHOD_NOTIFICATION_RESOURCES_UPDATED,
                McpSchema.METHOD_NOTIFICATION_PROMPTS_LIST_CHANGED, McpSchema.METHOD_NOTIFICATION_ELICITATION_COMPLETE)) {
            handlers.put(method, ignore);
        }
        return handlers;
    }

    // ---- helpers

    private static Duration validated(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, got " + timeout);
        }
        return timeout;
    }

    private static long deadline(Duration timeout) {
        return System.nanoTime() + validated(timeout).toNanos();
    }

    /** {@code ladder} with its graces shortened in proportion so that they add up to at most 90% of {@code timeout}. */
    static StopLadder fit(StopLadder ladder, Duration timeout) {
        long total = ladder.stdinGrace().toNanos() + ladder.termGrace().toNanos() + ladder.killWait().toNanos();
        long budget = timeout.toNanos() / 10 * 9;
        if (total <= budget) {
            return ladder;
        }
        double scale = (double) budget / total;
        return new StopLadder(Duration.ofNanos((long) (ladder.stdinGrace().toNanos() * scale)),
                Duration.ofNanos((long) (ladder.termGrace().toNanos() * scale)),
                Duration.ofNanos((long) (ladder.killWait().toNanos() * scale)));
    }

    private enum Kind { CONNECT, LIST, CALL }

    /** One JSON-RPC request of this connection, from creation (or queueing) to its outcome. */
    private final class Pending implements ProcessClientTransport.ResponseHandler {
        final Kind kind;
        final String tool;
        final String operation;
        final long timeoutMs;
        final ObjectNode params;
        final CompletableFuture<JsonNode> future = new CompletableFuture<>();
        private final AtomicBoolean finished = new AtomicBoolean();
        volatile String requestId;
        volatile ScheduledFuture<?> timeoutTask;
        boolean holdsSlot; // guarded by slots
        boolean rejected;

        Pending(Kind kind, String tool, String operation, long timeoutMs, ObjectNode params) {
            this.kind = kind;
            this.tool = tool;
            this.operation = operation;
            this.timeoutMs = timeoutMs;
            this.params = params;
        }

        void arm(long deadline) {
            long delay = deadline - System.nanoTime();
            try {
                timeoutTask = timer.schedule(this::expire, Math.max(0, delay), TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                expire();
            }
        }

        McpBoundaryError failure(String reason) {
            switch (kind) {
                case CONNECT:
                    return new McpBoundaryError.ConnectionFailed(moduleId, reason);
                case LIST:
                    return new McpBoundaryError.ToolListFailed(moduleId, reason);
                default:
                    return new McpBoundaryError.ToolCallFailed(moduleId, tool, reason);
            }
        }

        @Override
        public void onResponse(McpSchema.JSONRPCResponse response) {
            if (response.error() != null) {
                failWith(new McpError(response.error()));
            } else {
                Object result = response.result();
                succeed(result instanceof JsonNode ? (JsonNode) result : Json.MAPPER.valueToTree(result));
            }
        }

        void succeed(JsonNode result) {
            if (finish()) {
                future.complete(result);
            }
        }

        void failWith(Throwable e) {
            McpBoundaryError error;
            String reason = terminated.get();
            if (e instanceof McpError) {
                McpSchema.JSONRPCResponse.JSONRPCError rpc = ((McpError) e).getJsonRpcError();
                error = failure(rpc == null ? String.valueOf(e.getMessage())
                        : "JSON-RPC error " + rpc.code() + ": " + rpc.message());
            } else if (e instanceof McpBoundaryException) {
                error = ((McpBoundaryException) e).error();
            } else if (reason != null) {
                error = failure(reason);
            } else if (e instanceof ProcessBoundaryException) {
                error = failure("could not send the request: " + e.getMessage());
            } else {
                error = failure(String.valueOf(e));
            }
            fail(error);
        }

        boolean fail(McpBoundaryError error) {
            if (finish()) {
                future.completeExceptionally(new McpBoundaryException(error));
                return true;
            }
            return false;
        }

        boolean isFinished() {
            return finished.get();
        }

        /** Claims the outcome and frees the slot before the caller can see it, so a caller's next call finds it free. */
        private boolean finish() {
            if (!finished.compareAndSet(false, true)) {
                return false;
            }
            done();
            return true;
        }

        /** The deadline passed: fail with Timeout and cancel on the wire. */
        void expire() {
            if (fail(new McpBoundaryError.Timeout(moduleId, operation, timeoutMs))) {
                abandon();
            }
        }

        /** Tells the server this request is cancelled and drops its late answer. */
        void abandon() {
            String id = requestId;
            if (id == null || kind == Kind.CONNECT || terminated.get() != null) {
                return;
            }
            transport.abandon(id);
            ObjectNode cancel = Json.MAPPER.createObjectNode().put("requestId", id).put("reason", "timeout");
            session.sendNotification("notifications/cancelled", cancel)
                    .subscribe(null, e -> log.debug("module '{}': could not send notifications/cancelled: {}", moduleId, e.toString()));
        }

        private void done() {
            sent.remove(this);
            ScheduledFuture<?> t = timeoutTask;
            if (t != null) {
                t.cancel(false);
            }
            if (kind != Kind.CALL) {
                return;
            }
            boolean release;
            synchronized (slots) {
                release = holdsSlot;
                holdsSlot = false;
                if (!release) {
                    queue.remove(this);
                }
            }
            if (release) {
                releaseSlot();
            }
        }
    }
}
