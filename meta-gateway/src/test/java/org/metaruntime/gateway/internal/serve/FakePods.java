package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.metaruntime.gateway.internal.manifest.Catalog;
import org.metaruntime.gateway.internal.manifest.DeclaredTool;
import org.metaruntime.gateway.internal.manifest.PodManifest;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.supervisor.InFlight;

/**
 * Pods that run no process: each answers {@code tools/call} with a function of the tool and its call context,
 * counts its starts and records every call it got. A pod's handler may make nested calls through
 * {@link #nested}. Thread-safe.
 */
final class FakePods {

    /** One call a pod got. */
    record Got(String pod, String tool, JsonNode arguments, PodBackend.CallContext context) {
    }

    final List<Got> calls = new CopyOnWriteArrayList<>();
    final Map<String, AtomicInteger> starts = new ConcurrentHashMap<>();
    /** The pods whose backend was closed, in order. */
    final List<String> closed = new CopyOnWriteArrayList<>();
    private final Map<String, BiFunction<Got, FakePods, CompletableFuture<JsonNode>>> handlers = new ConcurrentHashMap<>();
    private volatile PodBackend.PodCallHandler podCalls;
    private final PodRequests requests = new PodRequests();
    private volatile SurfaceAnswers surfaceAnswers = FakePods::defaultAnswer;

    /** A pod named {@code name} with {@code tags}, declaring {@code tools} (each {@code {"type":"object"}} unless given). */
    static PodManifest pod(String name, Set<String> tags, List<DeclaredTool> tools) {
        return new PodManifest(name, null, Path.of(name + ".yaml"), 1, List.of("true"), null, Path.of("."), Map.of(),
                Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(1), false, PodManifest.HealthCheck.DISABLED,
                tools, Map.of(), PodManifest.Protocol.MCP, null, Set.of(), null, tags, null);
    }

    /** A declared tool with {@code inputSchema}. */
    static DeclaredTool tool(String name, ObjectNode inputSchema) {
        ObjectNode definition = JsonRpc.NODES.objectNode().put("description", "tool " + name);
        definition.set("inputSchema", inputSchema == null ? JsonRpc.NODES.objectNode().put("type", "object") : inputSchema);
        return new DeclaredTool(name, 1, definition, null, "");
    }

    static Catalog catalog(PodManifest... pods) {
        return new Catalog(List.of(pods), List.of(), "__");
    }

    /** Answers calls of {@code pod} with {@code handler}. */
    void answer(String pod, BiFunction<Got, FakePods, CompletableFuture<JsonNode>> handler) {
        handlers.put(pod, handler);
    }

    /** A pod set of these fakes. */
    PodSet podSet(Catalog catalog) {
        return new PodSet(catalog.pods(), (manifest, threads, withheld) -> backend(manifest));
    }

    /** The backend that runs the fake pod {@code manifest}. */
    PodBackend backend(PodManifest manifest) {
        return new Backend(manifest.name(), pod -> manifest);
    }

    /** One backend running the fake of every pod of {@code catalog}. */
    PodBackend backend(Catalog catalog) {
        return new Backend("catalog", pod -> catalog.pod(pod).orElseThrow());
    }

    /** How the pods answer the requests of the MCP surface (resources, prompts, ...). */
    interface SurfaceAnswers {
        CompletableFuture<JsonNode> answer(String pod, String method, JsonNode params);
    }

    /** The pods answer the requests of the MCP surface with {@code answers} from now on. */
    void answerRequests(SurfaceAnswers answers) {
        surfaceAnswers = answers;
    }

    /** The default answers: one resource and one prompt per pod, a read naming the pod. */
    private static CompletableFuture<JsonNode> defaultAnswer(String pod, String method, JsonNode params) {
        ObjectNode result = JsonRpc.NODES.objectNode();
        switch (method) {
            case "resources/list" -> result.putArray("resources").addObject().put("uri", "pod://" + pod + "/r")
                    .put("name", "r");
            case "resources/read" -> result.putArray("contents").addObject().put("uri", params.path("uri").asText())
                    .put("text", "from " + pod);
            case "prompts/list" -> result.putArray("prompts").addObject().put("name", "p");
            case "prompts/get" -> result.putArray("messages");
            default -> { }
        }
        return CompletableFuture.completedFuture(result);
    }

    /** The pod {@code pod} sends {@code __mcp_meta_call__} with {@code params}, as its backend would. */
    CompletableFuture<JsonNode> nested(String pod, JsonNode params) {
        try {
            return podCalls.call(pod, params, requests.outerCall(pod, params));
        } catch (RuntimeException refused) {
            return CompletableFuture.failedFuture(refused);
        }
    }

    /** A text result. */
    static JsonNode text(String text) {
        ObjectNode result = JsonRpc.NODES.objectNode();
        result.putArray("content").addObject().put("type", "text").put("text", text);
        return result;
    }

    private final class Backend implements PodBackend {
        private final String name;
        private final Function<String, PodManifest> manifests;

        Backend(String name, Function<String, PodManifest> manifests) {
            this.name = name;
            this.manifests = manifests;
        }

        @Override
        public Pod pod(String pod) {
            return new FakePod(manifests.apply(pod));
        }

        @Override
        public void listen(PodListener listener) {
        }

        @Override
        public void servePodCalls(PodCallHandler handler) {
            podCalls = handler;
        }

        @Override
        public void close() {
            closed.add(name);
        }
    }

    private final class FakePod implements PodBackend.Pod {
        private final PodManifest manifest;

        FakePod(PodManifest manifest) {
            this.manifest = manifest;
        }

        @Override
        public String name() {
            return manifest.name();
        }

        @Override
        public boolean running() {
            return starts.containsKey(name());
        }

        @Override
        public CompletableFuture<Void> start() {
            starts.computeIfAbsent(name(), n -> new AtomicInteger()).incrementAndGet();
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public List<ObjectNode> liveTools() {
            return new ArrayList<>();
        }

        @Override
        public InFlight<JsonNode> call(String tool, JsonNode arguments, PodBackend.CallContext context) {
            starts.computeIfAbsent(name(), n -> new AtomicInteger()).incrementAndGet();
            Got got = new Got(name(), tool, arguments, context);
            calls.add(got);
            Runnable unregister = requests.register(name(), context);
            BiFunction<Got, FakePods, CompletableFuture<JsonNode>> handler = handlers.getOrDefault(name(),
                    (g, pods) -> CompletableFuture.completedFuture(text(g.tool() + " done")));
            CompletableFuture<JsonNode> result = handler.apply(got, FakePods.this);
            result.whenComplete((r, e) -> {
                unregister.run();
                context.scope().end();
            });
            return new InFlight<JsonNode>() {
                @Override
                public CompletableFuture<JsonNode> result() {
                    return result;
                }

                @Override
                public void cancel() {
                    result.completeExceptionally(new PodBackend.PodFailure(PodBackend.PodFailure.Kind.CANCELLED, "cancelled",
                            java.util.OptionalInt.empty(), ""));
                }
            };
        }

        @Override
        public CompletableFuture<JsonNode> request(String method, JsonNode params, Duration timeout) {
            return surfaceAnswers.answer(name(), method, params);
        }

        @Override
        public PodBackend.PodState state() {
            return new PodBackend.PodState(running() ? "Running" : "NotStarted", OptionalLong.empty(), 0, null, "");
        }
    }
}
