package org.metaruntime.core.internal;

import org.metaruntime.core.RuntimeBoundaryError;
import org.metaruntime.mcp.McpBoundaryError;

/** The stable {@code error_type} codes of {@code supervisor.warning} events, e.g. {@code process.empty_output}. */
public final class ErrorCodes {

    /** The supervisor stopped the module after too many restarts. */
    public static final String RESTART_INTENSITY_EXCEEDED = "supervisor.restart_intensity_exceeded";
    /** A failure that is not a boundary error. */
    public static final String UNKNOWN = "unknown";

    private ErrorCodes() {
    }

    /** The code of a boundary error: {@code process.*}, {@code normalize.*} or {@code mcp.*}. */
    public static String of(RuntimeBoundaryError error) {
        if (error instanceof RuntimeBoundaryError.Process) {
            return "process." + snake(((RuntimeBoundaryError.Process) error).error().getClass().getSimpleName());
        }
        if (error instanceof RuntimeBoundaryError.Normalize) {
            return "normalize." + snake(((RuntimeBoundaryError.Normalize) error).error().getClass().getSimpleName());
        }
        McpBoundaryError mcp = ((RuntimeBoundaryError.Mcp) error).error();
        if (mcp instanceof McpBoundaryError.OperationFailedWithCloseFailure) {
            mcp = ((McpBoundaryError.OperationFailedWithCloseFailure) mcp).primary();
        }
        return "mcp." + snake(mcp.getClass().getSimpleName());
    }

    /** The code of any failure. */
    public static String of(Throwable failure) {
        if (failure instanceof BoundaryFailure) {
            return of(((BoundaryFailure) failure).error());
        }
        return UNKNOWN;
    }

    static String snake(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(java.util.Locale.ROOT);
    }
}
