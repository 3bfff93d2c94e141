package org.metaruntime.core;

import java.util.Objects;
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
public sealed interface ModuleRouteError {

    /** One readable sentence describing the error. */
    String message();

    /** The module is not loaded: never started, or its startup ended {@code Stopped}. */
    record UnloadedModule(String moduleId) implements ModuleRouteError {
        public UnloadedModule {
            Objects.requireNonNull(moduleId, "moduleId");
        }

        @Override
        public String message() {
            return "module '" + moduleId + "' is not loaded";
        }
    }

    /** The module's boundary failed. */
    record ModuleRuntime(RuntimeBoundaryError error) implements ModuleRouteError {
        public ModuleRuntime {
            Objects.requireNonNull(error, "error");
        }

        @Override
        public String message() {
            return error.message();
        }
    }

    /** An event-line module answered with something other than a module event of that module. */
    record UnexpectedRouteResponse(String moduleId, String detail) implements ModuleRouteError {
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
     * [beyond] The module is loaded but cannot take calls now: it is restarting after a failure, or its
     * supervisor stopped it after too many restarts ({@code state} says which). Calls fail at once instead of
     * waiting for their timeout; {@code UnifiedRuntime.restartModule(id)} restarts a stopped module.
     */
    record ModuleUnavailable(String moduleId, ModuleHealthState state) implements ModuleRouteError {
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
