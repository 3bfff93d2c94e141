package org.metaruntime.core;

import java.util.Objects;
import java.util.Optional;
import org.metaruntime.supervisor.ModuleError;
import org.metaruntime.supervisor.ModuleHealthState;

/**
 * Why a routed call failed. A value carried by {@link ModuleRouteException}; match the exact path:
 *
 * <pre>{@code
 * try {
 *     runtime.routeModuleCall(new ModuleRouteRequest("router", "router.echo", params), timeout);
 * } catch (ModuleRouteException e) {
 *     if (e.error() instanceof ModuleRouteError.ModuleRuntime runtimeError
 *             && runtimeError.error() instanceof RuntimeBoundaryError.Mcp mcp
 *             && mcp.error() instanceof McpBoundaryError.McpRequired required) {
 *         // a core module configured without the MCP marker
 *     }
 * }
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 */
public sealed interface ModuleRouteError extends ModuleError {

    /** One readable sentence describing the error. */
    String message();

    /**
     * A stable code naming the innermost error, e.g. {@code route.unloaded_module} or {@code mcp.timeout}: the
     * record's {@code CODE} constant, which {@code ModuleRouteErrorCodes}, the one table of this interface's codes,
     * pairs with the record; {@link ModuleRuntime} reports the code of the error it wraps.
     */
    @Override
    default String code() {
        return ModuleRouteErrorCodes.BY_RECORD.get(getClass());
    }

    /** The boundary error, when the module's boundary failed. */
    default Optional<RuntimeBoundaryError> boundaryError() {
        return this instanceof ModuleRuntime runtime ? Optional.of(runtime.error()) : Optional.empty();
    }

    /**
     * The module is not loaded; {@code reason} says why, and a module whose startup failed carries that startup's
     * error.
     *
     * @param moduleId     the module called
     * @param reason       why it is not loaded
     * @param startupError the error its startup ended with, for {@link UnloadedReason#STARTUP_FAILED}; else null
     */
    record UnloadedModule(String moduleId, UnloadedReason reason, RuntimeBoundaryError startupError)
            implements ModuleRouteError {
        /** This error's {@link #code()}. */
        public static final String CODE = "route.unloaded_module";

        /** Validates the error. */
        public UnloadedModule {
            Objects.requireNonNull(moduleId, "moduleId");
            Objects.requireNonNull(reason, "reason");
        }

        /** A module that is not loaded for no reason the runtime knows of (it was never started). */
        public UnloadedModule(String moduleId) {
            this(moduleId, UnloadedReason.NOT_STARTED, null);
        }

        /** The startup's error, for a module whose startup failed. */
        public Optional<RuntimeBoundaryError> startupErrorIfAny() {
            return Optional.ofNullable(startupError);
        }

        @Override
        public String message() {
            return "module '" + moduleId + "' is not loaded: " + reason.describe()
                    + (startupError == null ? "" : " (" + startupError.message() + ")");
        }
    }

    /** Why a module is not loaded. */
    enum UnloadedReason {
        /** No module has this id in the configuration. */
        UNKNOWN_MODULE("no module with this id is configured"),
        /** The module is configured but not in the discovery. */
        NOT_DISCOVERED("it is configured but not discovered (see spawnMember and reconcileModules)"),
        /** The module is discovered but was never started (or is being started again). */
        NOT_STARTED("it is not started"),
        /** Its startup ended {@code Stopped}. */
        STARTUP_FAILED("its startup failed"),
        /** The runtime was shut down. */
        SHUT_DOWN("the runtime is shut down");

        private final String description;

        UnloadedReason(String description) {
            this.description = description;
        }

        /** The reason as a clause of a sentence. */
        public String describe() {
            return description;
        }
    }

    /** The module's boundary failed; its code and message are the boundary error's. */
    record ModuleRuntime(RuntimeBoundaryError error) implements ModuleRouteError, ModuleError.Wrapper {
        /** Validates the error. */
        public ModuleRuntime {
            Objects.requireNonNull(error, "error");
        }

        // ModuleRouteError and Wrapper both give code() and message(); a wrapper has no line in the table: Wrapper's.
        @Override
        public String code() {
            return Wrapper.super.code();
        }

        @Override
        public String message() {
            return Wrapper.super.message();
        }
    }

    /** An event-line module answered with something other than a module event of that module. */
    record UnexpectedRouteResponse(String moduleId, String detail) implements ModuleRouteError {
        /** This error's {@link #code()}. */
        public static final String CODE = "route.unexpected_response";

        /** Validates the error. */
        public UnexpectedRouteResponse {
            Objects.requireNonNull(moduleId, "moduleId");
            Objects.requireNonNull(detail, "detail");
        }

        @Override
        public String message() {
            return "module '" + moduleId + "' answered with an unexpected event: " + detail;
        }
    }

    /**
     * The module is loaded but cannot take calls now: it is restarting after a failure, or its supervisor stopped it
     * after too many restarts ({@code state} says which). Calls fail at once instead of waiting for their timeout;
     * {@code UnifiedRuntime.restartModule(id)} restarts a stopped module.
     */
    record ModuleUnavailable(String moduleId, ModuleHealthState state) implements ModuleRouteError {
        /** This error's {@link #code()}. */
        public static final String CODE = "route.module_unavailable";

        /** Validates the error. */
        public ModuleUnavailable {
            Objects.requireNonNull(moduleId, "moduleId");
            Objects.requireNonNull(state, "state");
        }

        @Override
        public String message() {
            return "module '" + moduleId + "' cannot take calls while it is " + state.jsonName();
        }
    }
}
