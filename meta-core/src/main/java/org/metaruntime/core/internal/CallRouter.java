package org.metaruntime.core.internal;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import org.metaruntime.core.CallOptions;
import org.metaruntime.core.McpModule;
import org.metaruntime.core.ModuleBoundaryKind;
import org.metaruntime.core.ModuleCallListener;
import org.metaruntime.core.ModuleRouteError;
import org.metaruntime.core.ModuleRouteException;
import org.metaruntime.core.ModuleRouteRequest;
import org.metaruntime.core.ModuleRouteResponse;
import org.metaruntime.core.RuntimeBoundaryError;
import org.metaruntime.core.RuntimeOptions;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.supervisor.ProcessBoundaryError;
import org.metaruntime.supervisor.internal.Failures;
import org.metaruntime.supervisor.internal.health.ModuleSupervisor;

/**
 * Routes one call: the checks every call passes (the module is loaded, a core module is MCP, the module takes calls
 * now), then the module's {@link ModuleRouter}; maps every failure to a {@link ModuleRouteException} and adds the
 * core flow events of a success. Thread-safe.
 */
public final class CallRouter {

    private final ModuleRegistry registry;
    private final RuntimeOptions options;
    private final RuntimeEvents events;
    private final LazyModules lazy;
    private final CallListening listening;
    private final java.util.Set<RealModuleCall> inFlight = java.util.concurrent.ConcurrentHashMap.newKeySet();

    public CallRouter(ModuleRegistry registry, RuntimeOptions options, RuntimeEvents events, LazyModules lazy,
                      CallListening listening) {
        this.listening = Objects.requireNonNull(listening, "listening");
        this.lazy = Objects.requireNonNull(lazy, "lazy");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.options = Objects.requireNonNull(options, "options");
        this.events = Objects.requireNonNull(events, "events");
    }

    /** The call timeout of {@code moduleId} when the caller gives none. */
    public Duration defaultTimeout(String moduleId) {
        return registry.find(moduleId).map(slot -> options.callTimeoutFor(slot.module()))
                .orElse(options.callTimeout());
    }

    /**
     * Starts a call and returns at once; every failure, the checks included, fails its response with a
     * {@link ModuleRouteException}.
     */
    public RealModuleCall call(ModuleRouteRequest request, CallOptions callOptions) {
        RealModuleCall call = new RealModuleCall(request);
        String id = request.moduleId();
        ModuleCallListener.Ended ended = listening.started(id, request.method());
        call.response().whenComplete((response, error) -> CallListening.end(ended, error));
        inFlight.add(call);
        call.finished().whenComplete((done, error) -> inFlight.remove(call));
        try {
            Duration timeout = callOptions.timeout().orElseGet(() -> defaultTimeout(id));
            ModuleSlot slot = check(request);
            call.cancelledAs(slot.router().cancelled(request));
            CompletableFuture<Void> ready = lazy.admit(slot);
            call.response().whenComplete((response, error) -> lazy.callEnded(slot));
            ready.whenComplete((started, startFailure) -> {
                if (startFailure != null) {
                    call.fail(toRouteException(id, startFailure));
                } else if (!call.isCancelled()) {
                    dispatch(slot, request, new CallSpec(timeout, callOptions), call);
                }
            });
        } catch (RuntimeException e) {
            call.fail(toRouteException(id, e));
        }
        return call;
    }

    private void dispatch(ModuleSlot slot, ModuleRouteRequest request, CallSpec spec, RealModuleCall call) {
        String id = slot.id();
        try {
            ModuleSupervisor<ModuleChild> supervisor = slot.membership().supervisor();
            if (supervisor == null) {
                throw new ModuleRouteException(id, new ModuleRouteError.ModuleUnavailable(id, ModuleHealthState.STARTING));
            }
            if (!supervisor.acceptsCalls()) {
                throw new ModuleRouteException(id, new ModuleRouteError.ModuleUnavailable(id, supervisor.state()));
            }
            call.attach(slot.router().route(request, spec, supervisor), payload -> {
                ModuleRouteResponse response = new ModuleRouteResponse(id, request.method(), payload);
                if (options.isCore(id)) {
                    events.coreFlow(response);
                }
                return response;
            });
        } catch (RuntimeException e) {
            call.fail(toRouteException(id, e));
        }
    }

