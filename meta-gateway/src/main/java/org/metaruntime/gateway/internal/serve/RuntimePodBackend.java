package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import org.metaruntime.core.CallOptions;
import org.metaruntime.core.McpModule;
import org.metaruntime.core.MetaConfig;
import org.metaruntime.core.ModuleConfig;
import org.metaruntime.core.PreSpawnData;
import org.metaruntime.core.ProgressUpdate;
import org.metaruntime.core.RuntimeOptions;
import org.metaruntime.core.StartMode;
import org.metaruntime.core.UnifiedRuntime;
import org.metaruntime.events.Subscription;
import org.metaruntime.gateway.GatewayOptions;
import org.metaruntime.gateway.internal.manifest.Catalog;
import org.metaruntime.gateway.internal.manifest.PodManifest;
import org.metaruntime.gateway.internal.manifest.PodModuleMapping;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.mcp.McpClientOptions;
import org.metaruntime.mcp.McpClientRequestException;
import org.metaruntime.mcp.McpSurfaceRequest;
import org.metaruntime.mcp.McpToolCall;
import org.metaruntime.supervisor.InFlight;
import org.metaruntime.supervisor.ModuleHealthState;
import org.metaruntime.supervisor.ModuleSupervisorReport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.metaruntime.supervisor.internal.Failures;

/**
 * The pods as lazy MCP modules of one {@link UnifiedRuntime}: the runtime spawns, supervises, restarts and stops
 * them; each pod's one persistent session ({@link McpModule}) carries every call. Pods' sampling, elicitation and
 * roots requests are routed to the call they belong to ({@link PodRequests}). Thread-safe.
 */
final class RuntimePodBackend implements PodBackend {

    private static final Logger log = LoggerFactory.getLogger(RuntimePodBackend.class);

    private final Catalog catalog;
    private final UnifiedRuntime runtime;
    private final PodRequests requests = new PodRequests();
    private final Map<String, RuntimePod> pods = new LinkedHashMap<>();
    private final Executor executor;
    private final List<Subscription> subscriptions = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile PodListener listener;
    private volatile PodCallHandler podCalls;

    /**
     * @param credentials the gateway's own credentials (its bearer token): no pod inherits a variable holding one
     * @param withheld    the gateway's variables that remote pods' headers read: no pod inherits them
     * @param threads     the threads it shares with the other pods' backends (their owner releases them)
     */
    RuntimePodBackend(Catalog catalog, GatewayOptions options, java.util.Collection<String> credentials,
                      Set<String> withheld, PodThreads threads) {
        this.catalog = catalog;
        this.executor = threads.tasks();
        MetaConfig.Builder config = MetaConfig.builder();
        for (PodManifest pod : catalog.pods()) {
            ModuleConfig.Builder module = PodModuleMapping.module(pod).startMode(StartMode.LAZY);
            config.module(module.build()).preSpawn(PreSpawnData.mcp(pod.name()));
            pods.put(pod.name(), new RuntimePod(pod));
        }
        config.discover(catalog.pods().stream().map(PodManifest::name).toArray(String[]::new));
        McpClientOptions mcp = options.runtime().mcp().toBuilder()
                .samplingHandler((pod, params) -> requests.route(pod, "sampling/createMessage", params))
                .elicitationHandler((pod, params) -> requests.route(pod, "elicitation/create", params))
                .rootsHandler((pod, params) -> requests.route(pod, "roots/list", params))
                .requestHandler(NestedCalls.METHOD, this::podCall)
                .bareListener(this::foundBare)
                .perCallCapabilities(true)
                .build();
        RuntimeOptions runtimeOptions = options.runtime().toBuilder().mcp(mcp).coreModuleIds(Set.of())
                .process(PodEnvironment.processOptions(options.runtime().process(), System.getenv(), credentials,
                        withheld)).build();
        UnifiedRuntime.Builder builder = UnifiedRuntime.builder(config.build()).options(runtimeOptions)
                .executor(threads.io()).scheduler(threads.scheduler());
        options.eventLog().ifPresent(builder::eventLog);
        this.runtime = builder.start();
        subscriptions.add(runtime.subscribeHealth(transition -> {
            RuntimePod pod = pods.get(transition.moduleId());
            PodListener l = listener;
            if (pod == null) {
                return;
            }
            pod.healthy = transition.to() == ModuleHealthState.HEALTHY;
            pod.restarting = transition.to() == ModuleHealthState.RESTARTING;
            if (pod.healthy) {
                pod.startFailure = null;
            }
            if (l == null) {
                return;
            }
            l.stateChanged(pod.name());
            if (transition.to() == ModuleHealthState.HEALTHY) {
                pod.relist(l);
            }
        }));
    }

