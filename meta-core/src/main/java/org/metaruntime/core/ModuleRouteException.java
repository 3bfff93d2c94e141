package org.metaruntime.core;

import java.util.Objects;
import java.util.OptionalInt;
import org.metaruntime.core.internal.Texts;

/**
 * Unchecked carrier of a {@link ModuleRouteError}, thrown by {@code UnifiedRuntime.routeModuleCall}. The message
 * is one sentence naming the module and the cause.
 *
 * <p>Immutable and thread-safe.
 */
public class ModuleRouteException extends RuntimeException {

    private final String moduleId;
    private final transient ModuleRouteError error;
    private final transient OptionalInt exitCode;
    private final String stderrTail;

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
        super(Texts.withProcessDetail("call to module '" + Objects.requireNonNull(moduleId, "moduleId") + "' failed: "
                + Objects.requireNonNull(error, "error").message(), exitCode, stderrTail), cause);
        this.moduleId = moduleId;
        this.error = error;
        this.exitCode = Objects.requireNonNull(exitCode, "exitCode");
        this.stderrTail = stderrTail == null ? "" : stderrTail;
    }

    /** The module the call was routed to. */
    public String moduleId() {
        return moduleId;
    }

    /** The error as a value. */
    public ModuleRouteError error() {
        return error;
    }

    /** The exit code of the module's process, when the error came from a process that had exited. */
    public OptionalInt exitCode() {
        return exitCode;
    }

    /** The end of the module's process's stderr, empty when unknown. */
    public String stderrTail() {
        return stderrTail;
    }
}
