package org.metaruntime.core;

/**
 * Told of every call the runtime makes to a module on a host's behalf: routed calls ({@code call},
 * {@code routeModuleCall}, {@code routeModuleCallAsync}) and MCP tool calls ({@code mcp(id).callTool},
 * {@code startCall}). Set one with {@link UnifiedRuntime.Builder#callListener(ModuleCallListener)}; metrics and tracing
 * (a Micrometer {@code Observation} per call, for example) are built on it.
 *
 * <pre>{@code
 * UnifiedRuntime runtime = UnifiedRuntime.builder(config)
 *         .callListener((moduleId, tool) -> {
 *             long start = System.nanoTime();
 *             return (outcome, error) -> timer(moduleId, tool, outcome).record(System.nanoTime() - start);
 *         })
 *         .start();
 * }</pre>
 *
 * <p>Implementations must be thread-safe, fast and must not throw: both methods run on the runtime's threads (the
 * caller's thread for {@code callStarted}, whichever thread completes the call for {@code callEnded}).
 * {@code callEnded} runs before the call's result completes, so once a caller has its answer (or its failure), the
 * listener has been told; the one exception is a call whose result future the host cancels itself, told just after. A
 * listener that throws is logged and never hurts the call.
 */
@FunctionalInterface
public interface ModuleCallListener {

    /**
     * A call starts.
     *
     * @param moduleId the module called
     * @param tool     the tool's name as the module lists it (MCP), or the routed request's method
     * @return what is told once, when the call's outcome is known; never null
     */
    Ended callStarted(String moduleId, String tool);

    /** The end of one call. */
    @FunctionalInterface
    interface Ended {
        /**
         * The call ended.
         *
         * @param outcome how it ended
         * @param error   the failure ({@link ModuleRouteException} or the cancellation) when {@code outcome} is
         *                {@link Outcome#ERROR}, the {@code ToolReturnedError} of a routed call for
         *                {@link Outcome#TOOL_ERROR}, else null
         */
        void callEnded(Outcome outcome, Throwable error);
    }

    /** How a call ended. */
    enum Outcome {
        /** The module answered. */
        SUCCESS,
        /** The tool answered with a result that has {@code isError: true}. */
        TOOL_ERROR,
        /** Any other failure: not loaded, unavailable, timeout, cancelled, the module crashed, ... */
        ERROR
    }
}
