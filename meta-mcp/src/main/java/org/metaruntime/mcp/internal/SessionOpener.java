package org.metaruntime.mcp.internal;

import io.modelcontextprotocol.spec.McpClientSession;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Function;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpBoundaryException;
import org.metaruntime.mcp.McpClientOptions;
import org.metaruntime.mcp.McpConnection;
import org.metaruntime.mcp.McpHttpEndpoint;
import org.metaruntime.supervisor.ProcessBoundaryException;
import org.metaruntime.supervisor.ProcessSpec;
import org.metaruntime.supervisor.StopLadder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * Opens a session: builds its parts around a stdio child or a remote endpoint (taking the leases on the shared timer
 * and HTTP client), spawns the child, starts the SDK client session and runs the handshake (none for a bare server;
 * for a server that may be bare, the handshake finds out).
 * A session that fails to open is closed before its future fails, with a process tree stopped at once, and the
 * failure names what the server wrote to stderr. Stateless.
 *
 * <pre>{@code
 * long timeoutMs = 10_000;
 * long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
 * SessionParts parts = SessionOpener.stdio(spec, options, timeoutMs, deadline, Function.identity()).join();
 * // ... parts.window(), parts.catalog(), parts.peer() ...
 * parts.lifecycle().close(SessionOpener.CLOSE_TIMEOUT, options.stopLadder()).join();
 * }</pre>
 */
public final class SessionOpener {

    private static final Logger LOG = LoggerFactory.getLogger(McpConnection.class);
    /** The SDK session's own per-request timeout; it never applies, as requests are sent through the window. */
    private static final Duration SESSION_REQUEST_TIMEOUT = Duration.ofDays(1);
    /** How long closing a session that failed to open may take. */
    public static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);

    private SessionOpener() {
    }

    /**
     * Spawns {@code spec}'s server and runs the handshake within {@code timeoutMs} (by {@code deadline}, a
     * {@link System#nanoTime()} value); completes with {@code connection} applied to the parts, or fails with
     * {@code ConnectionFailed} or {@code Timeout} with operation {@code connect}.
     */
    public static <C> CompletableFuture<C> stdio(ProcessSpec spec, McpClientOptions options, long timeoutMs, long deadline,
                                                 Function<SessionParts, C> connection) {
        String moduleId = spec.moduleId();
        ScheduledExecutorService timer = SharedTimer.acquire();
        ProcessClientTransport transport = new ProcessClientTransport(moduleId);
        SessionParts parts = parts(moduleId, options, timer, new SessionPeer.Stdio(transport));
        try {
            transport.start(spec, parts.lifecycle());
        } catch (ProcessBoundaryException e) {
            SharedTimer.release();
            return CompletableFuture.failedFuture(new McpBoundaryException(
                    new McpBoundaryError.ConnectionFailed(moduleId, e.error().message()), e));
        }
        return handshake(parts, timeoutMs, deadline, connection);
    }

    /**
     * Connects to {@code endpoint} and runs the handshake, as {@link #stdio} does.
     *
     * @throws IllegalArgumentException when {@code options} declare the tools of a bare server
     */
    public static <C> CompletableFuture<C> http(McpHttpEndpoint endpoint, McpClientOptions options, long timeoutMs,
                                                long deadline, Function<SessionParts, C> connection) {
        if (options.bareTools().isPresent() || options.bareUnlessMcp().isPresent()) {
            throw new IllegalArgumentException("module '" + endpoint.moduleId()
                    + "': a remote server must speak MCP (declared tools for a bare server apply to stdio servers only)");
        }
        ScheduledExecutorService timer = SharedTimer.acquire();
        HttpClientTransport http = new HttpClientTransport(endpoint, SharedHttpClient.acquire());
        SessionParts parts = parts(endpoint.moduleId(), options, timer, new SessionPeer.Http(endpoint, http));
        http.bind(parts.lifecycle(), parts.lifecycle()::lost);
        return handshake(parts, timeoutMs, deadline, connection);
    }

    /** The parts of a session with {@code peer}. */
    private static SessionParts parts(String moduleId, McpClientOptions options, ScheduledExecutorService timer,
                                      SessionPeer peer) {
        CallWindow window = new CallWindow(moduleId, options.maxInFlight(), options.maxQueued(), timer, peer.wire());
        ToolCatalog catalog = new ToolCatalog(window, options.bareTools().orElse(null));
        Surface surface = new Surface(window);
        NotificationHub notifications = new NotificationHub(moduleId);
        SessionLifecycle lifecycle = new SessionLifecycle(moduleId, options, timer, peer, window, catalog, notifications);
        return new SessionParts(moduleId, options, window, catalog, surface, notifications, lifecycle, peer, null);
    }

    /** Starts the SDK session and runs the handshake; a failed handshake closes the session first. */
    private static <C> CompletableFuture<C> handshake(SessionParts parts, long timeoutMs, long deadline,
                                                      Function<SessionParts, C> connection) {
        McpClientOptions options = parts.options();
        parts.lifecycle().session(new McpClientSession(SESSION_REQUEST_TIMEOUT, parts.peer().sdkTransport(),
                new ServerRequests(parts.moduleId(), options, parts.window()).handlers(), Map.of(),
                Function.<Mono<Void>>identity()));
        if (options.bareTools().isPresent()) {
            parts.window().speaksBare();
            return CompletableFuture.completedFuture(connection.apply(parts)); // a bare server: no handshake
        }
        Optional<List<McpSchema.Tool>> bareUnlessMcp = options.bareUnlessMcp();
        CompletableFuture<C> opened = new CompletableFuture<>();
        (bareUnlessMcp.isPresent()
                ? Handshake.runOrBare(parts.window(), parts.peer().wire(), options, timeoutMs, deadline)
                : Handshake.run(parts.window(), parts.peer().wire(), options, timeoutMs, deadline)
                        .thenApply(init -> new Handshake.Outcome(init, null))).whenComplete((outcome, e) -> {
            if (e == null && outcome.init() == null) {
                parts.window().speaksBare();
                parts.catalog().declare(bareUnlessMcp.get());
                tellBare(options, parts.moduleId(), outcome.bareBecause());
                opened.complete(connection.apply(parts));
            } else if (e == null) {
                parts.peer().agreed(outcome.init());
                opened.complete(connection.apply(parts.initialized(outcome.init())));
            } else {
                parts.lifecycle().close(CLOSE_TIMEOUT, StopLadder.immediate()).whenComplete((ignored, x) ->
                        opened.completeExceptionally(withStderrTail(Failures.unwrap(e), parts.peer().stderrTail())));
            }
        });
        return opened;
    }

    /** The server did not answer {@code initialize} as an MCP server: it is served as a bare server with its declared tools. */
    private static void tellBare(McpClientOptions options, String moduleId, String because) {
        LOG.debug("module '{}' is served as a bare JSON-RPC server: {}", moduleId, because);
        try {
            options.bareListener().accept(moduleId, because);
        } catch (RuntimeException e) {
            LOG.warn("module '{}': the bare server listener threw: {}", moduleId, e.toString());
        }
    }

    /** A failed handshake names what the server wrote to stderr (a server that hangs says why, if it says anything). */
    private static Throwable withStderrTail(Throwable failure, String stderrTail) {
        if (failure instanceof McpBoundaryException e && e.stderrTail().isEmpty() && !stderrTail.isEmpty()) {
            return new McpBoundaryException(e.error(), e.getCause() == null ? e : e.getCause(), e.exitCode(), stderrTail);
        }
        return failure;
    }
}
