package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.metaruntime.gateway.internal.manifest.Catalog;
import org.metaruntime.gateway.internal.manifest.PodManifest;
import org.metaruntime.gateway.internal.pin.DefinitionPins;
import org.metaruntime.gateway.internal.pin.PinLog;
import org.metaruntime.gateway.internal.pipeline.Access;
import org.metaruntime.gateway.internal.pipeline.CallRecorder;
import org.metaruntime.gateway.internal.pipeline.RateLimiter;
import org.metaruntime.gateway.internal.rpc.ClientSession;
import org.metaruntime.gateway.internal.rpc.Dispatcher;
import org.metaruntime.gateway.internal.rpc.Eras;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.rpc.LogLevel;
import org.metaruntime.gateway.internal.rpc.Outbound;
import org.metaruntime.gateway.internal.rpc.Principals;
import org.metaruntime.gateway.internal.rpc.RpcException;
import org.metaruntime.gateway.spi.CallListener;
import org.metaruntime.gateway.spi.Principal;
import org.metaruntime.supervisor.internal.DaemonThreads;
import org.metaruntime.supervisor.internal.Failures;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's MCP server, independent of transport: the methods it answers, its client sessions, and what it
 * passes on from the pods (tool list changes, log lines). A transport opens a {@link ClientSession} per client
 * and feeds it to {@link #dispatcher()}. Thread-safe.
 */
public final class GatewayServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(GatewayServer.class);

    /** The protocol revisions the gateway speaks, newest first. */
    public static final List<String> PROTOCOL_VERSIONS = Eras.LEGACY;
    /** How long a modern client may keep a tools/list answer when no pod's tools can change while the gateway runs. */
    static final long DECLARED_TOOLS_TTL_MS = 300_000;

    private final PodSet backend;
    private final DefinitionPins pins;
    private final ToolTable table;
    private final PodStats stats = new PodStats();
    private final ToolCalls calls;
    private final CallPipeline pipeline;
    private final ValidateArguments validation = new ValidateArguments();
    private final CallRecorder recorder;
    private final Access access;
    private final ParkedCalls parked;
    private final Surface surface;
    private final Dispatcher dispatcher;
    private final LongSupplier nanoClock;
    private final ExecutorService executor;
    private final Set<ClientSession> sessions = ConcurrentHashMap.newKeySet();
    /** Held while the tool list is rebuilt and announced, and while it is read for an answer. */
    private final Object listing = new Object();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final CompletableFuture<Void> closedFuture = new CompletableFuture<>();
    private final AtomicInteger sessionIds = new AtomicInteger();
    private final Listener listener = new Listener();
    private final ListenStreams listens = new ListenStreams();
    /** The pods seen running, to tell listen streams when the merged resource and prompt lists change. */
    private final Set<String> running = ConcurrentHashMap.newKeySet();
    private final ClusterHooks cluster;
    private volatile CompletableFuture<Void> listReady = CompletableFuture.completedFuture(null);

    /**
     * @param catalog      the pods served at first
     * @param pods         what runs them ({@link PodBackends#create})
     * @param maxCallDepth the most entries a pod-to-pod call chain may have (the client's call counts as one)
     * @param settings     the policy, tracer, pins and listeners every call passes
     */
    public GatewayServer(Catalog catalog, PodSet pods, int maxCallDepth, CallSettings settings) {
        this(catalog, pods, maxCallDepth, settings, new DefinitionPins(new PinLog(null, Clock.systemUTC())));
    }

    /**
     * @param catalog      the pods served at first
     * @param pods         what runs them ({@link PodBackends#create})
     * @param maxCallDepth the most entries a pod-to-pod call chain may have (the client's call counts as one)
     * @param settings     the policy, tracer, pins and listeners every call passes
     * @param pins         the tools' pins, compared with each tool list a pod gives: a blocked drift leaves
     *                     {@code tools/list}, and every drift shows in the status (a gateway's {@code settings} check
     *                     calls against the same pins)
     */
    public GatewayServer(Catalog catalog, PodSet pods, int maxCallDepth, CallSettings settings, DefinitionPins pins) {
        this.pins = pins;
        this.backend = pods;
        this.access = settings.access();
        this.nanoClock = settings.nanoClock();
        this.table = new ToolTable(catalog, StatusReport.toolDefinition(), pins::blocked);
        this.parked = new ParkedCalls(new RequestStates(new SecureRandom(), Clock.systemUTC()),
                new EarliestFirstScheduler(pods.scheduler(), System::nanoTime));
        this.calls = new ToolCalls(table, backend, parked, settings.nanoClock());
        this.recorder = new CallRecorder(settings.listeners());
        this.pipeline = new CallPipeline(List.of(new ResolveProfile(access), new ResolveTool(table), new Authorize(access, table),
                new LimitRate(new RateLimiter(access, settings.nanoClock())),
                validation, new CheckCall(maxCallDepth, settings.definitions())),
                calls, new NestedCalls(table, backend, settings.nanoClock()), this::status, settings.tracer(),
                new RecordCall(stats, recorder, settings.auditArguments(), settings.nanoClock()), access, settings.nanoClock());
        this.surface = new Surface(table::catalog, backend, this::status);
        this.executor = new ThreadPoolExecutor(0, 256, 30, TimeUnit.SECONDS, new SynchronousQueue<>(),
                DaemonThreads.numbered("meta-gateway-worker-"), new ThreadPoolExecutor.AbortPolicy());
        this.cluster = new ClusterHooks(parked.states(), table, backend, surface);
        this.dispatcher = Dispatcher.builder()
                .nanoClock(nanoClock)
                .inline("initialize", this::initialize)
                .inline("ping", r -> CompletableFuture.completedFuture(JsonRpc.NODES.objectNode()))
                .inline("logging/setLevel", this::setLevel)
                .inline("tools/list", r -> listReady.thenApply(ready -> toolsList(r)))
                .inline("tools/call", r -> listReady.isDone() ? pipeline.client(r) : listReady.thenCompose(ready -> pipeline.client(r)))
                .inline("resources/list", r -> surface.listResources(visible(r)))
                .inline("resources/templates/list", r -> surface.listTemplates(visible(r)))
                .inline("resources/read", r -> surface.readResource(r.params(), visible(r)))
                .inline("prompts/list", r -> surface.listPrompts(visible(r)))
                .inline("prompts/get", r -> surface.getPrompt(r.params(), visible(r)))
                .inline("completion/complete", r -> surface.complete(r.params(), visible(r)))
                .modern("server/discover", r -> done(EraAnswers.cached(r,
                        EraAnswers.discovered(cluster.offersTasks(), instructions()), 0)))
                .modern("tools/list", r -> listReady.thenApply(ready -> EraAnswers.cached(r, toolsList(r), toolsTtlMs())))
                .modern("tools/call", r -> cluster.answer(r, listReady.isDone() ? pipeline.client(r)
                        : listReady.thenCompose(ready -> pipeline.client(r))))
                .modern("resources/list", r -> surface.listResources(visible(r)).thenApply(l -> EraAnswers.cached(r, l, 0)))
                .modern("resources/templates/list",
                        r -> surface.listTemplates(visible(r)).thenApply(l -> EraAnswers.cached(r, l, 0)))
                .modern("resources/read",
                        r -> surface.readResource(r.params(), visible(r)).thenApply(read -> EraAnswers.cached(read, 0, "private")))
                .modern("prompts/list", r -> surface.listPrompts(visible(r)).thenApply(l -> EraAnswers.cached(r, l, 0)))
                .modern("prompts/get", r -> surface.getPrompt(r.params(), visible(r)))
                .modern("completion/complete", r -> surface.complete(r.params(), visible(r)))
                .modern("subscriptions/listen", listens::listen)
                .modern("tasks/get", cluster::task)
                .modern("tasks/update", cluster::task)
                .modern("tasks/cancel", cluster::task)
                .notification("notifications/cancelled", Dispatcher::cancelled)
                .notification("notifications/initialized", r -> { })
                .modernResults(EraAnswers::modernResult, EraAnswers::modernError)
                .build();
        table.rebuild(name -> List.of());
        backend.listen(listener);
        backend.servePodCalls(pipeline);
    }

    /**
     * Starts the pods that start with the gateway (pre-warmed ones, and those without declared tools) in the
     * background. {@code tools/list} waits for the pods without declared tools (each bounded by its startup
     * timeout); a pod that fails to start is logged by name and the others keep serving.
     */
    public void start() {
        executor.execute(() -> validation.prepare(table.routes()));
        listReady = startPods(table.catalog().pods());
    }

    /**
     * Starts those of {@code pods} that start with the gateway, in the background; the future completes when those
     * without declared tools are up or failed.
     */
    private CompletableFuture<Void> startPods(List<PodManifest> pods) {
        List<CompletableFuture<Void>> undeclared = new ArrayList<>();
        for (PodManifest pod : pods) {
            if (!pod.spawnAtStart()) {
                continue;
            }
            CompletableFuture<Void> started = backend.pod(pod.name()).start()
                    .orTimeout(pod.startupTimeout().toMillis() + 5000, TimeUnit.MILLISECONDS)
                    .handle((ok, error) -> {
                        if (error != null) {
                            log.warn("pod {} failed to start: {}", pod.name(), Failures.unwrap(error).getMessage());
                        } else {
                            log.info("pod {} started", pod.name());
                        }
                        listener.toolsChanged(pod.name());
                        return null;
                    });
            if (!pod.declaresTools()) {
                undeclared.add(started);
            }
        }
        return CompletableFuture.allOf(undeclared.toArray(CompletableFuture[]::new));
    }

    /**
     * Serves the pods of {@code next} from now on, keeping every client session: the pods it adds are served (and
     * started when they start with the gateway), those it removes take no new call and stop once their calls in
     * flight end, and those it changes (anything but where their manifest is written) stop the same way while their
     * new run serves the new calls. Clients get {@code notifications/tools/list_changed} when the tool list changed,
     * and the resource and prompt list changes when a running pod was removed or changed. Calls are serialised.
     *
     * @throws IllegalStateException when the server is closed
     */
    public synchronized void reload(Catalog next) {
        if (closed.get()) {
            throw new IllegalStateException("the gateway is closed");
        }
        PodChanges changes = PodChanges.between(table.catalog(), next);
        boolean surfaceChanged = Stream.concat(changes.removed().stream(),
                changes.changed().stream().map(PodManifest::name)).anyMatch(name -> backend.pod(name).running());
        backend.apply(changes);
        rebuildTools(() -> table.rebuild(next, name -> backend.pod(name).liveTools()));
        log.info("manifests reloaded: {}", changes.summary());
        if (changes.isEmpty()) {
            return;
        }
        executor.execute(() -> validation.prepare(table.routes()));
        startPods(changes.started());
        if (surfaceChanged) {
            broadcast("notifications/resources/list_changed", null);
            broadcast("notifications/prompts/list_changed", null);
        }
    }

    /** The dispatcher every transport feeds. */
    public Dispatcher dispatcher() {
        return dispatcher;
    }

    /**
     * The monotonic clock, in nanoseconds, of every request's path ({@link CallSettings#nanoClock()}): its calls'
     * durations and deadlines, the dispatcher's timings, the HTTP sessions' idle and quiet times.
     */
    public LongSupplier nanoClock() {
        return nanoClock;
    }

    /** A new session of the one local client (stdio) writing to {@code outbound}. */
    public ClientSession openSession(Outbound outbound) {
        return openSession(outbound, Principals.LOCAL, null);
    }

    /** Opens a client session whose requests come from {@code caller}, serving the HTTP session {@code httpSessionId}. */
    public ClientSession openSession(Outbound outbound, Principal caller, String httpSessionId) {
        ClientSession session = new ClientSession("s" + sessionIds.incrementAndGet(), outbound, false, caller,
                httpSessionId);
        sessions.add(session);
        return session;
    }

    /**
     * Makes this server replica {@code replica} of a cluster: its {@code requestState}s are sealed under
     * {@code stateKey} (derived from the cluster key, the same on every replica) and name it as their owner.
     */
    public void joinCluster(String replica, byte[] stateKey) {
        cluster.joinCluster(replica, stateKey);
    }

    /** The replica owning the call of {@code requestState}, when it is an intact state of this cluster. */
    public Optional<String> requestStateOwner(JsonNode requestState) {
        return cluster.requestStateOwner(requestState);
    }

    /** Ends a client session (its calls in flight are cancelled). */
    public void closeSession(ClientSession session) {
        sessions.remove(session);
        session.close();
    }

    /** Whether {@code outwardName} names a tool the gateway serves now (its own status tool included). */
    public boolean servesTool(String outwardName) {
        return table.statusName().equals(outwardName) || table.route(outwardName).isPresent();
    }

    /** The input schema of the served tool {@code outwardName}, empty when it is not served or has none. */
    public Optional<JsonNode> toolInputSchema(String outwardName) {
        return table.route(outwardName).map(route -> route.definition().get("inputSchema"));
    }

    /** Tells {@code observer} of every finished tool call (metrics). */
    public void observeCalls(CallObserver observer) {
        stats.observe(observer);
    }

    /** How many calls of 2026-07-28 clients wait for their client's input now (answered {@code input_required}). */
    public int callsAwaitingInput() {
        return parked.size();
    }

    /** What it serves, as each principal may see it (the operator console). */
    public ServedView view() {
        return new ServedView(table, backend, stats, access, pins);
    }

    /** The status report now. */
    public ObjectNode status() {
        return StatusReport.build(table.catalog(), backend, table, stats, pins);
    }

    /**
     * The definition hash of {@code pod}'s tool {@code tool} as the status shows it, which {@code expect.definition_hash}
     * must equal; null when unknown.
     */
    public String definitionHash(String pod, String tool) {
        return table.catalog().pod(pod).map(manifest -> pins.definitionHash(manifest, tool)).orElse(null);
    }

    private static CompletableFuture<JsonNode> done(JsonNode result) {
        return CompletableFuture.completedFuture(result);
    }

    private CompletableFuture<JsonNode> initialize(Dispatcher.Request request) {
        JsonNode params = request.params();
        String asked = params.path("protocolVersion").asText("");
        String version = PROTOCOL_VERSIONS.contains(asked) ? asked : PROTOCOL_VERSIONS.get(0);
        request.session().initialized(params.path("capabilities"), version, params.get("clientInfo"));
        return CompletableFuture.completedFuture(EraAnswers.initialized(version, instructions()));
    }

    private String instructions() {
        Catalog catalog = table.catalog();
        return "Tools of " + catalog.pods().size() + " pods, named <pod>" + catalog.separator()
                + "<tool>. " + table.statusName() + " and the resource " + StatusReport.URI + " report each pod's state.";
    }

    /** The time a modern client may keep the tool list: long when every pod declares its tools (the list cannot change). */
    private long toolsTtlMs() {
        return table.catalog().pods().stream().allMatch(PodManifest::declaresTools) ? DECLARED_TOOLS_TTL_MS : 0;
    }

    /**
     * Answers a modern client's long {@code tools/call} with a task handle when it declared the tasks extension and
     * the call is not answered within the delay of {@code tasks} (their state goes to its store).
     */
    public void offerTasks(GatewayTasks tasks) {
        cluster.offerTasks(tasks);
    }

    private CompletableFuture<JsonNode> setLevel(Dispatcher.Request request) {
        String level = request.params().path("level").asText("");
        LogLevel parsed = LogLevel.of(level).orElseThrow(() -> new RpcException(JsonRpc.INVALID_PARAMS,
                "logging/setLevel: unknown level \"" + level + "\" (debug, info, notice, warning, error, critical, alert, emergency)"));
        request.session().logLevel(parsed);
        return CompletableFuture.completedFuture(JsonRpc.NODES.objectNode());
    }

    /** The tools the request's principal may call, by outward name (the list is kept sorted by code point). */
    private JsonNode toolsList(Dispatcher.Request request) {
        ObjectNode result = JsonRpc.NODES.objectNode();
        com.fasterxml.jackson.databind.node.ArrayNode all;
        synchronized (listing) {
            all = table.list();
        }
        if (access.allowsEverything()) {
            result.set("tools", all);
            return result;
        }
        List<String> profiles = access.profilesOf(request.session().caller());
        com.fasterxml.jackson.databind.node.ArrayNode allowed = result.putArray("tools");
        for (JsonNode tool : all) {
            table.route(tool.path("name").asText()).ifPresent(route -> {
                if (access.allowing(profiles, route.outward(), Authorize.tagsOf(table, route.pod())).isPresent()) {
                    allowed.add(tool);
                }
            });
        }
        return result;
    }

    /** Starts the pod {@code name} now (a pre-warm). */
    CompletableFuture<Void> podStart(String name) {
        return backend.pod(name).start();
    }

    /** What the request's principal sees of the pods' resources and prompts. */
    private Visibility visible(Dispatcher.Request request) {
        return Visibility.of(request.session().caller(), access, table);
    }

    /** Whether {@code principal} may read the gateway's metrics and events: it has {@code all} or an admin profile. */
    public boolean admin(Principal principal) {
        return access.admin(principal);
    }

    /** Adds a listener of every answered call (client and nested). */
    public void addCallListener(CallListener listener) {
        recorder.add(listener);
    }

    /**
     * Rebuilds the tool table with {@code rebuild} and, when the list changed, tells every client, both under
     * {@link #listing}: an answer to {@code tools/list} that holds the new list never goes out before the
     * notification. Returns whether the list changed.
     */
    private boolean rebuildTools(BooleanSupplier rebuild) {
        synchronized (listing) {
            boolean changed = rebuild.getAsBoolean();
            if (changed) {
                broadcast("notifications/tools/list_changed", null);
            }
            return changed;
        }
    }

    /** Sends a notification to every legacy session (a client that has not initialized gets none). */
    private void broadcast(String method, JsonNode params) {
        for (ClientSession session : sessions) {
            if (session.legacyOpen()) {
                session.notify(method, params);
            }
        }
        listens.changed(method);
    }

    /** Ends every modern client's listen stream with its result (the gateway stops serving). */
    public void endListenStreams() {
        listens.endAll();
    }

    /** Stops every pod and ends every session. Idempotent; a concurrent caller waits until it is done. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            closedFuture.join();
            return;
        }
        try {
            listens.endAll();
            parked.close();
            cluster.close();
            sessions.forEach(ClientSession::close);
            sessions.clear();
            backend.close();
            recorder.close();
        } finally {
            executor.shutdownNow();
            closedFuture.complete(null);
        }
    }

    private final class Listener implements PodListener {
        @Override
        public void toolsChanged(String pod) {
            PodBackend.Pod served = backend.pod(pod);
            Optional<PodManifest> manifest = table.catalog().pod(pod);
            if (served != null && manifest.isPresent() && served.running() && !served.bare()) {
                pins.observe(manifest.get(), served.liveTools());
            }
            if (rebuildTools(() -> table.rebuild(name -> backend.pod(name).liveTools()))) {
                log.info("pod {}: the served tool list changed", pod);
            }
        }

        @Override
        public void listChanged(String pod, String notificationMethod) {
            broadcast(notificationMethod, null);
        }

        @Override
        public void log(String pod, JsonNode params, String callId) {
            LogLevel level = LogLevel.of(params.path("level").asText("info")).orElse(LogLevel.INFO);
            ObjectNode out = params.isObject() ? ((ObjectNode) params).deepCopy() : JsonRpc.NODES.objectNode();
            out.put("level", level.wire());
            out.put("logger", pod);
            calls.logToCall(callId, level, out);
            for (ClientSession session : sessions) {
                if (session.legacyOpen() && level.compareTo(session.logLevel()) >= 0) {
                    session.notify("notifications/message", out);
                }
            }
        }

        @Override
        public void stateChanged(String pod) {
            log.debug("pod {}: state changed", pod);
            PodBackend.Pod served = backend.pod(pod);
            boolean now = served != null && served.running();
            if (now ? running.add(pod) : running.remove(pod)) {
                listens.changed("notifications/resources/list_changed");
                listens.changed("notifications/prompts/list_changed");
            }
        }
    }
}
