package org.metaruntime.mcp;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.metaruntime.supervisor.Deadline;
import org.metaruntime.supervisor.ProcessSpec;

/**
 * The startup probe of an MCP module: spawn, {@code initialize}, {@code tools/list}, all within one timeout.
 * Stateless and thread-safe.
 *
 * <pre>{@code
 * McpProbeResult probe = McpProbe.probe(spec, McpClientOptions.defaults(), Duration.ofSeconds(30));
 * // payload of the mcp.ready event: {"tools": probe.tools()}
 * McpConnection connection = probe.connection();
 * }</pre>
 */
public final class McpProbe {

    private McpProbe() {
    }

    /**
     * Probes a module. On failure the process is stopped before the error is thrown.
     *
     * @param timeout bounds the whole probe; must be positive
     * @throws McpBoundaryException {@code ConnectionFailed} or {@code Timeout("connect")} (close not attempted);
     *                              {@code ToolListFailed} or {@code Timeout("list_tools")}, composed with a close
     *                              failure as {@code OperationFailedWithCloseFailure}
     */
    public static McpProbeResult probe(ProcessSpec spec, McpClientOptions options, Duration timeout) {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(options, "options");
        timeout = Waits.validated(timeout);
        Deadline deadline = Deadline.after(timeout);
        return listed(McpConnection.open(spec, options, timeout), timeout, deadline);
    }

    /**
     * Probes a remote module over MCP Streamable HTTP: connect, {@code initialize}, {@code tools/list}, with the
     * errors of {@link #probe(ProcessSpec, McpClientOptions, Duration)} ({@code ConnectionFailed} when nothing
     * answers at the endpoint). On failure the session is closed before the error is thrown.
     */
    public static McpProbeResult probe(McpHttpEndpoint endpoint, McpClientOptions options, Duration timeout) {
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(options, "options");
        timeout = Waits.validated(timeout);
        Deadline deadline = Deadline.after(timeout);
        return listed(McpConnection.open(endpoint, options, timeout), timeout, deadline);
    }

    private static McpProbeResult listed(McpConnection connection, Duration timeout, Deadline deadline) {
        List<String> tools;
        try {
            tools = connection.listTools(Duration.ofNanos(Math.max(1, deadline.remainingNanos())));
        } catch (McpBoundaryException e) {
            McpBoundaryError closeError = connection.closeQuietly(timeout);
            throw new McpBoundaryException(McpPerCall.compose(e.error(), closeError), e);
        } catch (RuntimeException e) {
            connection.closeQuietly(timeout);
            throw e;
        }
        List<String> sorted = new ArrayList<>(tools);
        Collections.sort(sorted);
        return new McpProbeResult(sorted, connection);
    }
}
