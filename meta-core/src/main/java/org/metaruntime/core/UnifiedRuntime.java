package org.metaruntime.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.metaruntime.core.internal.BoundaryFailure;
import org.metaruntime.core.internal.ChildExit;
import org.metaruntime.core.internal.ErrorCodes;
import org.metaruntime.core.internal.ModuleBoundary;
import org.metaruntime.core.internal.ModuleChild;
import org.metaruntime.core.internal.ModuleSlot;
import org.metaruntime.core.internal.ProcessBoundaries;
import org.metaruntime.core.testing.FakeModule;
import org.metaruntime.events.AgentEventProjection;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.EventFilter;
import org.metaruntime.events.EventStore;
import org.metaruntime.events.LifecycleEvent;
import org.metaruntime.events.LifecycleStage;
import org.metaruntime.events.ModuleEvent;
import org.metaruntime.events.StoreNotification;
import org.metaruntime.events.Subscription;
import org.metaruntime.events.NormalizationError;
import org.metaruntime.events.NormalizationException;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.mcp.McpBoundaryError;
import org.metaruntime.mcp.McpSessionMode;
import org.metaruntime.supervisor.ChildFailure;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.supervisor.ModuleHealthTransition;
import org.metaruntime.supervisor.ModuleSupervisor;
import org.metaruntime.supervisor.ModuleSupervisorReport;
import org.metaruntime.supervisor.ProcessBoundaryError;
import org.metaruntime.supervisor.RestartPolicy;
import org.metaruntime.supervisor.Scheduler;
import org.metaruntime.supervisor.StartupOutcome;
import org.metaruntime.supervisor.StartupPolicy;
import org.metaruntime.supervisor.StartupProcedure;
import org.metaruntime.supervisor.SupervisionListener;
import org.metaruntime.supervisor.SupervisionOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.metaruntime.supervisor.StopLadder;

/**
 * The runtime a host embeds: it starts the discovered modules as supervised children, routes calls to them through
 * their boundary (MCP or event-line), keeps the merged event stream and the health transitions, and stops
 * everything on {@link #close()}.
 *
 * <pre>{@code
 * try (UnifiedRuntime runtime = UnifiedRuntime.builder(config).options(RuntimeOptions.defaults()).start()) {
 *     ModuleRouteResponse response = runtime.routeModuleCall(
 *             new ModuleRouteRequest("router", "routing.resolve", params), Duration.ofSeconds(5));
 *     runtime.mergedEvents().forEach(System.out::println);
 * }
 * }</pre>
 *
 * <p>Startup ({@link Builder#start()}) validates the configuration, then runs the startup procedure of every
 * discovered module, in parallel (at most {@link RuntimeOptions#startupParallelism()} at once). A module that fails
 * to start is left unloaded; it never fails the runtime's startup.
 *
 * <p>Thread-safe: every method may be called from any thread. Routed calls to different modules run in parallel
 * (there is no runtime-wide lock), and calls to one persistent MCP module are multiplexed.
 */
