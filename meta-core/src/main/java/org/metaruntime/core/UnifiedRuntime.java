package org.metaruntime.core;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import org.metaruntime.core.internal.ProcessBoundaries;
import org.metaruntime.core.internal.RuntimeAssembly;
import org.metaruntime.core.internal.RuntimeEvents;
import org.metaruntime.core.internal.RuntimeSettings;
import org.metaruntime.core.internal.SeatVerbs;
import org.metaruntime.events.EventEnvelope;
import org.metaruntime.events.EventFilter;
import org.metaruntime.events.EventLog;
import org.metaruntime.events.LifecycleEvent;
import org.metaruntime.events.MobEventPage;
import org.metaruntime.events.MobEventQuery;
import org.metaruntime.events.MobStructuralEventEnvelope;
import org.metaruntime.events.NormalizationException;
import org.metaruntime.events.PersistentMetadataStore;
import org.metaruntime.events.StoreNotification;
import org.metaruntime.events.Subscription;
import org.metaruntime.events.UnifiedEvent;
import org.metaruntime.events.spi.MobEventSource;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.supervisor.ModuleHealthTransition;
import org.metaruntime.supervisor.ModuleSupervisorReport;
import org.metaruntime.supervisor.Scheduler;

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
 * discovered module, in parallel (at most {@link StartupOptions#parallelism()} at once). A module that fails to
 * start is left unloaded; it never fails the runtime's startup.
 *
 * <p>Thread-safe: every method may be called from any thread. Routed calls to different modules run in parallel
 * (there is no runtime-wide lock), and calls to one persistent MCP module are multiplexed.
 */
public final class UnifiedRuntime implements AutoCloseable {

    private final RuntimeAssembly parts;

    private UnifiedRuntime(RuntimeAssembly parts) {
        this.parts = parts;
    }

    /** A builder for a runtime running {@code config}. */
    public static Builder builder(MetaConfig config) {
        return new Builder(Objects.requireNonNull(config, "config"));
    }

    // ---------------------------------------------------------------------------------------------- calls

    /**
     * Starts a call and returns at once: the handle's {@link ModuleCall#response()} completes with the answer or
     * fails with a {@link ModuleRouteException} (routing errors included: this method never throws them), and
     * {@link ModuleCall#cancel()} stops it.
     *
     * <pre>{@code
     * ModuleCall call = runtime.call(request, CallOptions.builder().timeout(Duration.ofSeconds(10)).build());
     * call.response().thenAccept(response -> show(response.payload()));
     * }</pre>
     */
    public ModuleCall call(ModuleRouteRequest request, CallOptions options) {
        return parts.calls().call(Objects.requireNonNull(request, "request"),
                Objects.requireNonNull(options, "options"));
    }

    /**
     * The whole MCP surface of an MCP module (see {@link McpModule}, which also states how a routed call's payload is
     * projected from the result).
     *
     * @throws ModuleRouteException {@code UnloadedModule} when the module is not loaded;
     *                              {@code ModuleRuntime(Mcp(McpRequired(id, "mcp")))} for an event-line module
     */
    public McpModule mcp(String moduleId) {
        return parts.calls().mcp(moduleId);
    }

    /**
     * Routes a call and waits for its answer; an interrupt of the waiting thread cancels the call.
     *
     * @throws ModuleRouteException carrying {@link ModuleRouteError}: {@code UnloadedModule}; {@code ModuleRuntime}
     *                              of {@code Mcp(McpRequired)} for a core module without the MCP marker; {@code
     *                              ModuleUnavailable} while the module restarts or after its supervisor stopped it;
     *                              {@code ModuleRuntime} of the boundary's error (its {@code Cancelled} when the
     *                              thread was interrupted); {@code UnexpectedRouteResponse}
     */
    public ModuleRouteResponse routeModuleCall(ModuleRouteRequest request, Duration timeout) {
        return parts.calls().call(Objects.requireNonNull(request, "request"), CallOptions.timeout(timeout)).await();
    }

    /** Routes a call with the module's default call timeout ({@link RuntimeOptions#callTimeoutFor}). */
    public ModuleRouteResponse routeModuleCall(ModuleRouteRequest request) {
        Objects.requireNonNull(request, "request");
        return routeModuleCall(request, parts.calls().defaultTimeout(request.moduleId()));
    }

    /**
     * Routes a call without blocking: {@code call(request, CallOptions.timeout(timeout)).response()}.
     *
     * @throws IllegalArgumentException when {@code timeout} is not positive
     */
    public CompletableFuture<ModuleRouteResponse> routeModuleCallAsync(ModuleRouteRequest request, Duration timeout) {
        return call(request, CallOptions.timeout(timeout)).response();
    }

    /**
     * Subscribes to the health transitions recorded from now on, in order, each delivered after the change. The
     * subscription has its own bounded queue and thread: a slow or throwing listener never delays the runtime or
     * another listener. Transitions that overflow the queue are dropped; see
     * {@link #subscribeHealth(Consumer, IntConsumer)} to be told how many.
     */
    public Subscription subscribeHealth(Consumer<? super ModuleHealthTransition> listener) {
        return parts.events().health().subscribe(listener);
    }

    /** {@link #subscribeHealth(Consumer)}; {@code onMissed} is told how many transitions overflowed the queue. */
    public Subscription subscribeHealth(Consumer<? super ModuleHealthTransition> listener, IntConsumer onMissed) {
        return parts.events().health().subscribe(listener, onMissed);
    }

    // ---------------------------------------------------------------------------------------------- records

    /**
     * Adds an agent event to the merged stream, in order, after the agent payload projection.
     *
     * @throws NormalizationException with {@code SourceMismatch("agent", source)} when it is not an agent event
     */
    public void ingestAgentEvent(EventEnvelope<UnifiedEvent> event) {
        parts.events().insert(RuntimeEvents.projectAgent(event));
    }

    /** The merged module and agent events, in order (a recent-event buffer, see {@link EventOptions}). */
    public List<EventEnvelope<UnifiedEvent>> mergedEvents() {
        return parts.events().store().snapshot();
    }

    /** The merged events matching {@code filter}, in order. */
    public List<EventEnvelope<UnifiedEvent>> queryEvents(EventFilter filter) {
        return parts.events().store().query(Objects.requireNonNull(filter, "filter"));
    }

    /**
     * Subscribes to the merged stream (lossy, never blocks the runtime): first a {@code resync_required} notice with
     * reason {@code initial_sync}, then each new envelope; a subscriber that falls behind gets {@code lagged} and
     * should re-read {@link #mergedEvents()}. Close the subscription when done; the runtime closes it on shutdown.
     */
    public Subscription subscribe(Consumer<? super StoreNotification> subscriber) {
        return parts.events().store().subscribe(Objects.requireNonNull(subscriber, "subscriber"));
    }

    /** {@link #subscribe(Consumer)} with a queue of {@code queueCapacity} notifications. */
    public Subscription subscribe(Consumer<? super StoreNotification> subscriber, int queueCapacity) {
        return parts.events().store().subscribe(Objects.requireNonNull(subscriber, "subscriber"), queueCapacity);
    }

    /** Every health transition so far, in order; each module's startup block is whole, in discovery order. */
    public List<ModuleHealthTransition> moduleHealthTransitions() {
        return parts.events().transitions();
    }

    /** The lifecycle stages so far, {@code seq} from 0. */
    public List<LifecycleEvent> lifecycleEvents() {
        return parts.events().lifecycleEvents();
    }

    /** The modules whose startup succeeded, in discovery order; empty after {@link #shutdown()}. */
    public Set<String> loadedModules() {
        return parts.registry().loaded();
    }

    /**
     * Which seats' verbs the loaded MCP modules implement: seat to module id to verbs, each sorted, read from the
     * tools each module listed at its last start (a tool named {@code <seat>.<verb>}, see {@link ToolRole}); empty
     * when no module implements one.
     */
    public Map<String, Map<String, List<String>>> seatVerbs() {
        return SeatVerbs.ofModules(parts.registry());
    }

    /** The current discovery (it changes with {@link #spawnMember} and {@link #reconcileModules}). */
    public DiscoverySpec discovery() {
        return parts.registry().discovery();
    }

    /**
     * One line per started module (state, attempt, pid, restarts, last error, stderr tail), in configuration order.
     * A loaded lazy module without a child has its line too: {@code Stopped} at attempt 0 before its first call
     * ({@code Starting} while a call starts it); after an idle stop, or a startup that failed, the state and last
     * error its last run left, with no pid.
     */
    public Map<String, ModuleSupervisorReport> supervisorReport() {
        return parts.registry().reports();
    }

    // ---------------------------------------------------------------------------------------------- membership

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
        return parts.membership().spawn(moduleId, timeout);
    }

    /**
     * Replaces {@code discovery.modules} with {@code moduleIds} and starts, in order, each one that is not loaded,
     * stopping at the first error. Never unloads a module: one loaded before stays loaded and keeps its child.
     *
     * @return how many modules it started
     * @throws RuntimeFromConfigException {@code Config(ModuleNotConfigured)} before any side effect, or
     *                                    {@code Runtime(<boundary error>)} for the first module that failed to start
     * @throws ConfigException            naming {@code discovery.modules[i]} when an id is listed twice (as
     *                                    {@link MetaConfig#validate()} refuses a module discovered twice), before
     *                                    any side effect
     */
    public int reconcileModules(List<String> moduleIds, Duration timeout) {
        return parts.membership().reconcile(moduleIds, timeout);
    }

    /**
     * Restarts a module by hand: one that its supervisor stopped, whose startup ended {@code Stopped}, or that is
     * healthy. Records {@code (state → Restarting, n)} and the outcome.
     *
     * @return the module's state after the attempt
     * @throws RuntimeFromConfigException {@code Config(ModuleNotConfigured)} for an unknown id
     * @throws IllegalStateException      when the module was never started or is restarting already
     */
    public ModuleHealthState restartModule(String moduleId) {
        return parts.membership().restart(moduleId);
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
        return ProcessBoundaries.runDiscovered(config, moduleId, timeout);
    }

    // ---------------------------------------------------------------------------------------------- shutdown

    /**
     * Stops every child with the stop ladder (in parallel, bounded by the graces), appends
     * {@code ShutdownRequested} and {@code ShutdownComplete}, and releases the runtime's threads. Idempotent: a
     * second call returns the first report.
     */
    public RuntimeShutdownReport shutdown() {
        return parts.shutdown().run();
    }

    // ---------------------------------------------------------------------------------- event log, mob events

    /**
     * The event log every envelope of the merged store is appended to: the builder's
     * {@link Builder#eventLog(EventLog)}, or the embedded one of {@link Builder#persistentState(Path)}; empty
     * when neither was set.
     */
    public Optional<EventLog> eventLog() {
        return parts.persistence().log();
    }

    /**
     * The structural mob events projected from the builder's {@link Builder#mobEventSource(MobEventSource)}
     * (kept in the event log when there is one).
     *
     * @throws IllegalStateException when no mob-event source is configured
     */
    public MobEventPage mobEvents(MobEventQuery query) {
        return parts.persistence().mobEvents(Objects.requireNonNull(query, "query"));
    }

    /**
     * Calls {@code listener} with each structural mob event projected from now on, on the source's delivery
     * thread (keep it fast).
     *
     * @throws IllegalStateException when no mob-event source is configured
     */
    public Subscription subscribeMobEvents(Consumer<? super MobStructuralEventEnvelope> listener) {
        return parts.persistence().subscribeMobEvents(Objects.requireNonNull(listener, "listener"));
    }

    /** The report of the shutdown, empty before it. */
    public Optional<RuntimeShutdownReport> shutdownReport() {
        return parts.shutdown().report();
    }

    /** Same as {@link #shutdown()}. */
    @Override
    public void close() {
        shutdown();
    }

    @Override
    public String toString() {
        return "UnifiedRuntime[loaded=" + loadedModules() + (parts.shutdown().isDone() ? ", shut down" : "") + "]";
    }

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
        private final Map<String, InProcessModule> inProcess = new LinkedHashMap<>();
        private Path persistentState;
        private EventLog eventLog;
        private PersistentMetadataStore persistentMetadata;
        private MobEventSource mobEventSource;
        private ModuleCallListener callListener;

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

        /** The clock of event timestamps, health transitions and the restart window. Default {@link Clock#systemUTC()}. */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * The executor of blocking module I/O (one-shot event-line runs, {@code PER_CALL} MCP calls). Default: a
         * daemon pool owned and shut down by the runtime. A host executor is not shut down.
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
         * Keeps the runtime's state in {@code dir}, opened and closed by the runtime: the event log in
         * {@code event_log.sqlite3} (unless {@link #eventLog} is set) and the projection metadata in
         * {@code meta_metadata.sqlite3} (unless {@link #persistentMetadata} is set). These embedded stores come from
         * {@code org.metaruntime:meta-eventlog}, an optional dependency the host adds: without it, {@link #start()}
         * throws {@link ConfigException} naming {@code persistentState} and that artifact.
         */
        public Builder persistentState(Path dir) {
            this.persistentState = Objects.requireNonNull(dir, "dir");
            return this;
        }

        /**
         * The event log every merged envelope is appended to, for example {@code EventLogs.jdbc(dataSource)} for a
         * PostgreSQL log shared by several runtimes. The host owns it: the runtime flushes it at shutdown but does
         * not close it.
         */
        public Builder eventLog(EventLog log) {
            this.eventLog = Objects.requireNonNull(log, "log");
            return this;
        }

        /** The host's store for projection metadata (the mob-event cursor). Default: in memory, or the state directory's. */
        public Builder persistentMetadata(PersistentMetadataStore store) {
            this.persistentMetadata = Objects.requireNonNull(store, "store");
            return this;
        }

        /** The host's mob-event ledger; the runtime projects its structural events (see {@link UnifiedRuntime#mobEvents}). */
        public Builder mobEventSource(MobEventSource source) {
            this.mobEventSource = Objects.requireNonNull(source, "source");
            return this;
        }

        /**
         * Told of the start and the end of every call made through the runtime (see {@link ModuleCallListener}). Default:
         * none.
         */
        public Builder callListener(ModuleCallListener listener) {
            this.callListener = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /** Serves a configured module in the JVM, not by its process (host tests): see {@link InProcessModule}. */
        public Builder fakeModule(InProcessModule module) {
            Objects.requireNonNull(module, "module");
            inProcess.put(module.moduleId(), module);
            return this;
        }

        /**
         * Validates the configuration, starts the discovered modules and returns the running runtime.
         *
         * @throws ConfigException        when the configuration is invalid; nothing was started
         * @throws NormalizationException when an initial agent event is not an agent event
         */
        public UnifiedRuntime start() {
            return new UnifiedRuntime(RuntimeAssembly.start(new RuntimeSettings(config, options, agentEvents, clock,
                    executor, scheduler, inProcess, persistentState, eventLog, persistentMetadata, mobEventSource,
                    callListener)));
        }
    }
}
