package org.metaruntime.core.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;
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
import org.metaruntime.events.NormalizationException;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.supervisor.ModuleException;
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
     * Starts a routed call and returns at once; every failure, the checks included, fails its response with a
     * {@link ModuleRouteException}.
     */
    public RealModuleCall call(ModuleRouteRequest request, CallOptions callOptions) {
        RealModuleCall call = new RealModuleCall(request);
        inFlight.add(call);
        call.finished().whenComplete((done, error) -> inFlight.remove(call));
        start(request, call, response -> ModuleCallListener.Outcome.SUCCESS, null, (slot, supervisor) -> {
            Duration timeout = callOptions.timeout().orElseGet(() -> options.callTimeoutFor(slot.module()));
            String id = slot.id();
            call.attach(slot.router().route(request, new CallSpec(timeout, callOptions), supervisor), payload -> {
                ModuleRouteResponse response = new ModuleRouteResponse(id, request.method(), payload);
                if (options.isCore(id)) {
                    events.coreFlow(response);
                }
                return response;
            });
        });
        return call;
    }

    /**
     * Starts a tool call of an MCP module on the same path as {@link #call}, answered with the whole result, and
     * returns at once. {@code callOptions} is asked for the call's options when the call is sent (after a lazy start).
     */
    public RoutedToolCall startCall(McpModule module, String tool, JsonNode arguments,
                                    Function<? super McpModule, CallOptions> callOptions) {
        String id = module.moduleId();
        RoutedToolCall call = new RoutedToolCall(id, tool);
        start(new ModuleRouteRequest(id, tool, arguments), call.lifecycle(), RoutedToolCall::outcome, "call_tool:" + tool,
                (slot, supervisor) -> {
                    McpSession session = currentSession(slot, supervisor);
                    CallOptions chosen = Objects.requireNonNull(callOptions.apply(module), "call options");
                    Duration timeout = chosen.timeout().orElseGet(() -> options.callTimeoutFor(slot.module()));
                    call.attach(session.startCall(tool, arguments, ProcessBoundaries.mcpCall(new CallSpec(timeout, chosen))));
                });
        return call;
    }

    /** What a call does once its module takes it: hands the call to the module's boundary. */
    @FunctionalInterface
    private interface Dispatch {
        void send(ModuleSlot slot, ModuleSupervisor<ModuleChild> supervisor);
    }

    /**
     * The one path of every call: the listener is told, the checks run with no I/O, a lazy module is started without
     * blocking the caller's thread, then {@code dispatch} runs (on the thread that finished the start, or this one).
     *
     * @param mcpFlow null for any boundary; else the call needs an MCP module and this names it in {@code McpRequired}
     */
    private <T> void start(ModuleRouteRequest request, RoutedCall<T> call,
                           Function<? super T, ModuleCallListener.Outcome> outcome, String mcpFlow, Dispatch dispatch) {
        String id = request.moduleId();
        ModuleCallListener.Ended ended = listening.started(id, request.method());
        call.onEnd((value, error) -> {
            if (error == null) {
                ended.callEnded(outcome.apply(value), null);
            } else {
                CallListening.end(ended, error);
            }
        });
        try {
            ModuleSlot slot = mcpFlow == null ? check(request) : mcpSlot(id, mcpFlow);
            call.cancelledAs(slot.router().cancelled(request));
            CompletableFuture<Void> ready = lazy.admit(slot);
            call.onSettled(() -> lazy.callEnded(slot));
            ready.whenComplete((started, startFailure) -> {
                if (startFailure != null) {
                    call.fail(toRouteException(id, startFailure));
                } else if (!call.isCancelled()) {
                    dispatch(slot, call, dispatch);
                }
            });
        } catch (RuntimeException e) {
            call.fail(toRouteException(id, e));
        }
    }

    private static void dispatch(ModuleSlot slot, RoutedCall<?> call, Dispatch dispatch) {
        String id = slot.id();
        try {
            ModuleSupervisor<ModuleChild> supervisor = slot.membership().supervisor();
            if (supervisor == null) {
                throw new ModuleRouteException(id, new ModuleRouteError.ModuleUnavailable(id, ModuleHealthState.STARTING));
            }
            if (!supervisor.acceptsCalls()) {
                throw new ModuleRouteException(id, new ModuleRouteError.ModuleUnavailable(id, supervisor.state()));
            }
            dispatch.send(slot, supervisor);
        } catch (RuntimeException e) {
            call.fail(toRouteException(id, e));
        }
    }

    /** The MCP session of the module's current child. */
    private static McpSession currentSession(ModuleSlot slot, ModuleSupervisor<ModuleChild> supervisor) {
        return supervisor.currentChild().map(child -> ((McpChild) child).session())
                .orElseThrow(() -> new ModuleRouteException(slot.id(),
                        new ModuleRouteError.ModuleUnavailable(slot.id(), supervisor.state())));
    }

    /**
     * The current MCP session of {@code moduleId} for an operation that answers on the caller's thread (a list, a
     * read, ...), after the checks of a call; a lazy module is started first. The caller must hand the slot back to
     * {@link #ended} once its operation completes.
     *
     * @throws ModuleRouteException as a routed call would fail
     */
    public Session session(String moduleId, String flow) {
        try {
            return sessionAsync(moduleId, flow).join();
        } catch (CompletionException e) {
            throw toRouteException(moduleId, e);
        }
    }

    /**
     * Like {@link #session}, without blocking the caller: a lazy module is started off its thread, and the session
     * comes on the thread that finished the start (or this one, when the module runs). Fails with the
     * {@link ModuleRouteException} {@link #session} throws.
     */
    public CompletableFuture<Session> sessionAsync(String moduleId, String flow) {
        ModuleSlot slot;
        CompletableFuture<Void> ready;
        try {
            slot = mcpSlot(moduleId, flow);
            ready = lazy.admit(slot);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(toRouteException(moduleId, e));
        }
        return ready.handle((started, failure) -> {
            if (failure != null) {
                lazy.callEnded(slot);
                throw toRouteException(moduleId, failure);
            }
            return admitted(slot);
        });
    }

    /** The session of a module admitted by its lazy start, once it runs; the slot is handed back when it fails. */
    private Session admitted(ModuleSlot slot) {
        String moduleId = slot.id();
        try {
            ModuleSupervisor<ModuleChild> supervisor = slot.membership().supervisor();
            if (supervisor == null || !supervisor.acceptsCalls()) {
                throw new ModuleRouteException(moduleId, new ModuleRouteError.ModuleUnavailable(moduleId,
                        supervisor == null ? ModuleHealthState.STARTING : supervisor.state()));
            }
            return new Session(slot, currentSession(slot, supervisor), options.callTimeoutFor(slot.module()));
        } catch (RuntimeException e) {
            lazy.callEnded(slot);
            throw e;
        }
    }

    /**
     * The notification listeners of the MCP module {@code moduleId}, kept across its processes; a lazy module is not
     * started for them.
     */
    public McpNotifications notifications(String moduleId) {
        return ((McpRouter) mcpSlot(moduleId, "subscribe_notifications").router()).notifications();
    }

    /** The checks of a call to an MCP module: {@link #check}, then {@code McpRequired} naming {@code flow}. */
    private ModuleSlot mcpSlot(String moduleId, String flow) {
        ModuleSlot slot = check(new ModuleRouteRequest(moduleId, flow, null));
        if (!(slot.router() instanceof McpRouter)) {
            throw new ModuleRouteException(moduleId, new ModuleRouteError.ModuleRuntime(
                    new RuntimeBoundaryError.Mcp(new McpBoundaryError.McpRequired(moduleId, flow))));
        }
        return slot;
    }

    /** An operation on {@code session} ended. */
    public void ended(Session session) {
        lazy.callEnded(session.slot());
    }

    /** A module's MCP session as one operation uses it. */
    public record Session(ModuleSlot slot, McpSession server, Duration timeout) {
    }

    /**
     * Cancels every call in flight and every lazy startup in progress (the runtime is shutting down): event-line calls
     * stop their process tree, {@code PER_CALL} calls stop their server, a startup stops the child it started. Each
     * future completes when that call's or startup's boundary work has ended.
     */
    public List<CompletableFuture<Void>> cancelAll() {
        List<CompletableFuture<Void>> settled = new java.util.ArrayList<>(lazy.interruptStartups());
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
        if (cause instanceof ModuleException || cause instanceof NormalizationException) {
            return toRouteException(moduleId, ProcessBoundaries.failure(moduleId, cause));
        }
        String message = cause.getMessage() == null ? cause.getClass().getName() : cause.getMessage();
        return new ModuleRouteException(moduleId, new ModuleRouteError.ModuleRuntime(
                new RuntimeBoundaryError.Process(new ProcessBoundaryError.Io(message))), cause);
    }
}
