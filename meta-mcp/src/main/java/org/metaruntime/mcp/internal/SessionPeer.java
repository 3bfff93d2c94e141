package org.metaruntime.mcp.internal;

import io.modelcontextprotocol.spec.McpSchema.InitializeResult;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.metaruntime.mcp.McpHttpEndpoint;
import org.metaruntime.supervisor.ModuleProcess;
import org.metaruntime.supervisor.ProcessExit;
import org.metaruntime.supervisor.StopLadder;
import org.metaruntime.supervisor.StopReport;

/**
 * The server at the other end of a connection's session: a local stdio child ({@link Stdio}) or a remote server over
 * MCP Streamable HTTP ({@link Http}). It gives the session its transport, answers what only one kind knows (the
 * process id, the stderr tail, the exit; the endpoint, the session id, the renewals) and ends its side of the session
 * the way its kind needs (a process tree stopped; a session ended on the server). Thread-safe.
 */
public interface SessionPeer {

    /** The transport the SDK client session answers the server's requests through and the call window writes to. */
    SessionTransport transport();

    /** The handshake agreed on {@code result}. */
    void agreed(InitializeResult result);

    /** The server speaks MCP {@code 2026-07-28}: there is no session, each request stands alone. */
    default void speaksModern() {
    }

    /** The server's process id; a remote server has none and throws {@link IllegalStateException}. */
    long pid();

    /** The remote server's endpoint; empty for a stdio server. */
    Optional<McpHttpEndpoint> endpoint();

    /** The remote session's id as the server gave it; empty for stdio or a sessionless server. */
    Optional<String> sessionId();

    /** How many times the remote server forgot the session and a new one was initialised in its place. */
    long sessionRenewals();

    /** The last bytes the server wrote to stderr; empty for a remote server. */
    String stderrTail();

    /** Completes when the server process exits; never for a remote server. */
    CompletableFuture<ProcessExit> exitFuture();

    /**
     * Ends the server's side on close, within {@code timeout}: a child's process tree is stopped with {@code ladder}
     * fitted to the timeout (completes with what the ladder did); a remote session is ended on the server (completes
     * with null: no process was stopped; never exceptionally).
     */
    CompletableFuture<StopReport> stop(Duration timeout, StopLadder ladder);

    /** Releases what the peer holds once the session is closed (a remote peer's lease on the shared HTTP client). */
    void release();

    /** A child process speaking MCP on its stdin and stdout. */
    final class Stdio implements SessionPeer {
        private final ProcessClientTransport transport;

        public Stdio(ProcessClientTransport transport) {
            this.transport = transport;
        }

        @Override
        public SessionTransport transport() {
            return transport;
        }

        @Override
        public void agreed(InitializeResult result) {
        }

        @Override
        public long pid() {
            return transport.process().pid();
        }

        @Override
        public Optional<McpHttpEndpoint> endpoint() {
            return Optional.empty();
        }

        @Override
        public Optional<String> sessionId() {
            return Optional.empty();
        }

        @Override
        public long sessionRenewals() {
            return 0;
        }

        @Override
        public String stderrTail() {
            return transport.process().stderrTail();
        }

        @Override
        public CompletableFuture<ProcessExit> exitFuture() {
            return transport.process().exitFuture();
        }

        @Override
        public CompletableFuture<StopReport> stop(Duration timeout, StopLadder ladder) {
            ModuleProcess process = transport.process();
            process.closeStdin(); // at once: the ladder's first step starts on another thread
            return process.stopAsync(fit(ladder, timeout));
        }

        @Override
        public void release() {
        }

        /** {@code ladder} with its graces shortened in proportion so that they add up to at most 90% of {@code timeout}. */
        public static StopLadder fit(StopLadder ladder, Duration timeout) {
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
    }

    /** A remote server over MCP Streamable HTTP. */
    final class Http implements SessionPeer {
        private final McpHttpEndpoint endpoint;
        private final HttpClientTransport transport;

        public Http(McpHttpEndpoint endpoint, HttpClientTransport transport) {
            this.endpoint = endpoint;
            this.transport = transport;
        }

        @Override
        public SessionTransport transport() {
            return transport;
        }

        @Override
        public void agreed(InitializeResult result) {
            transport.protocolVersion(result.protocolVersion());
        }

        @Override
        public void speaksModern() {
            transport.speaksModern();
        }

        @Override
        public long pid() {
            throw new IllegalStateException("module '" + endpoint.moduleId() + "' is a remote server at "
                    + endpoint.url() + ": it has no local process");
        }

        @Override
        public Optional<McpHttpEndpoint> endpoint() {
            return Optional.of(endpoint);
        }

        @Override
        public Optional<String> sessionId() {
            return Optional.ofNullable(transport.sessionId());
        }

        @Override
        public long sessionRenewals() {
            return transport.reinitialisations();
        }

        @Override
        public String stderrTail() {
            return "";
        }

        @Override
        public CompletableFuture<ProcessExit> exitFuture() {
            return new CompletableFuture<>();
        }

        @Override
        public CompletableFuture<StopReport> stop(Duration timeout, StopLadder ladder) {
            Duration bound = Duration.ofMillis(Math.max(1, timeout.toMillis() / 10 * 9));
            return transport.deleteSession(bound).thenApply(ended -> null);
        }

        @Override
        public void release() {
            SharedHttpClient.release();
        }
    }
}
