package org.metaruntime.core;

import java.util.Objects;
import org.metaruntime.supervisor.ModuleError;

/**
 * A module id that cannot be resolved against a {@link MetaConfig}. A value: match on the record.
 *
 * <p>Immutable and thread-safe.
 */
public sealed interface ConfigResolutionError extends ModuleError {

    /** The module the error is about. */
    String moduleId();

    /** One readable sentence describing the error. */
    String message();

    /**
     * A stable code naming this error, e.g. {@code config.module_not_configured}: the record's {@code CODE}
     * constant, which {@code ConfigResolutionErrorCodes}, the one table of this interface's codes, pairs with the
     * record.
     */
    @Override
    default String code() {
        return ConfigResolutionErrorCodes.BY_RECORD.get(getClass());
    }

    /** No {@link ModuleConfig} has this id. */
    record ModuleNotConfigured(String moduleId) implements ConfigResolutionError {
        /** This error's {@link #code()}. */
        public static final String CODE = "config.module_not_configured";

        /** Validates the error. */
        public ModuleNotConfigured {
            Objects.requireNonNull(moduleId, "moduleId");
        }

        @Override
        public String message() {
            return "module '" + moduleId + "' is not configured";
        }
    }

    /** The module is configured but not in {@code discovery.modules}. */
    record ModuleNotDiscovered(String moduleId) implements ConfigResolutionError {
        /** This error's {@link #code()}. */
        public static final String CODE = "config.module_not_discovered";

        /** Validates the error. */
        public ModuleNotDiscovered {
            Objects.requireNonNull(moduleId, "moduleId");
        }

        @Override
        public String message() {
            return "module '" + moduleId + "' is configured but was not discovered";
        }
    }
}
