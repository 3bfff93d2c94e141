package org.metaruntime.core.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import org.metaruntime.core.ModuleBoundaryKind;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.core.ModuleRouteError;
import org.metaruntime.core.ModuleRouteException;
import org.metaruntime.core.ModuleRouteRequest;
import org.metaruntime.core.RuntimeBoundaryError;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpSessionMode;
import org.metaruntime.supervisor.InFlight;
import org.metaruntime.supervisor.RestartPolicy;
import org.metaruntime.supervisor.StopLadder;
import org.metaruntime.supervisor.internal.health.ModuleSupervisor;

/**
 * MCP modules. {@code PERSISTENT}: the startup probe's connection is kept and serves every call; any exit the
 * runtime did not cause is a failure. {@code PER_CALL}: the probe's server is stopped at once and every call opens
 * its own session.
 */
final class McpRouter implements ModuleRouter {

    private final McpBoundary boundary;
    private final ModuleConfig module;
    private final Executor executor;
    private final StopLadder graces;
    private final boolean perCall;
    private final McpNotifications notifications;

    McpRouter(McpBoundary boundary, ModuleConfig module, Executor executor, StopLadder graces) {
        this.boundary = Objects.requireNonNull(boundary, "boundary");
        this.module = Objects.requireNonNull(module, "module");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.graces = Objects.requireNonNull(graces, "graces");
        this.perCall = module.mcpSessionMode() == McpSessionMode.PER_CALL;
        this.notifications = new McpNotifications(module.id());
    }

    @Override
    public ModuleBoundaryKind kind() {
        return ModuleBoundaryKind.MCP;
    }

    /** The startup probe is made once: the budgets of the startup procedure do not apply to it. */
    @Override
    public RestartPolicy startupPolicy() {
        return RestartPolicy.NEVER;
    }

    /** A persistent connection is restarted after a crash unless the module's policy is {@code NEVER}. */
    @Override
    public boolean restartable() {
        return !perCall && module.restartPolicy() != RestartPolicy.NEVER;
    }

    @Override
    public ModuleChild start(Duration timeout) throws InterruptedException {
        McpChild child = boundary.start(timeout);
        if (perCall) {
            child.stop(graces);
        } else {
            notifications.attach(child.session());
        }
        return child;
    }

    /** The module's notification listeners, kept across its connections. */
    McpNotifications notifications() {
        return notifications;
    }

    @Override
    public boolean isFailure(ChildExit exit) {
        return !perCall;
    }

    @Override
    public EventEnvelope<UnifiedEvent> readyEvent(ModuleChild child, RuntimeEvents events) {
        return events.mcpReady(module.id(), ((McpChild) child).tools());
    }

    @Override
    public InFlight<JsonNode> route(ModuleRouteRequest request, CallSpec call, ModuleSupervisor<ModuleChild> supervisor) {
        if (perCall) {
            return boundary.callOnce(request.method(), request.params(), call, executor);
        }
        Optional<ModuleChild> child = supervisor.currentChild();
        if (child.isEmpty()) {
            throw new ModuleRouteException(module.id(),
                    new ModuleRouteError.ModuleUnavailable(module.id(), supervisor.state()));
        }
        return ((McpChild) child.get()).call(request.method(), request.params(), call);
    }

    @Override
    public RuntimeBoundaryError cancelled(ModuleRouteRequest request) {
        return new RuntimeBoundaryError.Mcp(new McpBoundaryError.Cancelled(module.id(), request.method()));
    }
}
