package org.metaruntime.core.internal;

import org.metaruntime.core.RuntimeBoundaryError;
import org.metaruntime.supervisor.ModuleException;

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
        return error.code();
    }

    /** The code of any failure. */
    public static String of(Throwable failure) {
        if (failure instanceof ModuleException module) {
            return module.code();
        }
        return UNKNOWN;
    }
}
