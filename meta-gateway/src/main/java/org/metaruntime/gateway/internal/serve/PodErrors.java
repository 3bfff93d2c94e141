package org.metaruntime.gateway.internal.serve;

import java.util.OptionalInt;
import java.util.concurrent.CancellationException;
import org.metaruntime.core.ModuleRouteError;
import org.metaruntime.core.ModuleRouteException;
import org.metaruntime.core.RuntimeBoundaryError;
import org.metaruntime.core.internal.BoundaryFailure;
import org.metaruntime.gateway.internal.manifest.PodManifest;
import org.metaruntime.gateway.internal.serve.PodBackend.PodFailure;
import org.metaruntime.gateway.internal.serve.PodBackend.PodFailure.Kind;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpBoundaryException;
import org.metaruntime.supervisor.ModuleException;
import org.metaruntime.supervisor.internal.Failures;

/** Maps the runtime's errors to {@link PodFailure}s (and so to the gateway's error codes). Stateless. */
final class PodErrors {

    private PodErrors() {
    }

    /**
     * @param starting whether the failure happened while the pod was being started for this call (a connection
     *                 failure then means "failed to start", -32003, rather than "not available", -32002)
     */
    static PodFailure map(Throwable error, boolean starting) {
        Throwable cause = Failures.unwrap(error);
        if (cause instanceof PodFailure failure) {
            return failure;
        }
        if (cause instanceof CancellationException) {
            return new PodFailure(Kind.CANCELLED, "cancelled", OptionalInt.empty(), "");
        }
        OptionalInt exitCode = OptionalInt.empty();
        String stderrTail = "";
        if (cause instanceof ModuleException module) {
            exitCode = module.exitCode();
            stderrTail = module.stderrTail();
        }
        McpBoundaryError mcp = null;
        if (cause instanceof McpBoundaryException e) {
            mcp = e.error();
        } else if (cause instanceof ModuleRouteException e) {
            if (exitCode.isEmpty()) {
                exitCode = e.exitCode();
            }
            if (stderrTail.isEmpty()) {
                stderrTail = e.stderrTail();
            }
            ModuleRouteError route = e.error();
            if (route instanceof ModuleRouteError.ModuleRuntime runtime && runtime.error() instanceof RuntimeBoundaryError.Mcp m) {
                mcp = m.error();
            } else if (route instanceof ModuleRouteError.UnloadedModule
                    || route instanceof ModuleRouteError.ModuleUnavailable) {
                // A pod this call was starting that is already restarting or failed when the call reaches it failed
                // to start; a pod met restarting by a later call is merely not available.
                return new PodFailure(starting ? Kind.START_FAILED : Kind.UNAVAILABLE, e.getMessage(), exitCode, stderrTail);
            } else if (!(route instanceof ModuleRouteError.ModuleRuntime)) {
                return new PodFailure(Kind.UNAVAILABLE, e.getMessage(), exitCode, stderrTail);
            }
        }
        if (mcp instanceof McpBoundaryError.OperationFailedWithCloseFailure both) {
            mcp = both.primary();
        }
        if (mcp == null) {
            return new PodFailure(starting ? Kind.START_FAILED : Kind.FAILED, String.valueOf(cause.getMessage()), exitCode, stderrTail);
        }
        String reason = cause.getMessage();
        if (mcp instanceof McpBoundaryError.Timeout t) {
            boolean connecting = t.operation().contains("connect") || t.operation().contains("initialize") || t.operation().contains("start");
            return new PodFailure(connecting ? Kind.START_FAILED : Kind.TIMEOUT, reason, exitCode, stderrTail);
        }
        if (mcp instanceof McpBoundaryError.UnsupportedProtocol) {
            return new PodFailure(Kind.START_FAILED, reason, exitCode, stderrTail); // only a startup finds it
        }
        if (mcp instanceof McpBoundaryError.ConnectionFailed || mcp instanceof McpBoundaryError.ToolListFailed) {
            return new PodFailure(starting ? Kind.START_FAILED : Kind.UNAVAILABLE, reason, exitCode, stderrTail);
        }
        if (mcp instanceof McpBoundaryError.SessionLost) {
            return new PodFailure(Kind.UNAVAILABLE, reason, exitCode, stderrTail); // the remote pod reconnects
        }
        if (mcp instanceof McpBoundaryError.ToolNotFound) {
            return new PodFailure(Kind.UNKNOWN_TOOL, reason, exitCode, stderrTail);
        }
        if (mcp instanceof McpBoundaryError.JsonRpcError rpc) {
            return new PodFailure(Kind.ERROR_ANSWER, rpc.errorMessage(), exitCode, stderrTail, rpc.errorCode(), rpc.data());
        }
        if (mcp instanceof McpBoundaryError.Cancelled) {
            return new PodFailure(Kind.CANCELLED, reason, exitCode, stderrTail);
        }
        if (mcp instanceof McpBoundaryError.ToolCallFailed || mcp instanceof McpBoundaryError.RequestFailed) {
            if (exitCode.isPresent()) {
                return new PodFailure(Kind.UNAVAILABLE, "the pod exited with code " + exitCode.getAsInt()
                        + " (the runtime restarts it)", exitCode, stderrTail);
            }
            return new PodFailure(Kind.FAILED, reason, exitCode, stderrTail);
        }
        return new PodFailure(Kind.FAILED, reason, exitCode, stderrTail);
    }

