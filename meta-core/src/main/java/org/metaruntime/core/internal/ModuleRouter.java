package org.metaruntime.core.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.concurrent.Executor;
import org.metaruntime.core.ModuleBoundaryKind;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.core.ModuleRouteRequest;
import org.metaruntime.core.RuntimeBoundaryError;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.supervisor.InFlight;
import org.metaruntime.supervisor.RestartPolicy;
import org.metaruntime.supervisor.StopLadder;
import org.metaruntime.supervisor.internal.health.ModuleSupervisor;

/**
 * The rules of one boundary kind: how a module of that kind starts, when its kept child's exit is a failure,
 * whether it restarts, what its ready event is, and how a call reaches it. One implementation per kind
 * ({@link EventLineRouter}, {@link McpRouter}); the runtime's generic code never asks which kind it holds.
 * Thread-safe.
 */
public interface ModuleRouter {

    /** The router of {@code boundary}'s kind. */
    static ModuleRouter of(ModuleBoundary boundary, ModuleConfig module, Executor executor, StopLadder graces) {
        if (boundary instanceof McpBoundary mcp) {
            return new McpRouter(mcp, module, executor, graces);
        }
        if (boundary instanceof EventLineBoundary eventLine) {
            return new EventLineRouter(eventLine, module, graces);
        }
        throw new IllegalArgumentException("module '" + module.id() + "': a boundary must be an MCP or an event-line "
                + "boundary, got " + boundary.getClass().getName());
    }

    /** The kind this router serves. */
    ModuleBoundaryKind kind();

    /** The policy the startup procedure applies (MCP: {@code NEVER}, the probe is made once). */
    RestartPolicy startupPolicy();

    /** Whether the supervisor restarts the module after its kept child failed. */
    boolean restartable();

    /** One startup attempt. */
    ModuleChild start(Duration timeout) throws InterruptedException;

    /** Whether the kept child's exit, not caused by the runtime, is a failure. */
    boolean isFailure(ChildExit exit);

    /** The event a successful start adds: the event-line child's first event, or MCP's {@code mcp.ready}. */
    EventEnvelope<UnifiedEvent> readyEvent(ModuleChild child, RuntimeEvents events);

    /**
     * Starts one call; its payload completes with the payload or exceptionally with a {@link BoundaryFailure} or a
     * {@code ModuleRouteException}.
     *
     * @param supervisor the module's supervisor, which holds its kept child
     */
    InFlight<JsonNode> route(ModuleRouteRequest request, CallSpec call, ModuleSupervisor<ModuleChild> supervisor);

    /** The error of a cancelled call of this kind. */
    RuntimeBoundaryError cancelled(ModuleRouteRequest request);
}
