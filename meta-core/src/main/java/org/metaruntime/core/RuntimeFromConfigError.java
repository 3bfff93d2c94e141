package org.metaruntime.core;

import java.util.Objects;

/**
 * Why running a module straight from a configuration failed ({@code runDiscoveredModuleOnce},
 * {@code spawnMember}, {@code reconcileModules}). A value: match on the record.
 *
 * <p>Immutable and thread-safe.
 */
public sealed interface RuntimeFromConfigError {

    /** One readable sentence describing the error. */
    String message();

    /** The stable code of the innermost error. */
    String code();

    /** The boundary error, when the module ran and failed. */
    default java.util.Optional<RuntimeBoundaryError> boundaryError() {
        return this instanceof Runtime runtime ? java.util.Optional.of(runtime.error()) : java.util.Optional.empty();
    }

    /** The module id could not be resolved against the configuration. */
    record Config(ConfigResolutionError error) implements RuntimeFromConfigError {
        public Config {
            Objects.requireNonNull(error, "error");
        }

        @Override
        public String code() {
            return error.code();
        }

        @Override
        public String message() {
            return error.message();
        }
    }

    /** The module's boundary failed. */
    record Runtime(RuntimeBoundaryError error) implements RuntimeFromConfigError {
        public Runtime {
            Objects.requireNonNull(error, "error");
        }

        @Override
        public String code() {
            return error.code();
        }

        @Override
        public String message() {
            return error.message();
        }
    }
}
