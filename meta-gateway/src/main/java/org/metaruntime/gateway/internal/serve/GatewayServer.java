package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.metaruntime.gateway.internal.manifest.Catalog;
import org.metaruntime.gateway.internal.manifest.PodManifest;
import org.metaruntime.gateway.internal.rpc.ClientSession;
import org.metaruntime.gateway.internal.rpc.Dispatcher;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.rpc.LogLevel;
import org.metaruntime.gateway.internal.rpc.RpcException;
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
    public static final List<String> PROTOCOL_VERSIONS = List.of("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");
    static final String VERSION = "0.1.0";

    private final PodSet backend;
    private final ToolTable table;
    private final PodStats stats = new PodStats();
    private final ToolCalls calls;
    private final Surface surface;
    private final Dispatcher dispatcher;
    private final ExecutorService executor;
    private final Set<ClientSession> sessions = ConcurrentHashMap.newKeySet();
    /** Held while the tool list is rebuilt and announced, and while it is read for an answer. */
    private final Object listing = new Object();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final CompletableFuture<Void> closedFuture = new CompletableFuture<>();
    private final AtomicInteger sessionIds = new AtomicInteger();
    private final Listener listener = new Listener();
    private volatile CompletableFuture<Void> listReady = CompletableFuture.completedFuture(null);

    public GatewayServer(Catalog catalog, PodSet pods) {
        this(catalog, pods, NestedCalls.DEFAULT_MAX_DEPTH);
    }

    /**
     * @param catalog      the pods served at first
     * @param pods         what runs them ({@link PodBackends#create})
     * @param maxCallDepth the most entries a pod-to-pod call chain may have (the client's call counts as one)
     */
    public GatewayServer(Catalog catalog, PodSet pods, int maxCallDepth) {
        this.backend = pods;
        this.table = new ToolTable(catalog, StatusReport.toolDefinition());
        this.calls = new ToolCalls(table, backend, stats, this::status);
        this.surface = new Surface(table::catalog, backend, this::status);
        AtomicInteger threads = new AtomicInteger();
        this.executor = new ThreadPoolExecutor(0, 256, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
            Thread t = new Thread(r, "meta-gateway-worker-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        }, new ThreadPoolExecutor.AbortPolicy());
        this.dispatcher = Dispatcher.builder(executor)
                .inline("initialize", this::initialize)
                .inline("ping", r -> CompletableFuture.completedFuture(JsonRpc.NODES.objectNode()))
                .inline("logging/setLevel", this::setLevel)
                .inline("tools/list", r -> listReady.thenApply(ready -> toolsList()))
                .inline("tools/call", r -> listReady.isDone() ? calls.call(r) : listReady.thenCompose(ready -> calls.call(r)))
                .offloaded("resources/list", r -> done(surface.listResources()))
                .offloaded("resources/templates/list", r -> done(surface.listTemplates()))
                .offloaded("resources/read", r -> done(surface.readResource(r.params())))
                .offloaded("prompts/list", r -> done(surface.listPrompts()))
                .offloaded("prompts/get", r -> done(surface.getPrompt(r.params())))
                .offloaded("completion/complete", r -> done(surface.complete(r.params())))
                .notification("notifications/cancelled", Dispatcher::cancelled)
                .notification("notifications/initialized", r -> { })
                .build();
        table.rebuild(name -> List.of());
        backend.listen(listener);
        backend.servePodCalls(new NestedCalls(table, backend, stats, calls, maxCallDepth));
    }

    /**
     * Starts the pods that start with the gateway (pre-warmed ones, and those without declared tools) in the
     * background. {@code tools/list} waits for the pods without declared tools (each bounded by its startup
     * timeout); a pod that fails to start is logged by name and the others keep serving.
     */
    public void start() {
        executor.execute(() -> calls.prepareValidators(table.routes()));
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
                            Throwable cause = error instanceof java.util.concurrent.CompletionException && error.getCause() != null
                                    ? error.getCause() : error;
                            log.warn("pod {} failed to start: {}", pod.name(), cause.getMessage());
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
        boolean surfaceChanged = java.util.stream.Stream.concat(changes.removed().stream(),
                changes.changed().stream().map(PodManifest::name)).anyMatch(name -> backend.pod(name).running());
        backend.apply(changes);
        rebuildTools(() -> table.rebuild(next, name -> backend.pod(name).liveTools()));
        log.info("manifests reloaded: {}", changes.summary());
        if (changes.isEmpty()) {
            return;
        }
        executor.execute(() -> calls.prepareValidators(table.routes()));
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

    /** A new client session writing to {@code outbound}. */
    public ClientSession openSession(org.metaruntime.gateway.internal.rpc.Outbound outbound) {
        ClientSession session = new ClientSession("s" + sessionIds.incrementAndGet(), outbound);
        sessions.add(session);
        return session;
    }

    /** Ends a client session (its calls in flight are cancelled). */
    public void closeSession(ClientSession session) {
        sessions.remove(session);
        session.close();
    }

    /** Tells {@code observer} of every finished tool call (metrics). */
    public void observeCalls(CallObserver observer) {
        stats.observe(observer);
    }

    /** The status report now. */
    public ObjectNode status() {
        return StatusReport.build(table.catalog(), backend, table, stats);
    }

    private static CompletableFuture<JsonNode> done(JsonNode result) {
        return CompletableFuture.completedFuture(result);
    }

    private CompletableFuture<JsonNode> initialize(Dispatcher.Request request) {
        JsonNode params = request.params();
        String asked = params.path("protocolVersion").asText("");
        String version = PROTOCOL_VERSIONS.contains(asked) ? asked : PROTOCOL_VERSIONS.get(0);
        request.session().initialized(params.path("capabilities"), version);
        ObjectNode result = JsonRpc.NODES.objectNode().put("protocolVersion", version);
        ObjectNode capabilities = result.putObject("capabilities");
        capabilities.putObject("tools").put("listChanged", true);
        capabilities.putObject("resources").put("listChanged", true).put("subscribe", false);
        capabilities.putObject("prompts").put("listChanged", true);
        capabilities.putObject("logging");
        capabilities.putObject("completions");
        result.putObject("serverInfo").put("name", "meta-gateway").put("title", "meta-runtime gateway").put("version", VERSION);
        Catalog catalog = table.catalog();
        result.put("instructions", "Tools of " + catalog.pods().size() + " pods, named <pod>" + catalog.separator()
                + "<tool>. " + table.statusName() + " and the resource " + StatusReport.URI + " report each pod's state.");
        return CompletableFuture.completedFuture(result);
    }

    private CompletableFuture<JsonNode> setLevel(Dispatcher.Request request) {
        String level = request.params().path("level").asText("");
        LogLevel parsed = LogLevel.of(level).orElseThrow(() -> new RpcException(JsonRpc.INVALID_PARAMS,
                "logging/setLevel: unknown level \"" + level + "\" (debug, info, notice, warning, error, critical, alert, emergency)"));
        request.session().logLevel(parsed);
        return CompletableFuture.completedFuture(JsonRpc.NODES.objectNode());
    }

    private JsonNode toolsList() {
        ObjectNode result = JsonRpc.NODES.objectNode();
        synchronized (listing) {
            result.set("tools", table.list());
        }
        return result;
    }

    /**
     * Rebuilds the tool table with {@code rebuild} and, when the list changed, tells every client, both under
     * {@link #listing}: an answer to {@code tools/list} that holds the new list never goes out before the
     * notification. Returns whether the list changed.
     */
    private boolean rebuildTools(java.util.function.BooleanSupplier rebuild) {
        synchronized (listing) {
            boolean changed = rebuild.getAsBoolean();
            if (changed) {
                broadcast("notifications/tools/list_changed", null);
            }
            return changed;
        }
    }

    private void broadcast(String method, JsonNode params) {
        for (ClientSession session : sessions) {
            session.notify(method, params);
        }
    }

    /** Stops every pod and ends every session. Idempotent; a concurrent caller waits until it is done. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            closedFuture.join();
            return;
        }
        try {
            sessions.forEach(ClientSession::close);
            sessions.clear();
            backend.close();
        } finally {
            executor.shutdownNow();
            closedFuture.complete(null);
        }
    }

    private final class Listener implements PodListener {
        @Override
        public void toolsChanged(String pod) {
            if (rebuildTools(() -> table.rebuild(name -> backend.pod(name).liveTools()))) {
                log.info("pod {}: the served tool list changed", pod);
            }
        }

        @Override
        public void listChanged(String pod, String notificationMethod) {
            broadcast(notificationMethod, null);
        }

        @Override
        public void log(String pod, JsonNode params) {
            LogLevel level = LogLevel.of(params.path("level").asText("info")).orElse(LogLevel.INFO);
            ObjectNode out = params.isObject() ? ((ObjectNode) params).deepCopy() : JsonRpc.NODES.objectNode();
            out.put("level", level.wire());
            out.put("logger", pod);
            for (ClientSession session : sessions) {
                if (level.compareTo(session.logLevel()) >= 0) {
                    session.notify("notifications/message", out);
                }
            }
        }

        @Override
        public void stateChanged(String pod) {
            log.debug("pod {}: state changed", pod);
        }
    }
}
