package org.metaruntime.core;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.supervisor.ModuleException;
import org.metaruntime.supervisor.ProcessBoundaryError;

/**
 * Unchecked carrier of a {@link ModuleRouteError}, thrown by {@code UnifiedRuntime.routeModuleCall} (and the
 * failure of a {@link ModuleCall#response()}). The message is one sentence naming the module and the cause, with
 * the exit code and stderr tail of the module's process when it ran.
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
public class ModuleRouteException extends ModuleException {

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
                explained(Objects.requireNonNull(error, "error")), Objects.requireNonNull(exitCode, "exitCode"),
                stderrTail == null ? "" : stderrTail, cause);
        this.error = error;
    }

    private static String explained(ModuleRouteError error) {
        return error instanceof ModuleRouteError.ModuleRuntime runtime ? runtime.error().explained() : error.message();
    }

    /** The error as a value. */
    public ModuleRouteError error() {
        return error;
    }

    /** The stable code of the innermost error, e.g. {@code route.unloaded_module}, {@code mcp.timeout}. */
    @Override
    public String code() {
        return error.code();
    }

    /** Whether the call ran out of time, on either boundary. */
    public boolean isTimeout() {
        return error.boundaryError().map(RuntimeBoundaryError::isTimeout).orElse(false);
    }

    /** The MCP boundary's error, when that is what failed. */
    public Optional<McpBoundaryError> mcpError() {
        return error.boundaryError().flatMap(RuntimeBoundaryError::mcpError);
    }

    /** The process boundary's error, when that is what failed. */
    public Optional<ProcessBoundaryError> processError() {
        return error.boundaryError().flatMap(RuntimeBoundaryError::processError);
    }
}
