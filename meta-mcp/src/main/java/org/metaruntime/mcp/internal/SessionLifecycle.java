package org.metaruntime.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.spec.McpClientSession;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpClientOptions;
import org.metaruntime.mcp.McpConnection;
import org.metaruntime.supervisor.ProcessExit;
import org.metaruntime.supervisor.StopLadder;
import org.metaruntime.supervisor.StopReport;
import org.metaruntime.supervisor.StopStage;
import org.metaruntime.supervisor.internal.SharedTimer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a connection hears from its transport, and how its session ends: answers and notifications are routed
 * (to the window, the catalog, the listeners); the child's exit (or its stdout closing) ends the session with the
 * exit code and stderr tail; close ends it on purpose, has the {@link SessionPeer} end its side within the close
 * timeout, then releases the peer and the connection's lease on the shared timer. Thread-safe.
 */
public final class SessionLifecycle implements ProcessClientTransport.Inbound {

    private static final Logger LOG = LoggerFactory.getLogger(McpConnection.class);
    /** After stdout closes, how long to wait for the exit code before failing calls without it. */
    private static final long STDOUT_CLOSED_WAIT_MS = 1000;
    private static final int REASON_TAIL_CHARS = 4000;

    private final String moduleId;
    private final McpClientOptions options;
    private final ScheduledExecutorService timer;
    private final SessionPeer peer;
    private final CallWindow window;
    private final ToolCatalog catalog;
    private final NotificationHub notifications;
    private volatile McpClientSession session;
    private volatile ProcessExit exit;
    private final Object closeLock = new Object();
    private CompletableFuture<McpBoundaryError> closing; // guarded by closeLock; completes with null when ok
    private volatile boolean closed;
    private volatile StopReport stopReport;
    private final CompletableFuture<Termination> ended = new CompletableFuture<>();

    /** The lifecycle of one connection's session with {@code peer}; {@code timer} is the lease the connection took. */
    public SessionLifecycle(String moduleId, McpClientOptions options, ScheduledExecutorService timer,
                            SessionPeer peer, CallWindow window, ToolCatalog catalog,
                            NotificationHub notifications) {
        this.moduleId = moduleId;
        this.options = options;
        this.timer = timer;
        this.peer = peer;
        this.window = window;
        this.catalog = catalog;
        this.notifications = notifications;
    }

    /** The SDK session answering the server's requests, closed when the session ends. */
    public void session(McpClientSession session) {
        this.session = session;
    }

    /** Completes with why the session ended, once it has, for whatever reason. */
    public CompletableFuture<Termination> ended() {
        return ended;
    }

    /** Whether the session was ended by {@link #close}. */
    public boolean closedByHost() {
        return closed;
    }

    /** What the stop ladder did on close (null before close). */
    public StopReport stopReport() {
        return stopReport;
    }

    // ---- the transport's events

    @Override
    public void response(McpSchema.JSONRPCResponse response) {
        window.onResponse(response);
    }

    @Override
    public void notification(McpSchema.JSONRPCNotification notification) {
        String method = notification.method();
        if (McpSchema.METHOD_NOTIFICATION_PROGRESS.equals(method)) {
            window.onProgress((JsonNode) notification.params());
            return;
        }
        if (ListenStream.ACKNOWLEDGED.equals(method)) {
            LOG.debug("module '{}' acknowledged the listen stream: {}", moduleId, notification.params());
            return;
        }
        if (CallWindow.CANCELLED.equals(method)) {
            LOG.debug("module '{}' cancelled one of its requests: {}", moduleId, notification.params());
            return;
        }
        if (McpSchema.METHOD_NOTIFICATION_TOOLS_LIST_CHANGED.equals(method)) {
            catalog.refresh();
        } else if (McpSchema.METHOD_NOTIFICATION_MESSAGE.equals(method)) {
            LOG.debug("module '{}' logged: {}", moduleId, notification.params());
        }
        notifications.publish(notification);
    }

    @Override
    public void requestFailed(String id, String reason) {
        window.onRequestFailed(id, reason);
    }

    /** A remote session cannot go on (server unreachable, 5xx, a forgotten session that re-initialising did not cure). */
    public void lost(String reason) {
        terminate(Termination.lost(reason));
    }

