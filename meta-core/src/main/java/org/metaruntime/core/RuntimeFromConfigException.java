package org.metaruntime.core;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * Unchecked carrier of a {@link RuntimeFromConfigError}, thrown by {@code runDiscoveredModuleOnce},
 * {@code spawnMember} and {@code reconcileModules}. The message is one sentence naming the module and the cause,
 * with the exit code and stderr tail of the module's process when it ran. {@link #code()}, {@link #isTimeout()},
 * {@link #mcpError()} and {@link #processError()} come from {@link RuntimeModuleException}.
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
public class RuntimeFromConfigException extends RuntimeModuleException {

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
                Objects.requireNonNull(error, "error").code(), error.message(), error.boundaryError(), exitCode,
                stderrTail, cause);
        this.error = error;
    }

    /** The error as a value. */
    public RuntimeFromConfigError error() {
        return error;
    }
}