    /**
     * The failure of a call the runtime sent to a pod, as the MCP boundary reported it: the
     * {@link McpBoundaryException} inside the call's {@link ModuleRouteException}, so that the reason a client reads
     * is the pod's, not the route's; any other failure as it is.
     */
    static Throwable asSent(Throwable error) {
        Throwable cause = Failures.unwrap(error);
        if (cause instanceof ModuleRouteException route && route.getCause() instanceof BoundaryFailure boundary
                && boundary.getCause() instanceof McpBoundaryException sent) {
            return sent;
        }
        return cause;
    }

    /**
     * {@code error} of a start of {@code pod}: {@link #map} with {@code starting}; when the pod did not answer
     * {@code initialize} as an MCP server, or not at all, the reason also names both ways out (speak MCP, or be served
     * as a bare JSON-RPC pod).
     */
    static PodFailure startFailed(PodManifest pod, Throwable error) {
        PodFailure failure = map(error, true);
        String hint = failure.kind() == Kind.START_FAILED ? protocolHint(pod, mcpError(Failures.unwrap(error))) : null;
        return hint == null ? failure : new PodFailure(failure.kind(), failure.getMessage() + "; " + hint,
                failure.exitCode(), failure.stderrTail(), failure.errorCode(), failure.errorData());
    }

    /** What to do about a local pod that answered {@code initialize} as no MCP server does, or did not answer it. */
    private static String protocolHint(PodManifest pod, McpBoundaryError error) {
        if (pod.isRemote() || pod.isBare() || error == null) {
            return null;
        }
        if (error instanceof McpBoundaryError.Timeout t && t.operation().contains("connect")) {
            return "the pod did not answer initialize within its startupTimeout: an MCP server answers it (give a slow one a"
                    + " longer startupTimeout), and a bare JSON-RPC pod that answers only tools/call needs protocol: jsonrpc"
                    + " and its tools declared in spec.tools";
        }
        if (error instanceof McpBoundaryError.ConnectionFailed c && (c.reason().contains("answered initialize with")
                || c.reason().startsWith("JSON-RPC error "))) {
            return "the pod does not answer initialize as an MCP server: make it one, or declare its tools in spec.tools"
                    + (pod.protocol() == PodManifest.Protocol.MCP ? " without protocol: mcp" : "")
                    + " to serve it as a bare JSON-RPC pod";
        }
        return null;
    }

    /** The MCP boundary's error inside {@code cause}, or null. */
    private static McpBoundaryError mcpError(Throwable cause) {
        McpBoundaryError mcp = null;
        if (cause instanceof McpBoundaryException e) {
            mcp = e.error();
        } else if (cause instanceof ModuleRouteException e && e.error() instanceof ModuleRouteError.ModuleRuntime runtime
                && runtime.error() instanceof RuntimeBoundaryError.Mcp m) {
            mcp = m.error();
        }
        return mcp instanceof McpBoundaryError.OperationFailedWithCloseFailure both ? both.primary() : mcp;
    }

    /** A failure as the status report's {@code lastError}: the reason, and the exit code when it does not say it. */
    static String describe(PodFailure failure) {
        String reason = String.valueOf(failure.getMessage());
        if (failure.exitCode().isPresent() && !reason.contains("code " + failure.exitCode().getAsInt())) {
            reason += " (exit code " + failure.exitCode().getAsInt() + ")";
        }
        return reason;
    }
}
