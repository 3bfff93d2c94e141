package org.metaruntime.core;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.supervisor.ModuleException;
import org.metaruntime.supervisor.ProcessBoundaryError;

/**
 * The base of the two exceptions {@link UnifiedRuntime} throws about one module: {@link ModuleRouteException} for a
 * call and {@link RuntimeFromConfigException} for running a module straight from the configuration. Each carries
 * its own error value ({@code error()}); this base holds what they share: the module id, the exit code and stderr
 * tail of the module's process (from {@link ModuleException}), the stable {@link #code()}, and typed accessors for
 * the boundary that failed. Match on {@code code()} or these accessors; catch this type to handle both alike.
 *
 * <pre>{@code
 * try {
 *     runtime.spawnMember("weather", Duration.ofSeconds(10));
 *     runtime.routeModuleCall(request, Duration.ofSeconds(5));
 * } catch (RuntimeModuleException e) {
 *     if (e.isTimeout()) {
 *         retryLater();
 *     } else {
 *         log.error("{} [{}]", e.getMessage(), e.code());    // e.g. [config.module_not_configured]
 *     }
 * }
 * }</pre>
 *
 * <p>Immutable and thread-safe. Only this package defines subclasses.
 */
public abstract class RuntimeModuleException extends ModuleException {

    private final String code;
    private final transient RuntimeBoundaryError boundaryError;

    /**
     * @param moduleId      the module the error is about
     * @param lead          the start of the message, naming the module
     * @param code          the error value's code
     * @param message       the error value's message, used when no boundary failed
     * @param boundaryError the boundary error the value wraps, when a boundary failed
     * @param exitCode      the exit code when the module's process had exited
     * @param stderrTail    the end of the process's stderr, or null
     * @param cause         the underlying exception, or null
     */
    RuntimeModuleException(String moduleId, String lead, String code, String message,
            Optional<RuntimeBoundaryError> boundaryError, OptionalInt exitCode, String stderrTail, Throwable cause) {
        super(moduleId, lead, boundaryError.map(RuntimeBoundaryError::explained).orElse(message),
                Objects.requireNonNull(exitCode, "exitCode"), stderrTail == null ? "" : stderrTail, cause);
        this.code = Objects.requireNonNull(code, "code");
        this.boundaryError = boundaryError.orElse(null);
    }

    /** The stable code of the innermost error, e.g. {@code route.unloaded_module}, {@code mcp.timeout}. */
    @Override
    public final String code() {
        return code;
    }

    /** The boundary error, when the module's boundary failed. */
    public final Optional<RuntimeBoundaryError> boundaryError() {
        return Optional.ofNullable(boundaryError);
    }

    /** Whether the call or the start ran out of time, on either boundary. */
    public final boolean isTimeout() {
        return boundaryError().map(RuntimeBoundaryError::isTimeout).orElse(false);
    }

    /** The MCP boundary's error, when that is what failed. */
    public final Optional<McpBoundaryError> mcpError() {
        return boundaryError().flatMap(RuntimeBoundaryError::mcpError);
    }

    /** The process boundary's error, when that is what failed. */
    public final Optional<ProcessBoundaryError> processError() {
        return boundaryError().flatMap(RuntimeBoundaryError::processError);
    }
}
