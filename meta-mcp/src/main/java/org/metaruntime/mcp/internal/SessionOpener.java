package org.metaruntime.mcp.internal;

import io.modelcontextprotocol.spec.McpClientSession;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpBoundaryException;
import org.metaruntime.mcp.McpClientOptions;
import org.metaruntime.mcp.McpConnection;
import org.metaruntime.mcp.McpHttpEndpoint;
import org.metaruntime.mcp.McpProtocolEra;
import org.metaruntime.supervisor.ProcessBoundaryException;
import org.metaruntime.supervisor.ProcessSpec;
import org.metaruntime.supervisor.Scheduler;
import org.metaruntime.supervisor.StopLadder;
import org.metaruntime.supervisor.internal.Failures;
import org.metaruntime.supervisor.internal.SharedTimer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * Opens a session: builds its parts around a stdio child or a remote endpoint (taking the leases on the shared timer
 * and HTTP client), spawns the child, starts the SDK client session, finds the server's era (the
 * {@code server/discover} probe, unless pinned to legacy) and runs the handshake of a legacy server (none for a bare
 * server; for a server that may be bare, the handshake finds out). A modern server gets no handshake: its session is
 * ready once the probe is answered, and keeps a {@code subscriptions/listen} stream open.
 * A session that fails to open is closed before its future fails, with a process tree stopped at once, and the
 * failure names what the server wrote to stderr; so is one whose future the caller cancels. Stateless.
 *
 * <pre>{@code
 * SessionParts parts = SessionOpener.stdio(spec, options, Duration.ofSeconds(10), Function.identity()).join();
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
    /**
     * What a session's window runs on unless told otherwise: the library's one timer ({@link Scheduler#shared()}),
     * whose clock its deadlines (the probe bound among them) are read on.
     */
    private static final Scheduler TIMER = Scheduler.shared();

    private SessionOpener() {
    }

    /**
     * Spawns {@code spec}'s server and runs the handshake within {@code timeout}; completes with {@code connection}
     * applied to the parts, or fails with {@code ConnectionFailed} or {@code Timeout} with operation {@code connect}.
     */
    public static <C> CompletableFuture<C> stdio(ProcessSpec spec, McpClientOptions options, Duration timeout,
                                                 Function<SessionParts, C> connection) {
        return stdio(spec, options, timeout, TIMER, connection);
    }

    /**
     * {@link #stdio(ProcessSpec, McpClientOptions, Duration, Function)} with the session's deadlines read on
     * {@code clock}'s clock and enforced by tasks on it (a test's manual scheduler: time passes only when it says so).
     */
    public static <C> CompletableFuture<C> stdio(ProcessSpec spec, McpClientOptions options, Duration timeout,
                                                 Scheduler clock, Function<SessionParts, C> connection) {
        return stdio(spec, options, timeout.toMillis(), clock.nanoTime() + timeout.toNanos(), clock, connection);
    }

    /** {@link #stdio(ProcessSpec, McpClientOptions, Duration, Function)} by {@code deadline}, on {@code clock}. */
    private static <C> CompletableFuture<C> stdio(ProcessSpec spec, McpClientOptions options, long timeoutMs,
                                                  long deadline, Scheduler clock, Function<SessionParts, C> connection) {
        String moduleId = spec.moduleId();
        ScheduledExecutorService timer = SharedTimer.acquire();
        ProcessClientTransport transport = new ProcessClientTransport(moduleId);
        SessionParts parts = parts(moduleId, options, timer, clock, new SessionPeer.Stdio(transport));
        try {
            transport.start(spec, parts.lifecycle());
        } catch (ProcessBoundaryException e) {
            SharedTimer.release();
            return CompletableFuture.failedFuture(new McpBoundaryException(
                    new McpBoundaryError.ConnectionFailed(moduleId, e.error().message()), e));
        }
        return handshake(parts, timeoutMs, deadline, connection, () -> {
            long left = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - clock.nanoTime()));
            return stdio(spec, options.toBuilder().protocolEra(McpProtocolEra.LEGACY).build(), left, deadline, clock,
                    connection);
        });
    }

    /**
     * Connects to {@code endpoint} and runs the handshake, as {@link #stdio} does.
     *
     * @throws IllegalArgumentException when {@code options} declare the tools of a bare server
     */
    public static <C> CompletableFuture<C> http(McpHttpEndpoint endpoint, McpClientOptions options, Duration timeout,
                                                Function<SessionParts, C> connection) {
        return http(endpoint, options, timeout, TIMER, connection);
    }

    /** {@link #http(McpHttpEndpoint, McpClientOptions, Duration, Function)} with the session's deadlines on {@code clock}. */
    public static <C> CompletableFuture<C> http(McpHttpEndpoint endpoint, McpClientOptions options, Duration timeout,
                                                Scheduler clock, Function<SessionParts, C> connection) {
        if (options.bareTools().isPresent() || options.bareUnlessMcp().isPresent()) {
            throw new IllegalArgumentException("module '" + endpoint.moduleId()
                    + "': a remote server must speak MCP (declared tools for a bare server apply to stdio servers only)");
        }
        ScheduledExecutorService timer = SharedTimer.acquire();
        HttpClientTransport http = new HttpClientTransport(endpoint, SharedHttpClient.acquire(),
                SharedHttpClient.executor());
        SessionParts parts = parts(endpoint.moduleId(), options, timer, clock, new SessionPeer.Http(endpoint, http));
        http.bind(parts.lifecycle(), parts.lifecycle()::lost);
        return handshake(parts, timeout.toMillis(), clock.nanoTime() + timeout.toNanos(), connection, null);
    }

    /** The parts of a session with {@code peer}, its window's deadlines on {@code clock}. */
    private static SessionParts parts(String moduleId, McpClientOptions options, ScheduledExecutorService timer,
                                      Scheduler clock, SessionPeer peer) {
        CallWindow window = new CallWindow(moduleId, options.maxInFlight(), options.maxQueued(), clock, peer.transport());
        ToolCatalog catalog = new ToolCatalog(window, options.bareTools().orElse(null));
        Surface surface = new Surface(window);
        NotificationHub notifications = new NotificationHub(moduleId);
        SessionLifecycle lifecycle = new SessionLifecycle(moduleId, options, timer, peer, window, catalog, notifications);
        return new SessionParts(moduleId, options, window, catalog, surface, notifications, lifecycle, peer,
                ServerAnnouncement.NONE);
    }

    /**
     * Starts the SDK session and finds the server's era: a bare server gets no handshake; a legacy one (pinned, or
     * found by the probe) gets {@code initialize}; a modern one only its first request. A stdio server that exits on
     * the probe is started again by {@code restart} (null: not restartable) and gets no probe. A failed handshake
     * closes the session first.
     */
    private static <C> CompletableFuture<C> handshake(SessionParts parts, long timeoutMs, long deadline,
                                                      Function<SessionParts, C> connection, Supplier<CompletableFuture<C>> restart) {
        McpClientOptions options = parts.options();
        ServerRequests requests = new ServerRequests(parts.moduleId(), options, parts.window());
        parts.lifecycle().session(new McpClientSession(SESSION_REQUEST_TIMEOUT, parts.peer().transport(),
                requests.handlers(), Map.of(), Function.<Mono<Void>>identity()));
        if (options.bareTools().isPresent()) {
            parts.window().speaksBare();
            return CompletableFuture.completedFuture(connection.apply(parts)); // a bare server: no handshake
        }
        CompletableFuture<C> opened = new CompletableFuture<>();
        opened.whenComplete((c, e) -> {
            if (opened.isCancelled()) {   // the caller gave up: the server is stopped at once
                parts.lifecycle().close(CLOSE_TIMEOUT, StopLadder.immediate());
            }
        });
        McpProtocolEra era = options.protocolEra();
        if (era == McpProtocolEra.LEGACY) {
            legacy(parts, timeoutMs, 0, deadline, connection, opened);
            return opened;
        }
        Envelope modern = Envelope.modern(options);
        // a server pinned modern has nothing to fall back to: its probe may take the whole startup; a server that
        // may be bare shares its detection time between the probe and initialize
        boolean mayBeBare = options.bareUnlessMcp().isPresent();
        long probeBound = era == McpProtocolEra.MODERN ? Math.max(1, timeoutMs)
                : mayBeBare ? Math.max(1, Math.min(Discovery.PROBE_BOUND_MS, Handshake.detectionBound(timeoutMs) / 2))
                : Discovery.bound(timeoutMs);
        Discovery.probe(parts.window(), modern, probeBound, deadline).whenComplete((outcome, e) -> {
            if (e != null) {
                fail(parts, e, opened);
            } else if (outcome instanceof Discovery.Modern m) {
                parts.window().speaksModern(modern, new InputRounds(requests));
                parts.peer().speaksModern();
                ListenStream.open(parts.window(), m.result());
                LOG.debug("module '{}' speaks MCP {}", parts.moduleId(), Envelope.MODERN_VERSION);
                opened.complete(connection.apply(parts.discovered(m.result())));
            } else if (outcome instanceof Discovery.Legacy l) {
                if (era == McpProtocolEra.MODERN) {
                    fail(parts, new McpBoundaryException(new McpBoundaryError.UnsupportedProtocol(parts.moduleId(),
                            McpProtocolEra.MODERN, l.versions())), opened);
                    return;
                }
                LOG.debug("module '{}' is a legacy MCP server: {}", parts.moduleId(), l.because());
                legacy(parts, timeoutMs, probeBound, deadline, connection, opened);
            } else {
                McpBoundaryException gone = ((Discovery.Gone) outcome).failure();
                if (era == McpProtocolEra.MODERN || restart == null) {
                    fail(parts, gone, opened);
                    return;
                }
                LOG.debug("module '{}' exited on server/discover; starting it again as a legacy MCP server: {}",
                        parts.moduleId(), gone.getMessage());
                parts.lifecycle().close(CLOSE_TIMEOUT, StopLadder.immediate()).whenComplete((ignored, x) -> {
                    CompletableFuture<C> restarted = restart.get();
                    opened.whenComplete((c, cancelled) -> {
                        if (opened.isCancelled()) {
                            restarted.cancel(false);
                        }
                    });
                    restarted.whenComplete((c, again) -> {
                        if (again == null) {
                            opened.complete(c);
                        } else {
                            opened.completeExceptionally(again);
                        }
                    });
                });
            }
        });
        return opened;
    }

    /**
     * Runs {@code initialize} (or finds a bare server, within what is left of its detection time after a probe of
     * {@code probedMs}) and completes {@code opened}.
     */
    private static <C> void legacy(SessionParts parts, long timeoutMs, long probedMs, long deadline,
                                   Function<SessionParts, C> connection, CompletableFuture<C> opened) {
        McpClientOptions options = parts.options();
        Optional<List<McpSchema.Tool>> bareUnlessMcp = options.bareUnlessMcp();
        (bareUnlessMcp.isPresent()
                ? Handshake.runOrBareWithin(parts.window(), parts.peer().transport(), options,
                        Math.max(1, Handshake.detectionBound(timeoutMs) - probedMs), deadline)
                : Handshake.run(parts.window(), parts.peer().transport(), options, timeoutMs, deadline)
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
                fail(parts, e, opened);
            }
        });
    }

    /** Closes the session that failed to open, then fails {@code opened} with {@code e} and the stderr tail. */
    private static void fail(SessionParts parts, Throwable e, CompletableFuture<?> opened) {
        parts.lifecycle().close(CLOSE_TIMEOUT, StopLadder.immediate()).whenComplete((ignored, x) ->
                opened.completeExceptionally(withStderrTail(Failures.unwrap(e), parts.peer().stderrTail())));
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
