package org.metaruntime.core;

import java.util.Objects;

/**
 * Unchecked carrier of a {@link ModuleRouteError}, thrown by {@code UnifiedRuntime.routeModuleCall}. The message
 * is one sentence naming the module and the cause.
 *
 * <p>Immutable and thread-safe.
 */
public class ModuleRouteException extends RuntimeException {

    private final String moduleId;
    private final transient ModuleRouteError error;

    public ModuleRouteException(String moduleId, ModuleRouteError error) {
        this(moduleId, error, null);
    }

    public ModuleRouteException(String moduleId, ModuleRouteError error, Throwable cause) {
        super("call to module '" + Objects.requireNonNull(moduleId, "moduleId") + "' failed: "
                + Objects.requireNonNull(error, "error").message(), cause);
        this.moduleId = moduleId;
        this.error = error;
    }

    /** The module the call was routed to. */
    public String moduleId() {
        return moduleId;
    }

    /** The error as a value. */
    public ModuleRouteError error() {
        return error;
    }
}
