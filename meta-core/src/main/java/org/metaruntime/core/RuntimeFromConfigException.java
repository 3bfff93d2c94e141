package org.metaruntime.core;

import java.util.Objects;

/**
 * Unchecked carrier of a {@link RuntimeFromConfigError}. The message is one sentence naming the module and the cause.
 *
 * <p>Immutable and thread-safe.
 */
public class RuntimeFromConfigException extends RuntimeException {

    private final String moduleId;
    private final transient RuntimeFromConfigError error;

    public RuntimeFromConfigException(String moduleId, RuntimeFromConfigError error) {
        this(moduleId, error, null);
    }

    public RuntimeFromConfigException(String moduleId, RuntimeFromConfigError error, Throwable cause) {
        super("running module '" + Objects.requireNonNull(moduleId, "moduleId") + "' failed: "
                + Objects.requireNonNull(error, "error").message(), cause);
        this.moduleId = moduleId;
        this.error = error;
    }

    /** The module that was run. */
    public String moduleId() {
        return moduleId;
    }

    /** The error as a value. */
    public RuntimeFromConfigError error() {
        return error;
    }
}
