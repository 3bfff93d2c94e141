package org.metaruntime.core;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.supervisor.ModuleException;
import org.metaruntime.supervisor.ProcessBoundaryError;

/**
 * Unchecked carrier of a {@link RuntimeFromConfigError}, thrown by {@code runDiscoveredModuleOnce},
 * {@code spawnMember} and {@code reconcileModules}. The message is one sentence naming the module and the cause,
 * with the exit code and stderr tail of the module's process when it ran.
 *
 * <pre>{@code
 * try {
 *     runtime.spawnMember("weather", Duration.ofSeconds(10));
 * } catch (RuntimeFromConfigException e) {
 *     log.error("{} [{}]", e.getMessage(), e.code());    // e.g. [config.module_not_configured]
 * }
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public class RuntimeFromConfigException extends ModuleException {

    private final transient RuntimeFromConfigError error;

    public RuntimeFromConfigException(String moduleId, RuntimeFromConfigError error) {
        this(moduleId, error, null);
    }

    public RuntimeFromConfigException(String moduleId, RuntimeFromConfigError error, Throwable cause) {
        this(moduleId, error, OptionalInt.empty(), "", cause);
    }

    /**
     * An error that came from a process that ran: its exit code (when it had exited) and stderr tail go into the
     * message and are kept.
     */
    public RuntimeFromConfigException(String moduleId, RuntimeFromConfigError error, OptionalInt exitCode,
            String stderrTail, Throwable cause) {
        super(moduleId, "running module '" + Objects.requireNonNull(moduleId, "moduleId") + "' failed",
                explained(Objects.requireNonNull(error, "error")), Objects.requireNonNull(exitCode, "exitCode"),
                stderrTail == null ? "" : stderrTail, cause);
        this.error = error;
    }

    private static String explained(RuntimeFromConfigError error) {
        return error instanceof RuntimeFromConfigError.Runtime runtime ? runtime.error().explained() : error.message();
    }

    /** The error as a value. */
    public RuntimeFromConfigError error() {
        return error;
    }

    /** The stable code of the innermost error. */
    @Override
    public String code() {
        return error.code();
    }

    /** Whether the module's start ran out of time. */
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