    /** A bare pod's declared tools as the MCP client takes them: each definition with its name. */

    /** The pod {@code name} did not answer {@code initialize} as an MCP server ({@code because}): it is served bare. */
    private void foundBare(String name, String because) {
        RuntimePod pod = pods.get(name);
        if (pod != null) {
            pod.foundBare(because);
        }
    }


    @Override
    public Pod pod(String name) {
        return pods.get(name);
    }

    @Override
    public void listen(PodListener listener) {
        this.listener = listener;
    }

    @Override
    public void servePodCalls(PodCallHandler handler) {
        this.podCalls = handler;
    }

    /** A pod's {@code __mcp_meta_call__}, on its stdout thread. */
    private CompletableFuture<JsonNode> podCall(String pod, JsonNode params) {
        PodCallHandler handler = podCalls;
        if (handler == null) {
            return CompletableFuture.failedFuture(new McpClientRequestException(JsonRpc.METHOD_NOT_FOUND,
                    "pod " + pod + ": " + NestedCalls.METHOD + " is not served here", null));
        }
        try {
            return PodRequests.answer(handler.call(pod, params, requests.outerCall(pod, params)));
        } catch (RuntimeException e) {
            return PodRequests.answer(CompletableFuture.failedFuture(e));
        }
    }

    @Override
    public void close() {
        subscriptions.forEach(Subscription::close);
        runtime.close();
    }

    private final class RuntimePod implements Pod {
        private final PodManifest manifest;
        private final AtomicBoolean tried = new AtomicBoolean();
        private final AtomicBoolean subscribed = new AtomicBoolean();
        private volatile List<ObjectNode> tools = List.of();
        /** Whether its last health transition was to Healthy (kept by the runtime's health stream). */
        volatile boolean healthy;
        /** Whether the runtime is restarting the pod after it ended (a call then meets it, it does not start it). */
        volatile boolean restarting;
        /** Why its last start failed, until it is up again; null when it did not. */
        volatile PodFailure startFailure;
        /** Whether it answered {@code initialize} as no MCP server does, so it is served as a bare JSON-RPC pod. */
        private final AtomicBoolean foundBare = new AtomicBoolean();
        /** Whether its process, when it last came up, advertised the tasks extension. */
        private volatile boolean offersTasks;
        private volatile String era;

        RuntimePod(PodManifest manifest) {
            this.manifest = manifest;
        }

        /** The pod's MCP surface; the first use subscribes to its notifications (a lazy pod is not started for that). */
        private McpModule module() {
            McpModule module = runtime.mcp(manifest.name());
            if (subscribed.compareAndSet(false, true)) {
                try {
                    subscriptions.add(module.subscribeNotifications(this::onNotification));
                } catch (RuntimeException e) {
                    subscribed.set(false);
                    throw e;
                }
            }
            return module;
        }

        @Override
        public String name() {
            return manifest.name();
        }

        void foundBare(String because) {
            if (foundBare.compareAndSet(false, true)) {
                log.info("pod {} does not answer initialize as an MCP server ({}): it is served as a bare JSON-RPC pod from"
                        + " its {} declared tool(s) and sent no notification (protocol: jsonrpc skips this check)",
                        name(), because, manifest.tools().size());
            }
        }

        @Override
        public boolean bare() {
            return manifest.isBare() || foundBare.get();
        }

        /** {@code error} of a start as the pod's failure to start, kept for the status report. */
        private PodFailure startFailed(Throwable error) {
            PodFailure failure = PodErrors.startFailed(manifest, error);
            if (failure.kind() == PodFailure.Kind.START_FAILED) {
                startFailure = failure;
            }
            return failure;
        }

        private ModuleSupervisorReport report() {
            return runtime.supervisorReport().get(manifest.name());
        }

        @Override
        public boolean running() {
            return healthy;
        }

        /**
         * Starts it without blocking this thread: the runtime starts a lazy pod off it, and the future completes on a
         * pod task thread once its tools are read, or fails with why it could not start.
         */
        @Override
        public CompletableFuture<Void> start() {
            tried.set(true);
            return refresh().handle((ok, error) -> {
                if (error != null) {
                    throw startFailed(error);
                }
                return null;
            });
        }

