package org.metaruntime.core;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * Unchecked carrier of a {@link ModuleRouteError}, thrown by {@code UnifiedRuntime.routeModuleCall} (and the
 * failure of a {@link ModuleCall#response()}). The message is one sentence naming the module and the cause, with
 * the exit code and stderr tail of the module's process when it ran. {@link #code()}, {@link #isTimeout()},
 * {@link #mcpError()} and {@link #processError()} come from {@link RuntimeModuleException}.
 *
 * <pre>{@code
 * try {
 *     runtime.routeModuleCall(request, Duration.ofSeconds(5));
 * } catch (ModuleRouteException e) {
 *     if (e.isTimeout()) {
 *         retryLater();
 *     } else if (e.mcpError().orElse(null) instanceof McpBoundaryError.ToolNotFound missing) {
 *         log.warn("no tool {}; the module has {}", missing.tool(), missing.availableTools());
 *     } else {
 *         log.error("{} [{}]", e.getMessage(), e.code());     // e.g. [process.empty_output]
 *     }
 * }
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public class ModuleRouteException extends RuntimeModuleException {

    private final transient ModuleRouteError error;

    public ModuleRouteException(String moduleId, ModuleRouteError error) {
        this(moduleId, error, null);
    }

    public ModuleRouteException(String moduleId, ModuleRouteError error, Throwable cause) {
        this(moduleId, error, OptionalInt.empty(), "", cause);
    }

    /**
     * An error that came from a process that ran: its exit code (when it had exited) and stderr tail go into the
     * message and are kept.
     */
    public ModuleRouteException(String moduleId, ModuleRouteError error, OptionalInt exitCode, String stderrTail,
            Throwable cause) {
        super(moduleId, "call to module '" + Objects.requireNonNull(moduleId, "moduleId") + "' failed",
                Objects.requireNonNull(error, "error").code(), error.message(), error.boundaryError(), exitCode,
                stderrTail, cause);
        this.error = error;
    }

    /** The error as a value. */
    public ModuleRouteError error() {
        return error;
    }
}
