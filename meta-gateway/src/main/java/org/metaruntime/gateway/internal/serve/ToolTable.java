package org.metaruntime.gateway.internal.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiPredicate;
import java.util.function.Function;
import org.metaruntime.gateway.internal.manifest.Catalog;
import org.metaruntime.gateway.internal.contract.CanonicalJson;
import org.metaruntime.gateway.internal.manifest.DeclaredTool;
import org.metaruntime.gateway.internal.manifest.Names;
import org.metaruntime.gateway.internal.manifest.PodManifest;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tools the gateway serves, by outward name: each pod's declared tools, or for a pod that declares none,
 * the tools it lists live (those its tool filter lets through, whose outward name clients accept and that collide
 * with nothing), and the catalog of pods they come from. Rebuilt as a whole when a pod's live list changes or the
 * manifests are reloaded. Thread-safe (an immutable snapshot behind a volatile).
 */
final class ToolTable {

    private static final Logger log = LoggerFactory.getLogger(ToolTable.class);

    /** One served tool; {@code contract} is null when it declares none. */
    record Route(String outward, String pod, String tool, ObjectNode definition, String schemaHash, JsonNode inputSchema,
                 Map<String, Object> inputSchemaMap, boolean declared, DeclaredTool.Contract contract) {

        /** Its name on call chains: {@code pod.tool}. */
        String chainName() {
            return pod + "." + tool;
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(JsonNode schema) {
        return schema == null ? null : JsonRpc.MAPPER.convertValue(schema, Map.class);
    }

    /** What is served: the catalog (which pods there are), the routes by name, and the {@code tools/list} array. */
    private record Served(Catalog catalog, Map<String, Route> routes, ArrayNode listed) {
    }

    private final ObjectNode statusTool;
    private final String statusName;
    private final BiPredicate<String, String> blocked;
    private final Route statusRoute;
    private volatile Served served;

    ToolTable(Catalog catalog, ObjectNode statusTool) {
        this(catalog, statusTool, (pod, tool) -> false);
    }

    /**
     * @param blocked whether a pod's tool (by the pod's own name) is left out of {@code tools/list}: its definition
     *                drifted from its pin (it keeps its route, so that a call to it is answered by the definition check)
     */
    ToolTable(Catalog catalog, ObjectNode statusTool, BiPredicate<String, String> blocked) {
        this.blocked = blocked;
        this.statusTool = statusTool;
        this.statusName = Names.outward(Names.RESERVED_POD, catalog.separator(), Catalog.STATUS_TOOL);
        ObjectNode definition = statusTool.deepCopy().put("name", statusName);
        this.statusRoute = new Route(statusName, Names.RESERVED_POD, Catalog.STATUS_TOOL, definition, "", null, null, true, null);
        this.served = new Served(catalog, Map.of(), JsonRpc.NODES.arrayNode());
    }

    /** The pods served now: {@code catalog().pod(name)} is the manifest of the pod {@code name} served now. */
    Catalog catalog() {
        return served.catalog();
    }

    String statusName() {
        return statusName;
    }

    /** Rebuilds from the pods' live lists; true when what is served changed. */
    synchronized boolean rebuild(Function<String, List<ObjectNode>> liveTools) {
        return rebuild(served.catalog(), liveTools);
    }

    /** Serves the pods of {@code catalog} from now on, with the live lists of those that declare no tools; true when the list changed. */
    synchronized boolean rebuild(Catalog catalog, Function<String, List<ObjectNode>> liveTools) {
        Map<String, Route> next = new LinkedHashMap<>();
        ArrayNode list = JsonRpc.NODES.arrayNode();
        ObjectNode status = statusTool.deepCopy().put("name", statusName());
        list.add(status);
        for (PodManifest pod : catalog.pods()) {
            if (pod.declaresTools()) {
                for (DeclaredTool tool : pod.tools()) {
                    String outward = Names.outward(pod.name(), catalog.separator(), tool.name());
                    ObjectNode definition = JsonRpc.NODES.objectNode().put("name", outward);
                    definition.setAll(tool.definition());
                    next.put(outward, new Route(outward, pod.name(), tool.name(), definition, tool.schemaHash(),
                            definition.get("inputSchema"), asMap(definition.get("inputSchema")), true, tool.contract()));
                    if (!blocked.test(pod.name(), tool.name())) {
                        list.add(definition);
                    }
                }
                continue;
            }
            for (ObjectNode live : liveTools.apply(pod.name())) {
                String name = live.path("name").asText("");
                if (!pod.toolFilter().serves(name)) {
                    log.debug("pod {}: tool \"{}\" is not served (includeTools / excludeTools)", pod.name(), name);
                    continue;
                }
                String outward = Names.outward(pod.name(), catalog.separator(), name);
                if (!Names.clientSafe(outward)) {
                    log.warn("pod {}: tool \"{}\" is not served: its outward name {} is not accepted by clients ({})",
                            pod.name(), name, outward, Names.rule());
                    continue;
                }
                if (next.containsKey(outward) || outward.equals(statusName())) {
                    log.warn("pod {}: tool \"{}\" is not served: outward name {} is already taken", pod.name(), name, outward);
                    continue;
                }
                ObjectNode definition = live.deepCopy().put("name", outward);
                JsonNode input = live.get("inputSchema");
                next.put(outward, new Route(outward, pod.name(), name, definition,
                        input == null ? "" : hash(pod.name(), name, input), null, null, false, null));
                if (!blocked.test(pod.name(), name)) {
                    list.add(definition);
                }
            }
        }
        list = sortedByName(list);
        boolean changed = !list.equals(served.listed());
        served = new Served(catalog, java.util.Collections.unmodifiableMap(next), list);
        return changed;
    }

    /** {@code list} sorted by {@code name}, by Unicode code point. */
    private static ArrayNode sortedByName(ArrayNode list) {
        List<JsonNode> tools = new java.util.ArrayList<>();
        list.forEach(tools::add);
        tools.sort((a, b) -> compareCodePoints(a.path("name").asText(), b.path("name").asText()));
        ArrayNode out = JsonRpc.NODES.arrayNode();
        tools.forEach(out::add);
        return out;
    }

    /** Compares by Unicode code point (not by UTF-16 unit). */
    static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    /** The route of the outward name {@code outward}, the gateway's own tool included. */
    Optional<Route> route(String outward) {
        if (outward.equals(statusName)) {
            return Optional.of(statusRoute);
        }
        return Optional.ofNullable(served.routes().get(outward));
    }

    /** The route of {@code tool} of {@code pod} (the pod's own name of the tool). */
    Optional<Route> route(String pod, String tool) {
        if (pod.equals(Names.RESERVED_POD) && tool.equals(Catalog.STATUS_TOOL)) {
            return Optional.of(statusRoute);
        }
        for (Route route : served.routes().values()) {
            if (route.pod().equals(pod) && route.tool().equals(tool)) {
                return Optional.of(route);
            }
        }
        return Optional.empty();
    }

    private static String hash(String pod, String tool, JsonNode input) {
        try {
            return CanonicalJson.schemaHash(input);
        } catch (IllegalArgumentException e) {
            log.warn("pod {}: tool \"{}\" has no schema hash: {}", pod, tool, e.getMessage());
            return "";
        }
    }

    /** The {@code tools} array of {@code tools/list}. */
    ArrayNode list() {
        return served.listed();
    }

    /** Every route. */
    java.util.Collection<Route> routes() {
        return served.routes().values();
    }

    /** The routes of one pod, in list order. */
    List<Route> ofPod(String pod) {
        return served.routes().values().stream().filter(r -> r.pod().equals(pod)).toList();
    }
}