public final class UnifiedRuntime implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(UnifiedRuntime.class);
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final AtomicInteger RUNTIME_IDS = new AtomicInteger();

    private final RuntimeOptions options;
    private final Clock clock;
    private final Executor executor;
    private final ExecutorService ownedExecutor;
    private final Scheduler scheduler;
    private final boolean ownsScheduler;
    private final EventStore store;
    private final Map<String, ModuleSlot> slots;
    private final Object membership = new Object();
    private volatile MetaConfig config;
    private final List<ModuleHealthTransition> transitions = new ArrayList<>();
    private final List<LifecycleEvent> lifecycle = new ArrayList<>();
    private final AtomicLong newestTimestamp = new AtomicLong();
    private final AtomicLong routingSeq = new AtomicLong();
    private final AtomicLong deliverySeq = new AtomicLong();
    private final Object shutdownLock = new Object();
    private volatile RuntimeShutdownReport shutdownReport;
    private volatile boolean closing;
    private final Thread shutdownHook;

    private UnifiedRuntime(Builder builder, MetaConfig config) {
        this.options = builder.options;
        this.clock = builder.clock;
        this.config = config;
        int id = RUNTIME_IDS.incrementAndGet();
        if (builder.executor != null) {
            this.executor = builder.executor;
            this.ownedExecutor = null;
        } else {
            this.ownedExecutor = Executors.newCachedThreadPool(daemonThreads("meta-core-" + id + "-worker-"));
            this.executor = ownedExecutor;
        }
        this.ownsScheduler = builder.scheduler == null;
        this.scheduler = ownsScheduler ? Scheduler.daemon() : builder.scheduler;
        this.store = EventStore.create(options.eventRetention(), options.eventDropBatch());
        this.shutdownHook = options.shutdownHook()
                ? new Thread(this::shutdownFromHook, "meta-core-" + id + "-shutdown-hook") : null;
        Map<String, ModuleSlot> byId = new LinkedHashMap<>();
        for (int i = 0; i < config.modules().size(); i++) {
            ModuleConfig module = config.modules().get(i);
            ModuleBoundaryKind kind = config.boundaryOf(module.id());
            FakeModule fake = builder.fakes.get(module.id());
            try {
                ModuleBoundary boundary = fake != null ? fake.boundary(executor)
                        : ProcessBoundaries.create(module, config.preSpawnFor(module.id()), kind, options,
                        graces(module, options));
                byId.put(module.id(), new ModuleSlot(module, kind, boundary));
            } catch (IllegalArgumentException e) {
                releaseThreads();
                throw new ConfigException("modules[" + i + "]", "module '" + module.id() + "' cannot be spawned: "
                        + e.getMessage());
            }
        }
        this.slots = Collections.unmodifiableMap(byId);
    }

    private void releaseThreads() {
        if (ownsScheduler) {
            scheduler.close();
        }
        if (ownedExecutor != null) {
            ownedExecutor.shutdownNow();
        }
    }

    /** A builder for a runtime running {@code config}. */
    public static Builder builder(MetaConfig config) {
        return new Builder(Objects.requireNonNull(config, "config"));
    }

    // ---------------------------------------------------------------------------------------------- startup

    /** Startup: the discovered modules in parallel, then their blocks in discovery order, then the agent events. */
    private void startAll(List<EventEnvelope<UnifiedEvent>> agentEvents) {
        lifecycle(LifecycleStage.MOB_STARTED);
        if (shutdownHook != null) {
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        }
        List<ModuleSlot> discovered = new ArrayList<>();
        for (String id : config.discovery().modules()) {
            discovered.add(slots.get(id));
        }
        discovered.forEach(ModuleSlot::buffer);
        int threads = Math.max(1, Math.min(options.startupParallelism(), discovered.size()));
        ExecutorService pool = Executors.newFixedThreadPool(threads, daemonThreads("meta-core-startup-"));
        try {
            List<CompletableFuture<Void>> starts = new ArrayList<>();
            for (ModuleSlot slot : discovered) {
                starts.add(CompletableFuture.runAsync(() -> startModule(slot, startupTimeout(slot)), pool));
            }
            for (CompletableFuture<Void> start : starts) {
                try {
                    start.join();
                } catch (CompletionException e) {
                    LOG.error("module startup failed unexpectedly", e.getCause());
                }
            }
        } finally {
            pool.shutdownNow();
        }
        lifecycle(LifecycleStage.MODULES_STARTED);
        for (ModuleSlot slot : discovered) {
            slot.flush(this::appendTransition, this::insert);
        }
        agentEvents.forEach(this::insert);
        lifecycle(LifecycleStage.MERGED_STREAM_STARTED);
        LOG.info("runtime started: {} of {} discovered module(s) loaded", loadedModules().size(), discovered.size());
    }

    private Duration startupTimeout(ModuleSlot slot) {
        return options.startupTimeoutFor(slot.module());
    }

    /** Runs the startup procedure of {@code slot} and puts a supervisor over its outcome. */
    private StartupOutcome<ModuleChild> startModule(ModuleSlot slot, Duration timeout) {
        String id = slot.id();
        boolean mcp = slot.kind() == ModuleBoundaryKind.MCP;
        boolean perCall = mcp && slot.module().mcpSessionMode() == McpSessionMode.PER_CALL;
        RestartPolicy policy = mcp ? RestartPolicy.NEVER : slot.module().restartPolicy();
        StartupPolicy startupPolicy = new StartupPolicy(policy, options.onFailureRetryBudget(),
                options.alwaysRestartBudget(), options.restartBackoff());
        StopLadder graces = graces(slot);
        LOG.info("module '{}': starting ({} boundary, policy {})", id, slot.kind(), policy.jsonName());
        org.metaruntime.supervisor.StartAttempt<ModuleChild> attempt = n -> {
            ModuleChild child = slot.boundary().start(timeout);
            if (perCall) {
                child.stop(graces);
            }
            return child;
        };
        StartupOutcome<ModuleChild> outcome = StartupProcedure.run(id, startupPolicy, attempt,
                child -> child.stop(graces), t -> slot.transition(t, this::appendTransition),
                org.metaruntime.supervisor.Sleeper.SYSTEM, clock);
        Watcher watcher = new Watcher(slot);
        ModuleSupervisor<ModuleChild> supervisor = ModuleSupervisor.builder(id, attempt, child -> child.stop(graces))
                .restartable(mcp ? !perCall : policy != RestartPolicy.NEVER)
                .options(supervisionOptions())
                .clock(clock)
                .scheduler(scheduler)
                .attemptExecutor(executor)
                .listener(watcher)
                .start(outcome);
        slot.supervisor(supervisor);
        watcher.supervisor.complete(supervisor);
        if (!outcome.loaded()) {
            Exception failure = outcome.lastFailure();
            LOG.warn("module '{}' is not loaded: {}", id, failure == null ? "startup interrupted" : failure.getMessage());
            if (failure != null) {
                warn(slot, failureOf(failure), ErrorCodes.of(failure));
            }
        }
        return outcome;
    }

    private SupervisionOptions supervisionOptions() {
        return SupervisionOptions.builder()
                .initialBackoff(options.supervisionBackoff())
                .maxBackoff(options.supervisionBackoffMax())
                .jitter(options.supervisionJitter())
                .maxRestarts(options.maxRestarts())
                .restartWindow(options.restartWindow())
                .build();
    }

    private StopLadder graces(ModuleSlot slot) {
        return graces(slot.module(), options);
    }

    private static StopLadder graces(ModuleConfig module, RuntimeOptions options) {
        Optional<Duration> own = module.shutdownGrace();
        return new StopLadder(own.orElse(options.stopStdinGrace()), own.orElse(options.stopTermGrace()),
                options.stopKillWait());
    }

    /** Watches each adopted child and reports its failures to the module's supervisor. */
    private final class Watcher implements SupervisionListener<ModuleChild> {
        private final ModuleSlot slot;
        private final CompletableFuture<ModuleSupervisor<ModuleChild>> supervisor = new CompletableFuture<>();

        Watcher(ModuleSlot slot) {
            this.slot = slot;
        }

        @Override
        public void onTransition(ModuleHealthTransition transition) {
            slot.transition(transition, UnifiedRuntime.this::appendTransition);
        }

        @Override
        public void onAdopted(ModuleChild child, int attempt) {
            EventEnvelope<UnifiedEvent> ready = readyEvent(slot, child);
            slot.readyEvent(ready);
            slot.loaded(true);
            slot.event(ready, UnifiedRuntime.this::insert);
            child.exit().thenAcceptBoth(supervisor, (exit, sup) -> {
                if (!exit.requestedByRuntime() && isFailure(exit)) {
                    ChildFailure failure = ChildFailure.exited(exit.exitCode().orElse(-1), exit.stderrTail());
                    sup.childFailed(child, failure);
                }
            });
        }

        private boolean isFailure(ChildExit exit) {
            if (slot.kind() == ModuleBoundaryKind.MCP) {
                return slot.module().mcpSessionMode() == McpSessionMode.PERSISTENT;
            }
            return exit.exitCode().isEmpty() || exit.exitCode().getAsInt() != 0;
        }

        @Override
        public void onFailure(String moduleId, ChildFailure failure) {
            warn(slot, failure, failure.cause() != null ? ErrorCodes.of(failure.cause())
                    : failure.exitCode().isPresent() ? "process.exited" : ErrorCodes.UNKNOWN);
        }

        @Override
        public void onStopped(String moduleId, ChildFailure lastFailure) {
            warn(slot, new ChildFailure("module '" + moduleId + "' was stopped after more than " + options.maxRestarts()
                    + " restarts within " + options.restartWindow() + "; last failure: " + lastFailure.reason(),
                    lastFailure.exitCode(), lastFailure.stderrTail(), lastFailure.cause()),
                    ErrorCodes.RESTART_INTENSITY_EXCEEDED);
        }
    }

    private static ChildFailure failureOf(Throwable failure) {
        return failure instanceof BoundaryFailure ? ((BoundaryFailure) failure).toChildFailure() : ChildFailure.of(failure);
    }

    // ---------------------------------------------------------------------------------------------- events

    private EventEnvelope<UnifiedEvent> readyEvent(ModuleSlot slot, ModuleChild child) {
        Optional<EventEnvelope<UnifiedEvent>> first = child.firstEvent();
        if (first.isPresent()) {
            return first.get();
        }
        ObjectNode payload = JSON.objectNode();
        ArrayNode tools = payload.putArray("tools");
        child.tools().stream().sorted().forEach(tools::add);
        long ts = now();
        return EventEnvelope.module("evt-mcp-ready-" + slot.id() + "-" + ts, ts, slot.id(), "mcp.ready", payload);
    }

    private void warn(ModuleSlot slot, ChildFailure failure, String errorType) {
        ObjectNode payload = JSON.objectNode();
        payload.put("error", failure.reason());
        payload.put("error_type", errorType);
        failure.exitCode().ifPresent(code -> payload.put("exit_code", code));
        boolean processRan = failure.exitCode().isPresent() || !failure.stderrTail().isEmpty()
                || failure.cause() instanceof BoundaryFailure && ((BoundaryFailure) failure.cause()).processRan();
        if (processRan) {
            payload.put("stderr_tail", failure.stderrTail());
        }
        long ts = now();
        slot.event(EventEnvelope.module("evt-supervisor-warning-" + slot.id() + "-" + ts, ts, slot.id(),
                "supervisor.warning", payload), this::insert);
    }

    /** The clock's time, never behind the newest merged event. */
    private long now() {
        return Math.max(clock.millis(), newestTimestamp.get());
    }

    private void insert(EventEnvelope<UnifiedEvent> event) {
        newestTimestamp.accumulateAndGet(event.timestampMs(), Math::max);
        store.insert(event);
    }

    private void appendTransition(ModuleHealthTransition transition) {
        synchronized (transitions) {
            transitions.add(transition);
        }
        LOG.debug("module '{}': health {}", transition.moduleId(), transition);
    }

    private void lifecycle(LifecycleStage stage) {
        synchronized (lifecycle) {
            lifecycle.add(new LifecycleEvent(lifecycle.size(), stage));
        }
    }

    private static EventEnvelope<UnifiedEvent> projectAgent(EventEnvelope<UnifiedEvent> event) {
        Objects.requireNonNull(event, "event");
        if (!(event.event() instanceof UnifiedEvent.Agent)) {
            throw new NormalizationException(new NormalizationError.SourceMismatch("agent", event.source()));
        }
        return AgentEventProjection.project(event);
    }

    /**
     * Adds an agent event to the merged stream, in order, after the agent payload projection.
     *
     * @throws NormalizationException with {@code SourceMismatch("agent", source)} when it is not an agent event
     */
    public void ingestAgentEvent(EventEnvelope<UnifiedEvent> event) {
        insert(projectAgent(event));
    }

    /** The merged module and agent events, in order (a recent-event buffer, see {@link RuntimeOptions#eventRetention()}). */
    public List<EventEnvelope<UnifiedEvent>> mergedEvents() {
        return store.snapshot();
    }

    /** Every health transition so far, in order; each module's startup block is whole, in discovery order. */
    public List<ModuleHealthTransition> moduleHealthTransitions() {
        synchronized (transitions) {
            return List.copyOf(transitions);
        }
    }

    /** The lifecycle stages so far, {@code seq} from 0. */
    public List<LifecycleEvent> lifecycleEvents() {
        synchronized (lifecycle) {
            return List.copyOf(lifecycle);
        }
    }

    /**
     * Subscribes to the merged stream (lossy, never blocks the runtime): first a {@code resync_required} notice with
     * reason {@code initial_sync}, then each new envelope; a subscriber that falls behind gets {@code lagged} and
     * should re-read {@link #mergedEvents()}. Close the subscription when done; the runtime closes it on shutdown.
     */
    public Subscription subscribe(Consumer<? super StoreNotification> subscriber) {
        return store.subscribe(Objects.requireNonNull(subscriber, "subscriber"));
    }

    /** {@link #subscribe(Consumer)} with a queue of {@code queueCapacity} notifications. */
    public Subscription subscribe(Consumer<? super StoreNotification> subscriber, int queueCapacity) {
        return store.subscribe(Objects.requireNonNull(subscriber, "subscriber"), queueCapacity);
    }

    /** The merged events matching {@code filter}, in order. */
    public List<EventEnvelope<UnifiedEvent>> queryEvents(EventFilter filter) {
        return store.query(Objects.requireNonNull(filter, "filter"));
    }

    /** The modules whose startup succeeded, in discovery order; empty after {@link #shutdown()}. */
    public Set<String> loadedModules() {
        Set<String> loaded = new LinkedHashSet<>();
        for (String id : config.discovery().modules()) {
            ModuleSlot slot = slots.get(id);
            if (slot != null && slot.loaded()) {
                loaded.add(id);
            }
        }
        return Collections.unmodifiableSet(loaded);
    }

    /** The current discovery (it changes with {@link #spawnMember} and {@link #reconcileModules}). */
    public DiscoverySpec discovery() {
        return config.discovery();
    }

    /**
     * One line per module that has been started (state, attempt, pid, restarts, last error, stderr tail), in
     * configuration order.
     */
    public Map<String, ModuleSupervisorReport> supervisorReport() {
        Map<String, ModuleSupervisorReport> report = new LinkedHashMap<>();
        for (ModuleSlot slot : slots.values()) {
            ModuleSupervisor<ModuleChild> supervisor = slot.supervisor();
            if (supervisor != null) {
                report.put(slot.id(), supervisor.report(ModuleChild::pid, ModuleChild::stderrTail));
            }
        }
        return Collections.unmodifiableMap(report);
    }

    // ---------------------------------------------------------------------------------------------- routing

    /**
     * Routes a call and waits for its answer.
     *
     * @throws ModuleRouteException carrying {@link ModuleRouteError}: {@code UnloadedModule}; {@code ModuleRuntime}
     *                              of {@code Mcp(McpRequired)} for a core module without the MCP marker; {@code
     *                              ModuleUnavailable} while the module restarts or after its supervisor stopped it;
     *                              {@code ModuleRuntime} of the boundary's error; {@code UnexpectedRouteResponse}
     */
    public ModuleRouteResponse routeModuleCall(ModuleRouteRequest request, Duration timeout) {
        CompletableFuture<ModuleRouteResponse> call = routeModuleCallAsync(request, timeout);
        try {
            return call.get();
        } catch (InterruptedException e) {
            call.cancel(true);
            Thread.currentThread().interrupt();
            throw new ModuleRouteException(request.moduleId(), new ModuleRouteError.ModuleRuntime(
                    new RuntimeBoundaryError.Process(new ProcessBoundaryError.Io("the calling thread was interrupted"))), e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof ModuleRouteException) {
                ModuleRouteException routeError = (ModuleRouteException) cause;
                throw new ModuleRouteException(routeError.moduleId(), routeError.error(), routeError.exitCode(),
                        routeError.stderrTail(), routeError);
            }
            throw toRouteException(request.moduleId(), cause);
        }
    }

    /** Routes a call with the module's default call timeout ({@link RuntimeOptions#callTimeoutFor}). */
    public ModuleRouteResponse routeModuleCall(ModuleRouteRequest request) {
        Objects.requireNonNull(request, "request");
        return routeModuleCall(request, defaultTimeout(request.moduleId()));
    }

    private Duration defaultTimeout(String moduleId) {
        ModuleSlot slot = slots.get(moduleId);
        return slot == null ? options.callTimeout() : options.callTimeoutFor(slot.module());
    }

    /**
     * Routes a call without blocking. The future fails with a {@link ModuleRouteException} (see
     * {@link #routeModuleCall(ModuleRouteRequest, Duration)}); the checks that need no I/O fail it at once.
     */
    public CompletableFuture<ModuleRouteResponse> routeModuleCallAsync(ModuleRouteRequest request, Duration timeout) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive: " + timeout);
        }
        String id = request.moduleId();
        try {
            return route(request, timeout).thenApply(payload -> {
                ModuleRouteResponse response = new ModuleRouteResponse(id, request.method(), payload);
                coreFlowEvent(response);
                return response;
            }).exceptionally(error -> {
                throw toRouteException(id, error);
            });
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(toRouteException(id, e));
        }
    }

    private CompletableFuture<JsonNode> route(ModuleRouteRequest request, Duration timeout) {
        String id = request.moduleId();
        ModuleSlot slot = slots.get(id);
        if (closing || slot == null || !slot.loaded()) {
            throw new ModuleRouteException(id, new ModuleRouteError.UnloadedModule(id));
        }
        if (options.isCore(id) && slot.kind() != ModuleBoundaryKind.MCP) {
            throw new ModuleRouteException(id, new ModuleRouteError.ModuleRuntime(
                    new RuntimeBoundaryError.Mcp(new McpBoundaryError.McpRequired(id, request.method()))));
        }
        ModuleSupervisor<ModuleChild> supervisor = slot.supervisor();
        if (!supervisor.acceptsCalls()) {
            throw new ModuleRouteException(id, new ModuleRouteError.ModuleUnavailable(id, supervisor.state()));
        }
        if (slot.kind() == ModuleBoundaryKind.EVENT_LINE) {
            return async(() -> eventLinePayload(slot, timeout));
        }
        if (slot.module().mcpSessionMode() == McpSessionMode.PER_CALL) {
            return async(() -> slot.boundary().callOnce(request.method(), request.params(), timeout));
        }
        Optional<ModuleChild> child = supervisor.currentChild();
        if (child.isEmpty()) {
            throw new ModuleRouteException(id, new ModuleRouteError.ModuleUnavailable(id, supervisor.state()));
        }
        return child.get().call(request.method(), request.params(), timeout);
    }

    private JsonNode eventLinePayload(ModuleSlot slot, Duration timeout) throws InterruptedException {
        String id = slot.id();
        EventEnvelope<UnifiedEvent> event = slot.boundary().runOnce(timeout);
        if (!(event.event() instanceof UnifiedEvent.Module)) {
            throw new ModuleRouteException(id, new ModuleRouteError.UnexpectedRouteResponse(id,
                    "expected a module event of '" + id + "', got an agent event '" + event.eventId() + "'"));
        }
        ModuleEvent moduleEvent = ((UnifiedEvent.Module) event.event()).event();
        if (!moduleEvent.module().equals(id)) {
            throw new ModuleRouteException(id, new ModuleRouteError.UnexpectedRouteResponse(id,
                    "expected a module event of '" + id + "', got one of '" + moduleEvent.module() + "'"));
        }
        return moduleEvent.payload();
    }

    @FunctionalInterface
    private interface Io<T> {
        T run() throws Exception;
    }

    private <T> CompletableFuture<T> async(Io<T> io) {
        CompletableFuture<T> future = new CompletableFuture<>();
        try {
            executor.execute(() -> {
                try {
                    future.complete(io.run());
                } catch (Throwable e) {
                    future.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            future.completeExceptionally(e);
        }
        return future;
    }

    private static ModuleRouteException toRouteException(String moduleId, Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof ModuleRouteException) {
            return (ModuleRouteException) cause;
        }
        if (cause instanceof BoundaryFailure) {
            BoundaryFailure failure = (BoundaryFailure) cause;
            return new ModuleRouteException(moduleId, new ModuleRouteError.ModuleRuntime(failure.error()),
                    failure.exitCode(), failure.stderrTail(), failure);
        }
        if (cause instanceof RejectedExecutionException) {
            return new ModuleRouteException(moduleId, new ModuleRouteError.UnloadedModule(moduleId), cause);
        }
        String message = cause.getMessage() == null ? cause.getClass().getName() : cause.getMessage();
        return new ModuleRouteException(moduleId, new ModuleRouteError.ModuleRuntime(
                new RuntimeBoundaryError.Process(new ProcessBoundaryError.Io(message))), cause);
    }

    /** Section 10: the core flow events of successful router / delivery calls. */
    private void coreFlowEvent(ModuleRouteResponse response) {
        String id = response.moduleId();
        if (!options.isCore(id)) {
            return;
        }
        if (id.equals("router") && response.method().equals("routing.resolve")) {
            long ts = now();
            insert(EventEnvelope.module(String.format("evt-routing-%06d", routingSeq.incrementAndGet()), ts,
                    "router", "resolved", response.payload()));
        } else if (id.equals("delivery") && response.method().equals("delivery.send")) {
            ObjectNode payload = JSON.objectNode();
            for (String field : List.of("delivery_id", "route_id", "recipient", "sink", "status", "attempts")) {
                JsonNode value = response.payload().get(field);
                if (value != null) {
                    payload.set(field, value);
                }
            }
            long ts = now();
            insert(EventEnvelope.module(String.format("evt-delivery-%06d", deliverySeq.incrementAndGet()), ts,
                    "delivery", "send", payload));
        }
    }

    // ---------------------------------------------------------------------------------------------- operations

    /**
     * Starts (or respawns) one configured module with the startup procedure, appending a new block of transitions
     * {@code (null → Starting, 0) ...}; adds it to {@code discovery.modules} if absent; an old child is stopped first.
     *
     * @param timeout the startup timeout of each attempt
     * @return the module's first event (event-line) or its {@code mcp.ready} event (MCP)
     * @throws RuntimeFromConfigException {@code Config(ModuleNotConfigured)}, or {@code Runtime(<boundary error>)}
     *                                    when the startup ended {@code Stopped}
     * @throws IllegalStateException      after {@link #shutdown()}
     */
    public EventEnvelope<UnifiedEvent> spawnMember(String moduleId, Duration timeout) {
        Objects.requireNonNull(moduleId, "moduleId");
        Objects.requireNonNull(timeout, "timeout");
        ModuleSlot slot = requireConfigured(moduleId);
        synchronized (membership) {
            if (!config.isDiscovered(moduleId)) {
                List<String> ids = new ArrayList<>(config.discovery().modules());
                ids.add(moduleId);
                config = config.withDiscoveredModules(ids);
            }
        }
        return respawn(slot, timeout);
    }

    private EventEnvelope<UnifiedEvent> respawn(ModuleSlot slot, Duration timeout) {
        synchronized (slot.lifecycleLock()) {
            requireOpen(slot.id());
            ModuleSupervisor<ModuleChild> old = slot.supervisor();
            if (old != null) {
                slot.loaded(false);
                old.close();
            }
            StartupOutcome<ModuleChild> outcome = startModule(slot, timeout);
            if (!outcome.loaded()) {
                Exception failure = outcome.lastFailure();
                RuntimeBoundaryError error = failure instanceof BoundaryFailure ? ((BoundaryFailure) failure).error()
                        : new RuntimeBoundaryError.Process(new ProcessBoundaryError.Io(
                        failure == null ? "the startup was interrupted" : String.valueOf(failure.getMessage())));
                if (failure instanceof BoundaryFailure) {
                    BoundaryFailure boundaryFailure = (BoundaryFailure) failure;
                    throw new RuntimeFromConfigException(slot.id(), new RuntimeFromConfigError.Runtime(error),
                            boundaryFailure.exitCode(), boundaryFailure.stderrTail(), failure);
                }
                throw new RuntimeFromConfigException(slot.id(), new RuntimeFromConfigError.Runtime(error), failure);
            }
            return slot.readyEvent();
        }
    }

    /**
     * Replaces {@code discovery.modules} with {@code moduleIds} and starts, in order, each one that is not loaded,
     * stopping at the first error. Never unloads a module.
     *
     * @return how many modules it started
     * @throws RuntimeFromConfigException {@code Config(ModuleNotConfigured)} before any side effect, or
     *                                    {@code Runtime(<boundary error>)} for the first module that failed to start
     */
    public int reconcileModules(List<String> moduleIds, Duration timeout) {
        Objects.requireNonNull(moduleIds, "moduleIds");
        Objects.requireNonNull(timeout, "timeout");
        List<ModuleSlot> targets = new ArrayList<>();
        for (String id : moduleIds) {
            targets.add(requireConfigured(Objects.requireNonNull(id, "moduleId")));
        }
        synchronized (membership) {
            config = config.withDiscoveredModules(new ArrayList<>(new LinkedHashSet<>(moduleIds)));
        }
        int added = 0;
        for (ModuleSlot slot : targets) {
            if (!slot.loaded()) {
                respawn(slot, timeout);
                added++;
            }
        }
        return added;
    }

    /**
     * [beyond] Restarts a module by hand: one that its supervisor stopped, whose startup ended {@code Stopped}, or
     * that is healthy. Records {@code (state → Restarting, n)} and the outcome.
     *
     * @return the module's state after the attempt
     * @throws RuntimeFromConfigException {@code Config(ModuleNotConfigured)} for an unknown id
     * @throws IllegalStateException      when the module was never started or is restarting already
     */
    public ModuleHealthState restartModule(String moduleId) {
        ModuleSlot slot = requireConfigured(Objects.requireNonNull(moduleId, "moduleId"));
        synchronized (slot.lifecycleLock()) {
            requireOpen(moduleId);
            ModuleSupervisor<ModuleChild> supervisor = slot.supervisor();
            if (supervisor == null) {
                throw new IllegalStateException("module '" + moduleId + "' was never started; use spawnMember");
            }
            return supervisor.restartNow();
        }
    }

    private ModuleSlot requireConfigured(String moduleId) {
        ModuleSlot slot = slots.get(moduleId);
        if (slot == null) {
            throw new RuntimeFromConfigException(moduleId,
                    new RuntimeFromConfigError.Config(new ConfigResolutionError.ModuleNotConfigured(moduleId)));
        }
        return slot;
    }

    private void requireOpen(String moduleId) {
        if (closing) {
            throw new IllegalStateException("the runtime is shut down; module '" + moduleId + "' cannot start");
        }
    }

    /**
     * Runs one discovered module once on the event-line path (even if its marker says MCP), with its pre-spawn
     * environment, and returns its normalised first event. No runtime is needed.
     *
     * @throws RuntimeFromConfigException {@code Config(ModuleNotConfigured | ModuleNotDiscovered)} or
     *                                    {@code Runtime(<boundary error>)}
     */
    public static EventEnvelope<UnifiedEvent> runDiscoveredModuleOnce(MetaConfig config, String moduleId,
                                                                      Duration timeout) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(moduleId, "moduleId");
        Objects.requireNonNull(timeout, "timeout");
        Optional<ModuleConfig> module = config.module(moduleId);
        if (module.isEmpty()) {
            throw new RuntimeFromConfigException(moduleId,
                    new RuntimeFromConfigError.Config(new ConfigResolutionError.ModuleNotConfigured(moduleId)));
        }
        if (!config.isDiscovered(moduleId)) {
            throw new RuntimeFromConfigException(moduleId,
                    new RuntimeFromConfigError.Config(new ConfigResolutionError.ModuleNotDiscovered(moduleId)));
        }
        RuntimeOptions defaults = RuntimeOptions.defaults();
        ModuleBoundary boundary = ProcessBoundaries.create(module.get(), config.preSpawnFor(moduleId),
                ModuleBoundaryKind.EVENT_LINE, defaults, graces(module.get(), defaults));
        try {
            return boundary.runOnce(timeout);
        } catch (BoundaryFailure failure) {
            throw new RuntimeFromConfigException(moduleId, new RuntimeFromConfigError.Runtime(failure.error()),
                    failure.exitCode(), failure.stderrTail(), failure);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RuntimeFromConfigException(moduleId, new RuntimeFromConfigError.Runtime(
                    new RuntimeBoundaryError.Process(new ProcessBoundaryError.Io("interrupted"))), e);
        }
    }

    // ---------------------------------------------------------------------------------------------- shutdown

    /**
     * Stops every child with the stop ladder (in parallel, bounded by the graces), appends
     * {@code ShutdownRequested} and {@code ShutdownComplete}, and releases the runtime's threads. Idempotent: a
     * second call returns the first report.
     */
    public RuntimeShutdownReport shutdown() {
        synchronized (shutdownLock) {
            if (shutdownReport != null) {
                return shutdownReport;
            }
            closing = true;
            lifecycle(LifecycleStage.SHUTDOWN_REQUESTED);
            List<String> terminated = Collections.synchronizedList(new ArrayList<>());
            AtomicInteger orphans = new AtomicInteger();
            List<Thread> stoppers = new ArrayList<>();
            for (ModuleSlot slot : slots.values()) {
                ModuleSupervisor<ModuleChild> supervisor = slot.supervisor();
                boolean wasLoaded = slot.loaded();
                slot.loaded(false);
                if (supervisor == null) {
                    continue;
                }
                Optional<ModuleChild> child = supervisor.currentChild();
                Thread stopper = new Thread(() -> {
                    StopLadder graces = graces(slot);
                    supervisor.close();
                    child.ifPresent(c -> orphans.addAndGet(c.stop(graces)));
                    if (wasLoaded || child.isPresent()) {
                        terminated.add(slot.id());
                        LOG.info("module '{}': stopped", slot.id());
                    }
                }, "meta-core-stop-" + slot.id());
                stopper.setDaemon(true);
                stopper.start();
                stoppers.add(stopper);
            }
            for (Thread stopper : stoppers) {
                joinUninterruptibly(stopper);
            }
            releaseThreads();
            store.close();
            if (shutdownHook != null && Thread.currentThread() != shutdownHook) {
                try {
                    Runtime.getRuntime().removeShutdownHook(shutdownHook);
                } catch (IllegalStateException jvmShuttingDown) {
                    LOG.debug("the JVM is shutting down; the shutdown hook stays");
                }
            }
            lifecycle(LifecycleStage.SHUTDOWN_COMPLETE);
            shutdownReport = new RuntimeShutdownReport(terminated, orphans.get());
            LOG.info("runtime shut down: {}", shutdownReport);
            return shutdownReport;
        }
    }

    /** The report of the shutdown, empty before it. */
    public Optional<RuntimeShutdownReport> shutdownReport() {
        return Optional.ofNullable(shutdownReport);
    }

    /** Same as {@link #shutdown()}. */
    @Override
    public void close() {
        shutdown();
    }

    private void shutdownFromHook() {
        LOG.info("JVM shutdown: stopping the runtime's modules");
        shutdown();
    }

    private static void joinUninterruptibly(Thread thread) {
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger counter = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    @Override
    public String toString() {
        return "UnifiedRuntime[loaded=" + loadedModules() + (closing ? ", shut down" : "") + "]";
    }

    // ---------------------------------------------------------------------------------------------- builder

    /**
     * Builds and starts a {@link UnifiedRuntime}. Not thread-safe.
     *
     * <pre>{@code
     * UnifiedRuntime runtime = UnifiedRuntime.builder(config)
     *         .options(RuntimeOptions.builder().startupTimeout(Duration.ofSeconds(10)).build())
     *         .agentEvents(history)
     *         .start();
     * }</pre>
     */
    public static final class Builder {
        private final MetaConfig config;
        private RuntimeOptions options = RuntimeOptions.defaults();
        private List<EventEnvelope<UnifiedEvent>> agentEvents = List.of();
        private Clock clock = Clock.systemUTC();
        private Executor executor;
        private Scheduler scheduler;
        private final Map<String, FakeModule> fakes = new LinkedHashMap<>();

        private Builder(MetaConfig config) {
            this.config = config;
        }

        /** The options. Default {@link RuntimeOptions#defaults()}. */
        public Builder options(RuntimeOptions options) {
            this.options = Objects.requireNonNull(options, "options");
            return this;
        }

        /** The host's agent events merged into the stream at startup (each goes through the agent projection). */
        public Builder agentEvents(List<EventEnvelope<UnifiedEvent>> agentEvents) {
            this.agentEvents = List.copyOf(Objects.requireNonNull(agentEvents, "agentEvents"));
            return this;
        }

        /** The clock of event timestamps and of the restart window. Default {@link Clock#systemUTC()}. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * The executor that runs blocking module I/O (one-shot event-line runs, {@code PER_CALL} MCP calls). Default:
         * a daemon pool owned and shut down by the runtime. A host executor is not shut down.
         */
        public Builder executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        /** The scheduler of restarts after startup (tests pass a manual one). Default: a daemon scheduler. */
        public Builder scheduler(Scheduler scheduler) {
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
            return this;
        }

        /**
         * Replaces a configured module's process with an in-process fake for host tests; the module still goes
         * through selection, the core-id rule, routing, errors, transitions, events and restart policies. The fake's
         * kind must match the boundary its pre-spawn data selects.
         */
        public Builder fakeModule(FakeModule fake) {
            Objects.requireNonNull(fake, "fake");
            fakes.put(fake.moduleId(), fake);
            return this;
        }

        /**
         * Validates the configuration, starts the discovered modules and returns the running runtime.
         *
         * @throws ConfigException        when the configuration is invalid; nothing was started
         * @throws NormalizationException when an initial agent event is not an agent event
         */
        public UnifiedRuntime start() {
            config.validate();
            for (FakeModule fake : fakes.values()) {
                String field = "fakeModules[" + fake.moduleId() + "]";
                if (!config.isConfigured(fake.moduleId())) {
                    throw new ConfigException(field, "fake module '" + fake.moduleId() + "' is not configured",
                            new ConfigResolutionError.ModuleNotConfigured(fake.moduleId()));
                }
                ModuleBoundaryKind selected = config.boundaryOf(fake.moduleId());
                if (fake.kind() != selected) {
                    throw new ConfigException(field, "fake module '" + fake.moduleId() + "' is " + fake.kind()
                            + " but its pre-spawn data selects " + selected);
                }
            }
            List<EventEnvelope<UnifiedEvent>> agents = new ArrayList<>();
            for (EventEnvelope<UnifiedEvent> event : agentEvents) {
                agents.add(projectAgent(event));
            }
            UnifiedRuntime runtime = new UnifiedRuntime(this, config);
            try {
                runtime.startAll(agents);
            } catch (RuntimeException | Error e) {
                runtime.shutdown();
                throw e;
            }
            return runtime;
        }
    }
}
