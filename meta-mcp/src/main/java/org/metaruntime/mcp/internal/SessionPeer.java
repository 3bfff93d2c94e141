package org.metaruntime.mcp.internal;

import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema.InitializeResult;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.metaruntime.mcp.McpHttpEndpoint;
import org.metaruntime.supervisor.ProcessExit;

/**
 * The server at the other end of a connection's session: a local stdio child ({@link Stdio}) or a remote server over
 * MCP Streamable HTTP ({@link Http}). It gives the session its transport and answers what only one kind knows (the
 * process id, the stderr tail, the exit; the endpoint, the session id, the renewals). Thread-safe.
 */
public interface SessionPeer {

    /** The transport the SDK client session answers the server's requests through. */
    McpClientTransport sdkTransport();

    /** The transport the call window writes to. */
    CallWindow.Wire wire();

    /** The handshake agreed on {@code result}. */
    void agreed(InitializeResult result);

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

    /** A child process speaking MCP on its stdin and stdout. */
    final class Stdio implements SessionPeer {
        private final ProcessClientTransport transport;

        public Stdio(ProcessClientTransport transport) {
            this.transport = transport;
        }

        @Override
        public McpClientTransport sdkTransport() {
            return transport;
        }

        @Override
        public CallWindow.Wire wire() {
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
        public McpClientTransport sdkTransport() {
            return transport;
        }

        @Override
        public CallWindow.Wire wire() {
            return transport;
        }

        @Override
        public void agreed(InitializeResult result) {
            transport.protocolVersion(result.protocolVersion());
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
    }
}