    /**
     * The current MCP session of {@code moduleId}, after the checks of a call; a lazy module is started first. The
     * caller must hand the slot back to {@link #ended} once its operation completes.
     *
     * @throws ModuleRouteException as a routed call would fail
     */
    public Session session(String moduleId, String flow) {
        ModuleSlot slot = check(new ModuleRouteRequest(moduleId, flow, null));
        if (!(slot.router() instanceof McpRouter router)) {
            throw new ModuleRouteException(moduleId, new ModuleRouteError.ModuleRuntime(
                    new RuntimeBoundaryError.Mcp(new McpBoundaryError.McpRequired(moduleId, flow))));
        }
        try {
            lazy.admit(slot).join();
        } catch (RuntimeException e) {
            lazy.callEnded(slot);
            throw toRouteException(moduleId, e);
        }
        try {
            ModuleSupervisor<ModuleChild> supervisor = slot.membership().supervisor();
            if (supervisor == null || !supervisor.acceptsCalls()) {
                throw new ModuleRouteException(moduleId, new ModuleRouteError.ModuleUnavailable(moduleId,
                        supervisor == null ? ModuleHealthState.STARTING : supervisor.state()));
            }
            McpSession server = supervisor.currentChild().map(child -> ((McpChild) child).session())
                    .orElseThrow(() -> new ModuleRouteException(moduleId,
                            new ModuleRouteError.ModuleUnavailable(moduleId, supervisor.state())));
            return new Session(slot, server, router.notifications(), options.callTimeoutFor(slot.module()));
        } catch (RuntimeException e) {
            lazy.callEnded(slot);
            throw e;
        }
    }

    /** Who is told of each call. */
    public CallListening listening() {
        return listening;
    }

    /** An operation on {@code session} ended. */
    public void ended(Session session) {
        lazy.callEnded(session.slot());
    }

    /** A module's MCP session as one operation uses it. */
    public record Session(ModuleSlot slot, McpSession server, McpNotifications notifications, Duration timeout) {
    }

    /**
     * Cancels every call in flight (the runtime is shutting down): event-line calls stop their process tree,
     * {@code PER_CALL} calls stop their server. Each future completes when that call's boundary work has ended.
     */
    public List<CompletableFuture<Void>> cancelAll() {
        List<CompletableFuture<Void>> settled = new java.util.ArrayList<>();
        for (RealModuleCall call : List.copyOf(inFlight)) {
            call.cancel();
            settled.add(call.finished());
        }
        return settled;
    }

    /** The whole MCP surface of {@code moduleId}: {@code UnloadedModule}, or {@code McpRequired} for event-line. */
    public McpModule mcp(String moduleId) {
        Objects.requireNonNull(moduleId, "moduleId");
        ModuleSlot slot = registry.find(moduleId).filter(ModuleSlot::loaded).orElseThrow(() ->
                new ModuleRouteException(moduleId, registry.unloaded(moduleId)));
        if (slot.router().kind() != ModuleBoundaryKind.MCP) {
            throw new ModuleRouteException(moduleId, new ModuleRouteError.ModuleRuntime(
                    new RuntimeBoundaryError.Mcp(new McpBoundaryError.McpRequired(moduleId, "mcp"))));
        }
        return new RuntimeMcpModule(moduleId, this);
    }

    /** The checks that need no I/O: loaded, and MCP when core. */
    private ModuleSlot check(ModuleRouteRequest request) {
        String id = request.moduleId();
        Optional<ModuleSlot> found = registry.find(id);
        if (found.isEmpty() || !found.get().loaded()) {
            ModuleRouteError.UnloadedModule unloaded = registry.unloaded(id);
            Exception startup = found.map(slot -> slot.membership().startupFailure()).orElse(null);
            if (startup instanceof BoundaryFailure failure) {
                throw new ModuleRouteException(id, unloaded, failure.exitCode(), failure.stderrTail(), failure);
            }
            throw new ModuleRouteException(id, unloaded);
        }
        ModuleSlot slot = found.get();
        if (options.isCore(id) && slot.router().kind() != ModuleBoundaryKind.MCP) {
            throw new ModuleRouteException(id, new ModuleRouteError.ModuleRuntime(
                    new RuntimeBoundaryError.Mcp(new McpBoundaryError.McpRequired(id, request.method()))));
        }
        return slot;
    }

    /** The one place any failure of a call becomes a {@link ModuleRouteException}. */
    public static ModuleRouteException toRouteException(String moduleId, Throwable error) {
        Throwable cause = Failures.unwrap(error);
        if (cause instanceof ModuleRouteException routeError) {
            return routeError;
        }
        if (cause instanceof BoundaryFailure failure) {
            return new ModuleRouteException(moduleId, new ModuleRouteError.ModuleRuntime(failure.error()),
                    failure.exitCode(), failure.stderrTail(), failure);
        }
        if (cause instanceof RejectedExecutionException) {
            return new ModuleRouteException(moduleId, new ModuleRouteError.UnloadedModule(moduleId,
                    ModuleRouteError.UnloadedReason.SHUT_DOWN, null), cause);
        }
        String message = cause.getMessage() == null ? cause.getClass().getName() : cause.getMessage();
        return new ModuleRouteException(moduleId, new ModuleRouteError.ModuleRuntime(
                new RuntimeBoundaryError.Process(new ProcessBoundaryError.Io(message))), cause);
    }
}
