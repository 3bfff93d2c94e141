package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.metaruntime.gateway.internal.manifest.Catalog;
import org.metaruntime.gateway.internal.manifest.PodManifest;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.rpc.RpcException;
import org.metaruntime.supervisor.internal.Failures;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running pods' resources, resource templates and prompts served as one set: lists cover every running
 * pod (prompts renamed {@code <pod><separator><prompt>}), reads and gets go to the pod that listed the URI or
 * prompt, or whose template matches the URI; a URI two pods list is served by the first in name order.
 * Blocking (run on the dispatcher's executor). Thread-safe.
 */
final class Surface {

    private static final Logger log = LoggerFactory.getLogger(Surface.class);
    private static final int MAX_PAGES = 100;

    private final Supplier<Catalog> catalog;
    private final PodBackend backend;
    private final Supplier<ObjectNode> status;
    private final Map<String, String> resourceOwners = new ConcurrentHashMap<>();
    private volatile List<Map.Entry<Pattern, String>> templateOwners = List.of();

    /** @param catalog the pods served now */
    Surface(Supplier<Catalog> catalog, PodBackend backend, Supplier<ObjectNode> status) {
        this.catalog = catalog;
        this.backend = backend;
        this.status = status;
    }

    CompletableFuture<JsonNode> listResources() {
        return listResources(Visibility.ALL);
    }

    /** The resources of the pods {@code visible} shows ({@code meta://status} when it shows the gateway's own tool). */
    CompletableFuture<JsonNode> listResources(Visibility visible) {
        return collect("resources/list", "resources").thenApply(listed -> resources(listed, visible));
    }

    private JsonNode resources(Map<String, JsonNode> listed, Visibility visible) {
        ArrayNode resources = JsonRpc.NODES.arrayNode();
        if (visible.status()) {
            resources.addObject().put("uri", StatusReport.URI).put("name", "status").put("title", "Gateway status")
                .put("description", "The state of every pod of this gateway").put("mimeType", "application/json");
        }
        Map<String, String> owners = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : listed.entrySet()) {
            for (JsonNode resource : entry.getValue()) {
                String uri = resource.path("uri").asText();
                String first = owners.putIfAbsent(uri, entry.getKey());
                if (first != null) {
                    log.warn("resource {} is listed by pods {} and {}: served by {}", uri, first, entry.getKey(), first);
                    continue;
                }
                if (visible.pod(entry.getKey())) {
                    resources.add(resource);
                }
            }
        }
        resourceOwners.putAll(owners);
        return JsonRpc.NODES.objectNode().set("resources", resources);
    }

    CompletableFuture<JsonNode> listTemplates() {
        return listTemplates(Visibility.ALL);
    }

    /** The resource templates of the pods {@code visible} shows. */
    CompletableFuture<JsonNode> listTemplates(Visibility visible) {
        return collect("resources/templates/list", "resourceTemplates").thenApply(listed -> templates(listed, visible));
    }

    private JsonNode templates(Map<String, JsonNode> listed, Visibility visible) {
        ArrayNode templates = JsonRpc.NODES.arrayNode();
        List<Map.Entry<Pattern, String>> owners = new ArrayList<>();
        for (Map.Entry<String, JsonNode> entry : listed.entrySet()) {
            for (JsonNode template : entry.getValue()) {
                owners.add(Map.entry(templatePattern(template.path("uriTemplate").asText()), entry.getKey()));
                if (visible.pod(entry.getKey())) {
                    templates.add(template);
                }
            }
        }
        templateOwners = List.copyOf(owners);
        return JsonRpc.NODES.objectNode().set("resourceTemplates", templates);
    }

    /** {@code resources/read}; a URI of a pod {@code visible} hides is answered as one no pod lists. */
    CompletableFuture<JsonNode> readResource(JsonNode params, Visibility visible) {
        String uri = params.path("uri").asText(null);
        if (uri == null) {
            throw new RpcException(JsonRpc.INVALID_PARAMS, "resources/read needs params.uri");
        }
        if (uri.equals(StatusReport.URI) && visible.status()) {
            ObjectNode result = JsonRpc.NODES.objectNode();
            result.putArray("contents").addObject().put("uri", uri).put("mimeType", "application/json")
                    .put("text", JsonRpc.write(status.get()));
            return CompletableFuture.completedFuture(result);
        }
        RpcException unknown = new RpcException(JsonRpc.INVALID_PARAMS,
                "unknown resource " + uri + ": no running pod lists it", JsonRpc.NODES.objectNode().put("uri", uri));
        CompletableFuture<Optional<String>> owner = ownerOf(uri).isPresent()
                ? CompletableFuture.completedFuture(ownerOf(uri))
                : listResources().thenCombine(listTemplates(), (resources, templates) -> ownerOf(uri));
        return owner.thenCompose(pod -> {
            if (pod.isEmpty() || !visible.pod(pod.get())) {
                throw unknown;
            }
            return forward(pod.get(), "resources/read", params, "resource " + uri);
        });
    }

    /** The prompts of the pods {@code visible} shows. */
    CompletableFuture<JsonNode> listPrompts(Visibility visible) {
        return collect("prompts/list", "prompts").thenApply(listed -> prompts(listed, visible));
    }

    private JsonNode prompts(Map<String, JsonNode> listed, Visibility visible) {
        ArrayNode prompts = JsonRpc.NODES.arrayNode();
        for (Map.Entry<String, JsonNode> entry : listed.entrySet()) {
            if (!visible.pod(entry.getKey())) {
                continue;
            }
            for (JsonNode prompt : entry.getValue()) {
                ObjectNode renamed = prompt.deepCopy();
                renamed.put("name", entry.getKey() + catalog.get().separator() + prompt.path("name").asText());
                prompts.add(renamed);
            }
        }
        return JsonRpc.NODES.objectNode().set("prompts", prompts);
    }

    /** {@code prompts/get}; a prompt of a pod {@code visible} hides is answered as one of no pod. */
    CompletableFuture<JsonNode> getPrompt(JsonNode params, Visibility visible) {
        String name = params.path("name").asText(null);
        if (name == null) {
            throw new RpcException(JsonRpc.INVALID_PARAMS, "prompts/get needs params.name");
        }
        Map.Entry<String, String> split = splitPrompt(name, visible);
        ObjectNode forwarded = params.deepCopy();
        forwarded.put("name", split.getValue());
        return forward(split.getKey(), "prompts/get", forwarded, "prompt " + split.getValue());
    }

    /** {@code completion/complete}; a prompt or template of a pod {@code visible} hides is answered as one of no pod. */
    CompletableFuture<JsonNode> complete(JsonNode params, Visibility visible) {
        JsonNode ref = params.path("ref");
        ObjectNode forwarded = params.deepCopy();
        String type = ref.path("type").asText();
        if ("ref/prompt".equals(type)) {
            Map.Entry<String, String> split = splitPrompt(ref.path("name").asText(), visible);
            ((ObjectNode) forwarded.get("ref")).put("name", split.getValue());
            return forward(split.getKey(), "completion/complete", forwarded, "prompt " + split.getValue());
        }
        if ("ref/resource".equals(type)) {
            String uri = ref.path("uri").asText();
            CompletableFuture<Optional<String>> owner = ownerOf(uri).isPresent()
                    ? CompletableFuture.completedFuture(ownerOf(uri))
                    : listTemplates().thenApply(templates -> ownerOf(uri));
            return owner.thenCompose(pod -> forward(pod.filter(visible::pod).orElseThrow(() -> new RpcException(
                    JsonRpc.INVALID_PARAMS, "unknown resource template " + uri)), "completion/complete", forwarded, "resource " + uri));
        }
        throw new RpcException(JsonRpc.INVALID_PARAMS, "completion/complete needs ref.type ref/prompt or ref/resource");
    }

    private Map.Entry<String, String> splitPrompt(String name, Visibility visible) {
        String best = null;
        for (PodManifest pod : catalog.get().pods()) {
            String prefix = pod.name() + catalog.get().separator();
            if (name.startsWith(prefix) && name.length() > prefix.length() && (best == null || pod.name().length() > best.length())) {
                best = pod.name();
            }
        }
        if (best == null || !visible.pod(best)) {
            throw new RpcException(JsonRpc.INVALID_PARAMS, "unknown prompt " + name + ": prompts are named <pod>"
                    + catalog.get().separator() + "<prompt>");
        }
        return Map.entry(best, name.substring(best.length() + catalog.get().separator().length()));
    }

    private Optional<String> ownerOf(String uri) {
        String pod = resourceOwners.get(uri);
        if (pod != null) {
            return Optional.of(pod);
        }
        for (Map.Entry<Pattern, String> template : templateOwners) {
            if (template.getKey().matcher(uri).matches()) {
                return Optional.of(template.getValue());
            }
        }
        return Optional.empty();
    }

    /**
     * Each running pod's items of {@code field}, every page, in pod name order. The pods are asked at once, so a list
     * waits for the slowest pod only; a pod that fails (or does not answer within its call timeout) gives the items
     * of the pages it answered before. Never fails.
     */
    private CompletableFuture<Map<String, JsonNode>> collect(String method, String field) {
        Map<String, CompletableFuture<ArrayNode>> asked = new LinkedHashMap<>();
        for (PodManifest manifest : catalog.get().pods()) {
            PodBackend.Pod pod = backend.pod(manifest.name());
            if (pod.running()) {
                asked.put(manifest.name(), pages(pod, method, field, manifest.callTimeout(), null, JsonRpc.NODES.arrayNode(), 0));
            }
        }
        return CompletableFuture.allOf(asked.values().toArray(CompletableFuture[]::new)).thenApply(all -> {
            Map<String, JsonNode> out = new LinkedHashMap<>();
            asked.forEach((pod, items) -> out.put(pod, items.join()));
            return out;
        });
    }

    /** Adds the items of page {@code page} (at {@code cursor}) and of every page after it to {@code items}. */
    private static CompletableFuture<ArrayNode> pages(PodBackend.Pod pod, String method, String field, Duration timeout,
                                                      String cursor, ArrayNode items, int page) {
        ObjectNode params = JsonRpc.NODES.objectNode();
        if (cursor != null) {
            params.put("cursor", cursor);
        }
        return Failures.attempt(() -> pod.request(method, params, timeout)).thenCompose(result -> {
            result.path(field).forEach(items::add);
            String next = result.path("nextCursor").asText(null);
            return next == null || page + 1 >= MAX_PAGES ? CompletableFuture.completedFuture(items)
                    : pages(pod, method, field, timeout, next, items, page + 1);
        }).exceptionally(failure -> {
            log.debug("pod {}: {} failed: {}", pod.name(), method, Failures.unwrap(failure).getMessage());
            return items;
        });
    }

    /** {@code method} sent to the pod {@code podName}; its result, or its failure as an {@link RpcException}. */
    CompletableFuture<JsonNode> forward(String podName, String method, JsonNode params, String what) {
        PodManifest manifest = catalog.get().pod(podName).orElseThrow(() -> new RpcException(JsonRpc.UNAVAILABLE,
                "pod " + podName + " " + what + ": the pod is not served any more", JsonRpc.NODES.objectNode().put("pod", podName)));
        return Failures.attempt(() -> backend.pod(podName).request(method, params, manifest.callTimeout()))
                .handle((result, failure) -> answered(result, failure, podName, what));
    }

    /** A forwarded request's {@code result}, or its {@code failure} as an {@link RpcException} naming the pod. */
    private static JsonNode answered(JsonNode result, Throwable failure, String podName, String what) {
        if (failure == null) {
            return result;
        }
        Throwable cause = Failures.unwrap(failure);
        if (cause instanceof PodBackend.PodFailure f && f.kind() == PodBackend.PodFailure.Kind.ERROR_ANSWER) {
            throw new RpcException(f.rpcCode(), "pod " + podName + " " + what + ": " + f.getMessage(),
                    f.errorData()).asPodAnswer();
        }
        int code = cause instanceof PodBackend.PodFailure f ? f.rpcCode() : JsonRpc.UNAVAILABLE;
        throw new RpcException(code, "pod " + podName + " " + what + ": " + cause.getMessage(),
                JsonRpc.NODES.objectNode().put("pod", podName));
    }

    /** An RFC 6570 template as a pattern: each expression matches one path segment, {+x} / {#x} anything. */
    static Pattern templatePattern(String template) {
        StringBuilder regex = new StringBuilder();
        Matcher m = Pattern.compile("\\{([^}]*)\\}").matcher(template);
        int last = 0;
        while (m.find()) {
            regex.append(Pattern.quote(template.substring(last, m.start())));
            String expression = m.group(1);
            regex.append(expression.startsWith("+") || expression.startsWith("#") ? ".*" : "[^/?#]*");
            last = m.end();
        }
        regex.append(Pattern.quote(template.substring(last)));
        return Pattern.compile(regex.toString());
    }
}
