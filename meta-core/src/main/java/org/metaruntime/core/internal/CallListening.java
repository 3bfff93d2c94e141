package org.metaruntime.core.internal;

import org.metaruntime.core.ModuleCallListener;
import org.metaruntime.core.ModuleRouteError;
import org.metaruntime.core.ModuleRouteException;
import org.metaruntime.core.RuntimeBoundaryError;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpBoundaryException;
import org.metaruntime.supervisor.internal.Failures;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the host's {@link ModuleCallListener} of each call's start and end, so that a listener that throws (or returns
 * null) never hurts a call. Thread-safe.
 */
public final class CallListening {

    private static final Logger LOG = LoggerFactory.getLogger(CallListening.class);
    private static final ModuleCallListener.Ended NOTHING = (outcome, error) -> { };

    private final ModuleCallListener listener;
    private final ListenerFailures failures = new ListenerFailures(LOG, "the call listener");

    /** @param listener the host's listener, or null for none */
    public CallListening(ModuleCallListener listener) {
        this.listener = listener;
    }

    /** A call to {@code tool} of {@code moduleId} starts; the returned end is safe to call once. */
    public ModuleCallListener.Ended started(String moduleId, String tool) {
        if (listener == null) {
            return NOTHING;
        }
        ModuleCallListener.Ended ended;
        try {
            ended = listener.callStarted(moduleId, tool);
        } catch (RuntimeException e) {
            failures.failed(e);
            return NOTHING;
        }
        if (ended == null) {
            return NOTHING;
        }
        return (outcome, error) -> {
            try {
                ended.callEnded(outcome, error);
            } catch (RuntimeException e) {
                failures.failed(e);
            }
        };
    }

    /** Tells {@code ended} how a call that completed with {@code error} (null: a success) ended. */
    public static void end(ModuleCallListener.Ended ended, Throwable error) {
        if (error == null) {
            ended.callEnded(ModuleCallListener.Outcome.SUCCESS, null);
            return;
        }
        Throwable cause = Failures.unwrap(error);
        ended.callEnded(isToolError(cause) ? ModuleCallListener.Outcome.TOOL_ERROR : ModuleCallListener.Outcome.ERROR, cause);
    }

    private static boolean isToolError(Throwable error) {
        if (error instanceof ModuleRouteException route
                && route.error() instanceof ModuleRouteError.ModuleRuntime runtime
                && runtime.error() instanceof RuntimeBoundaryError.Mcp mcp) {
            return mcp.error() instanceof McpBoundaryError.ToolReturnedError;
        }
        return error instanceof McpBoundaryException mcp && mcp.error() instanceof McpBoundaryError.ToolReturnedError;
    }
}
