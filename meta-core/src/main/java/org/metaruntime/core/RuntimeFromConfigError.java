package org.metaruntime.core;

import java.util.Objects;
import org.metaruntime.supervisor.ModuleError;

/**
 * Why running a module straight from a configuration failed ({@code runDiscoveredModuleOnce},
 * {@code spawnMember}, {@code reconcileModules}). A value: match on the record. Both records wrap the error of the
 * step that failed: {@link #message()} is its sentence and {@link #code()} the stable code of the innermost error.
 *
 * <p>Immutable and thread-safe.
 */
public sealed interface RuntimeFromConfigError extends ModuleError {

    /** The boundary error, when the module ran and failed. */
    default java.util.Optional<RuntimeBoundaryError> boundaryError() {
        return this instanceof Runtime runtime ? java.util.Optional.of(runtime.error()) : java.util.Optional.empty();
    }

    /** The module id could not be resolved against the configuration. */
    record Config(ConfigResolutionError error) implements RuntimeFromConfigError, ModuleError.Wrapper {
        /** Validates the error. */
        public Config {
            Objects.requireNonNull(error, "error");
        }
    }

    /** The module's boundary failed. */
    record Runtime(RuntimeBoundaryError error) implements RuntimeFromConfigError, ModuleError.Wrapper {
        /** Validates the error. */
        public Runtime {
            Objects.requireNonNull(error, "error");
        }
    }
}
