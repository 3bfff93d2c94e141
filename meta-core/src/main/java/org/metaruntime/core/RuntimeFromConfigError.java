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

    /** The module id could not be resolved against the configuration. */
    record Config(ConfigResolutionError error) implements RuntimeFromConfigError {
        public Config {
            Objects.requireNonNull(error, "error");
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
        public String message() {
            return error.message();
        }
    }
}
