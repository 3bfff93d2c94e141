package org.metaruntime.gateway.internal.serve;

import java.util.OptionalInt;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.metaruntime.core.ModuleRouteError;
import org.metaruntime.core.ModuleRouteException;
import org.metaruntime.core.RuntimeBoundaryError;
import org.metaruntime.gateway.internal.serve.PodBackend.PodFailure;
import org.metaruntime.gateway.internal.serve.PodBackend.PodFailure.Kind;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpBoundaryException;
import org.metaruntime.supervisor.ModuleException;

/** Maps the runtime's errors to {@link PodFailure}s (and so to the gateway's error codes). Stateless. */
final class PodErrors {

    private PodErrors() {
    }

    /**
     * @param starting whether the failure happened while the pod was being started for this call (a connection
     *                 failure then means "failed to start", -32003, rather than "not available", -32002)
     */
    static PodFailure map(Throwable error, boolean starting) {
        Throwable cause = unwrap(error);
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
            } else if (route instanceof ModuleRouteError.UnloadedModule) {
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
        if (mcp instanceof McpBoundaryError.ConnectionFailed || mcp instanceof McpBoundaryError.ToolListFailed) {
            return new PodFailure(starting ? Kind.START_FAILED : Kind.UNAVAILABLE, reason, exitCode, stderrTail);
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
            if (remoteLost(reason)) {
                return new PodFailure(Kind.UNAVAILABLE, reason, exitCode, stderrTail);
            }
            return new PodFailure(Kind.FAILED, reason, exitCode, stderrTail);
        }
        return new PodFailure(Kind.FAILED, reason, exitCode, stderrTail);
    }

    /** A remote pod's session was lost (its server unreachable, 5xx, or a session it forgot twice): it reconnects. */
    private static boolean remoteLost(String reason) {
        return reason != null && reason.contains("the server at ") && (reason.contains(" cannot be reached (")
                || reason.contains(" answered HTTP 5") || reason.contains(" forgot session "));
    }

    private static Throwable unwrap(Throwable error) {
        Throwable t = error;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
