package org.metaruntime.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.Objects;
import org.metaruntime.supervisor.ProcessSpec;

/**
 * The {@link McpSessionMode#PER_CALL} boundary: every call spawns the server, runs {@code initialize},
 * {@code tools/list} and {@code tools/call}, and closes. Each of the four steps is bounded by the caller's
 * timeout. Stateless and thread-safe.
 *
 * <p>Errors: spawn or {@code initialize} failure is {@code ConnectionFailed} (or {@code Timeout("connect")})
 * and close is not reported; otherwise the step's outcome is composed with the close's: ok+ok gives the
 * payload, ok+close error the close error, error+ok the error, error+error
 * {@code OperationFailedWithCloseFailure}.
 *
 * <pre>{@code
 * JsonNode payload = McpPerCall.call(spec, "echo", args, Duration.ofSeconds(10), McpClientOptions.defaults());
 * }</pre>
 */
public final class McpPerCall {

    private McpPerCall() {
    }

    /**
     * Runs one call on a fresh server process.
     *
     * @param tool    the tool name (the routed request's method)
     * @param params  the tool's arguments (a JSON object, or null for none)
     * @param timeout bounds each step; must be positive
     * @throws McpBoundaryException as described on the class
     */
    public static JsonNode call(ProcessSpec spec, String tool, JsonNode params, Duration timeout, McpClientOptions options) {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(options, "options");
        McpConnection connection = McpConnection.open(spec, options, timeout);
        JsonNode payload = null;
        McpBoundaryException failure = null;
        try {
            if (!connection.listTools(timeout).contains(tool)) {
                throw new McpBoundaryException(new McpBoundaryError.ToolNotFound(spec.moduleId(), tool, connection.tools()));
            }
            payload = connection.callTool(tool, params, timeout);
        } catch (McpBoundaryException e) {
            failure = e;
        } catch (RuntimeException e) {
            connection.closeQuietly(timeout);
            throw e;
        }
        McpBoundaryError closeError = connection.closeQuietly(timeout);
        if (failure == null && closeError == null) {
            return payload;
        }
        McpBoundaryError error = compose(failure == null ? null : failure.error(), closeError);
        throw failure != null && error == failure.error() ? failure : new McpBoundaryException(error, failure);
    }

    /** The close composition: the step's error, the close error, or both. */
    static McpBoundaryError compose(McpBoundaryError primary, McpBoundaryError close) {
        if (primary == null) {
            return close;
        }
        if (close == null) {
            return primary;
        }
        return new McpBoundaryError.OperationFailedWithCloseFailure(primary, close);
    }
}