    @Override
    public void lineTooLong(int limit, String knownId) {
        window.onLineTooLong(limit, knownId);
    }

    /**
     * No answer can come any more. The exit makes the better reason (its code and stderr tail), so the session ends
     * with it: at once when the process exited, or when its exit is reported (the process layer reports every exit,
     * within its drain timeout). Only a process still alive a second after closing its stdout ends the session
     * without an exit code.
     */
    @Override
    public void stdoutClosed() {
        if (window.termination() != null) {
            return;
        }
        schedule(() -> {
            ProcessExit e = exit;
            if (e != null) {
                terminate(exitTermination(e));
            } else if (peer.transport().alive()) {
                terminate(Termination.of("module '" + moduleId + "' closed its stdout"));
            }
            // else it exited: exited() follows with the exit code and stderr tail
        }, STDOUT_CLOSED_WAIT_MS);
    }

    @Override
    public void exited(ProcessExit e) {
        exit = e;
        terminate(exitTermination(e));
    }

    // ---- close

    /**
     * Ends the session and has the peer end its side within {@code timeout} (a process tree is stopped with
     * {@code ladder} fitted to it); completes with the close error, or null when ok. Idempotent: a second close
     * completes with the first one's outcome.
     */
    public CompletableFuture<McpBoundaryError> close(Duration timeout, StopLadder ladder) {
        CompletableFuture<McpBoundaryError> result;
        synchronized (closeLock) {
            if (closing != null) {
                return closing.copy();
            }
            closed = true;
            result = new CompletableFuture<>();
            closing = result;
        }
        terminate(Termination.of("the connection to module '" + moduleId + "' was closed"));
        notifications.closeAll();
        long timeoutMs = Math.max(1, timeout.toMillis());
        ScheduledFuture<?> bound = schedule(() -> result.complete(new McpBoundaryError.Timeout(moduleId, "close",
                timeoutMs)), timeoutMs);
        peer.stop(timeout, ladder).whenComplete((report, e) -> {
            if (bound != null) {
                bound.cancel(false);
            }
            stopReport = report;
            result.complete(closeError(report, e, ladder));
        });
        result.whenComplete((error, e) -> {
            peer.release();
            SharedTimer.release();
        });
        return result.copy();
    }

    private McpBoundaryError closeError(StopReport report, Throwable e, StopLadder ladder) {
        if (e != null) {
            return new McpBoundaryError.CloseFailed(moduleId, String.valueOf(e));
        }
        if (report == null) {
            return null; // no process was stopped
        }
        if (report.survivors() > 0) {
            return new McpBoundaryError.CloseFailed(moduleId,
                    report.survivors() + " process(es) of the server's tree survived the stop ladder");
        }
        if ((report.stage() == StopStage.KILLED || report.stage() == StopStage.EXITED_AFTER_SIGTERM)
                && ladder == options.stopLadder()) {
            LOG.warn("module '{}': the server did not exit on stdin EOF; stopped with {}", moduleId, report.stage());
        }
        return null;
    }

    // ---- the end of the session

    /** Fails everything in flight or queued; later calls fail at once. */
    private void terminate(Termination t) {
        if (!window.terminate(t)) {
            return;
        }
        if (!closed) {
            LOG.warn("module '{}': MCP session ended: {}", moduleId, t.reason());
        }
        peer.transport().shutdown();
        ended.complete(t);
        McpClientSession s = session;
        if (s != null) {
            s.close();
        }
    }

    private static Termination exitTermination(ProcessExit e) {
        String tail = e.stderrTail().strip();
        String shown = tail.length() > REASON_TAIL_CHARS ? "..." + tail.substring(tail.length() - REASON_TAIL_CHARS) : tail;
        return Termination.exited("the server process (pid " + e.pid() + ") exited with code " + e.exitCode()
                + (shown.isEmpty() ? " and wrote nothing to stderr" : "; stderr tail: " + shown),
                OptionalInt.of(e.exitCode()), tail);
    }

    /** Schedules {@code task} on the shared timer; runs it now (and returns null) when the timer is gone. */
    private ScheduledFuture<?> schedule(Runnable task, long delayMs) {
        try {
            return timer.schedule(task, delayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            task.run();
            return null;
        }
    }
}