        /**
         * Reads its tools, era and capabilities from the runtime once it runs (a lazy pod is started for that, off this
         * thread); completes on a pod task thread, or fails (never throws).
         */
        private CompletableFuture<Void> refresh() {
            McpModule module;
            CompletableFuture<List<McpSchema.Tool>> listing;
            try {
                module = module();
                listing = module.toolsAsync();
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
            return listing.thenAcceptAsync(listed -> {
                tools = listed.stream().map(t -> (ObjectNode) JsonRpc.MAPPER.valueToTree(t)).toList();
                era = module.protocolVersion();
                McpSchema.ServerCapabilities capabilities = ModernPods.speaksModern(module) ? module.serverCapabilities() : null;
                offersTasks = capabilities != null && capabilities.extensions() != null
                        && capabilities.extensions().containsKey(TaskRequests.EXTENSION);
            }, executor);
        }

        /** {@link #refresh()} when it runs (a pod that does not run is not started for it); never fails. */
        CompletableFuture<Void> refreshIfRunning() {
            if (!running()) {
                return CompletableFuture.completedFuture(null);
            }
            return refresh().handle((ok, error) -> {
                if (error != null) {
                    log.debug("pod {}: reading its tools failed: {}", name(), error.toString());
                }
                return null;
            });
        }

        @Override
        public String era() {
            return bare() ? null : era;
        }

        @Override
        public boolean taskCapable() {
            return healthy && offersTasks && !bare();
        }

        /**
         * The tools it listed when they were last read (when it started or came up, and after it announced a change),
         * without asking the runtime on the caller's thread.
         */
        @Override
        public List<ObjectNode> liveTools() {
            return tools;
        }

        void onNotification(McpSchema.JSONRPCNotification notification) {
            PodListener l = listener;
            if (l == null) {
                return;
            }
            String method = notification.method();
            JsonNode params = notification.params() == null ? JsonRpc.NODES.objectNode() : JsonRpc.MAPPER.valueToTree(notification.params());
            switch (method) {
                case "notifications/message": {
                    PodBackend.CallContext call = requests.callOf(name(), params);
                    l.log(name(), params, call == null ? null : call.callId());
                    break;
                }
                case "notifications/tools/list_changed":
                    relist(l);
                    break;
                case "notifications/resources/list_changed":
                case "notifications/prompts/list_changed":
                    l.listChanged(name(), method);
                    break;
                default:
                    break;
            }
        }

        /**
         * Reads its tools again and then tells {@code l} they may have changed, on a pod task thread; no thread waits
         * meanwhile. After the pod's {@code notifications/tools/list_changed} the runtime's read completes once the
         * runtime has re-read the list ({@link McpModule#toolsAsync()}), so the list told is the changed one.
         */
        void relist(PodListener l) {
            refreshIfRunning().whenCompleteAsync((done, error) -> l.toolsChanged(name()), executor);
        }

        /**
         * Starts the call on the runtime's call path, which starts a lazy pod without blocking this thread. The call's
         * time, its {@code _meta} for a modern pod and its scope's deadline are set when it is sent to the started pod.
         */
        @Override
        public InFlight<JsonNode> call(String tool, JsonNode arguments, CallContext context) {
            tried.set(true);
            Runnable unregister = requests.register(name(), context);
            ObjectNode meta = JsonRpc.NODES.objectNode().put(PodRequests.CALL_KEY, context.callId());
            context.scope().chain().forEach(meta.putArray(NestedCalls.CHAIN_KEY)::add);
            if (context.scope().span() != null) {
                context.scope().span().stamp(meta);
            }
            boolean starting = !running() && !restarting;
            AtomicBoolean sent = new AtomicBoolean();
            AtomicBoolean noTimeLeft = new AtomicBoolean();
            AtomicBoolean cancelled = new AtomicBoolean();
            McpToolCall call;
            try {
                call = module().startCall(tool, arguments, module -> {
                    sent.set(true);
                    Duration timeout = context.scope().start(context.timeout());
                    if (timeout.isNegative() || timeout.isZero()) {
                        noTimeLeft.set(true);
                        throw new IllegalStateException("the calling call has no time left");
                    }
                    if (ModernPods.speaksModern(module)) {
                        meta.setAll(ModernPods.podMeta(context.modernMeta(), taskCapable()));
                    }
                    CallOptions.Builder options = CallOptions.builder().timeout(timeout).meta(meta);
                    if (context.onProgress() != null) {
                        options.onProgress(p -> context.onProgress().accept(progress(p)));
                    }
                    return options.build();
                });
            } catch (RuntimeException e) {
                unregister.run();
                context.scope().end();
                return InFlight.failed(starting ? startFailed(e) : PodErrors.map(e, false));
            }
            CompletableFuture<JsonNode> result = call.resultJson().handle((r, e) -> {
                if (e == null) {
                    return r;
                }
                if (noTimeLeft.get()) {
                    throw new PodFailure(PodFailure.Kind.TIMEOUT, "the calling call has no time left", OptionalInt.empty(), "");
                }
                if (!sent.get()) {
                    throw cancelled.get() ? new PodFailure(PodFailure.Kind.CANCELLED, "cancelled", OptionalInt.empty(), "")
                            : starting ? startFailed(e) : PodErrors.map(e, false);
                }
                throw PodErrors.map(PodErrors.asSent(e), false);
            });
            result.whenComplete((r, e) -> {
                unregister.run();
                context.scope().end();
            });
            McpToolCall started = call;
            return InFlight.of(result, () -> {
                cancelled.set(true);
                context.scope().end();
                started.cancel();
            }, call.finished());
        }

        private ObjectNode progress(ProgressUpdate update) {
            ObjectNode p = JsonRpc.NODES.objectNode().put("progress", update.progress());
            if (update.total() != null) {
                p.put("total", update.total());
            }
            if (update.message() != null) {
                p.put("message", update.message());
            }
            return p;
        }

        /** A request of the MCP surface or of the tasks extension goes to the pod without blocking. */
        @Override
        public CompletableFuture<JsonNode> request(String method, JsonNode params, Duration timeout) {
            return Failures.attempt(() -> send(method, params)).handle((r, e) -> {
                if (e != null) {
                    throw PodErrors.map(e, false);
                }
                return r;
            });
        }

        private CompletableFuture<JsonNode> send(String method, JsonNode params) {
            Optional<McpSurfaceRequest.Method> surface = McpSurfaceRequest.Method.of(method);
            if (bare()) {
                return CompletableFuture.completedFuture(bareSurface(method, surface));
            }
            if (surface.isPresent()) {
                return module().surfaceAsync(surface.get().fromWire(params));
            }
            if (TaskRequests.POD_METHODS.contains(method)) {
                return module().requestAsync(method, (ObjectNode) params);
            }
            throw new PodFailure(PodFailure.Kind.ERROR_ANSWER, "unknown method " + method, OptionalInt.empty(), "",
                    JsonRpc.METHOD_NOT_FOUND, null);
        }

        /** A bare JSON-RPC pod has tools only: its lists are empty and nothing else is sent to it. */
        private JsonNode bareSurface(String method, Optional<McpSurfaceRequest.Method> surface) {
            String field = surface.flatMap(McpSurfaceRequest.Method::listField).orElseThrow(() -> new PodFailure(
                    PodFailure.Kind.ERROR_ANSWER, "pod " + name() + " speaks bare JSON-RPC: it serves tools only, not "
                    + method, OptionalInt.empty(), "", JsonRpc.METHOD_NOT_FOUND, null));
            ObjectNode out = JsonRpc.NODES.objectNode();
            out.putArray(field);
            return out;
        }

        @Override
        public PodState state() {
            ModuleSupervisorReport report = report();
            PodFailure failed = startFailure;
            if (failed != null && (report == null || report.state() == ModuleHealthState.STOPPED)) {
                // a start that failed leaves no child: the pod is Failed, with why, until a start succeeds
                String tail = report == null || report.stderrTail().isEmpty() ? failed.stderrTail() : report.stderrTail();
                return new PodState("Failed", OptionalLong.empty(), report == null ? 0 : report.restarts(),
                        PodErrors.describe(failed), tail);
            }
            if (report == null || !tried.get()) {
                // a lazy pod's runtime lists it Stopped before its first start: for the gateway it is NotStarted
                return new PodState(tried.get() ? "Stopped" : "NotStarted", OptionalLong.empty(), 0, null, "");
            }
            String state = switch (report.state()) {
                case STARTING -> "Starting";
                case HEALTHY -> "Healthy";
                case FAILED -> "Failed";
                case RESTARTING -> "Restarting";
                case STOPPED -> "Stopped";
            };
            boolean reported = report.lastError() != null && !report.lastError().isEmpty();
            return new PodState(state, report.pid(), report.restarts(),
                    reported || failed == null ? report.lastError() : PodErrors.describe(failed),
                    report.stderrTail().isEmpty() && failed != null ? failed.stderrTail() : report.stderrTail());
        }
    }
}
