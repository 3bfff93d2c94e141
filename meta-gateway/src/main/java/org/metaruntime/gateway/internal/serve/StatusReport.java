package org.metaruntime.gateway.internal.serve;

import org.metaruntime.gateway.internal.manifest.DeclaredTool;
import org.metaruntime.gateway.internal.pin.DefinitionPins;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.metaruntime.gateway.internal.manifest.Catalog;
import org.metaruntime.gateway.internal.manifest.PodManifest;
import org.metaruntime.gateway.internal.rpc.JsonRpc;

/**
 * The gateway's status, served as the resource {@code meta://status} and by the tool {@code meta__status}:
 * {@code {"pods":{"<name>":{"state","pid","restarts","lastError","stderrTail","callsServed","callsFailed",
 * "tools":[{"name","schemaHash","contract"?,"definitionHash","pin","drift"}]}}}} ({@code contract}: {@code {id, version}}
 * when declared; {@code definitionHash}: the live one once the pod listed its tools, else the declared one; {@code pin}:
 * the expected hash or null; {@code drift}: null, {@code warn} or {@code block}). Stateless.
 */
final class StatusReport {

    static final String URI = "meta://status";

    private StatusReport() {
    }

    static ObjectNode build(Catalog catalog, PodBackend backend, ToolTable table, PodStats stats) {
        return build(catalog, backend, table, stats, null);
    }

    /** With each tool's {@code definitionHash}, {@code pin} and {@code drift} when {@code pins} is given. */
    static ObjectNode build(Catalog catalog, PodBackend backend, ToolTable table, PodStats stats, DefinitionPins pins) {
        ObjectNode root = JsonRpc.NODES.objectNode();
        ObjectNode pods = root.putObject("pods");
        for (PodManifest manifest : catalog.pods()) {
            PodBackend.PodState state = backend.pod(manifest.name()).state();
            ObjectNode pod = pods.putObject(manifest.name());
            pod.put("state", state.state());
            if (state.pid().isPresent()) {
                pod.put("pid", state.pid().getAsLong());
            } else {
                pod.putNull("pid");
            }
            pod.put("restarts", state.restarts());
            if (state.lastError() == null || state.lastError().isEmpty()) {
                pod.putNull("lastError");
            } else {
                pod.put("lastError", state.lastError());
            }
            pod.put("stderrTail", state.stderrTail());
            pod.put("callsServed", stats.servedOf(manifest.name()));
            pod.put("callsFailed", stats.failedOf(manifest.name()));
            ArrayNode tools = pod.putArray("tools");
            java.util.Set<String> listed = new java.util.HashSet<>();
            for (ToolTable.Route route : table.ofPod(manifest.name())) {
                listed.add(route.tool());
                ObjectNode tool = tools.addObject().put("name", route.tool()).put("schemaHash", route.schemaHash());
                if (route.contract() != null) {
                    tool.putObject("contract").put("id", route.contract().id()).put("version", route.contract().version());
                }
                pinOf(tool, manifest, route.tool(), pins);
            }
            if (pins != null) {
                for (String blocked : pins.blockedTools(manifest.name())) {
                    if (listed.add(blocked)) {
                        ObjectNode tool = tools.addObject().put("name", blocked);
                        manifest.tools().stream().filter(t -> t.name().equals(blocked)).findFirst()
                                .ifPresent(t -> tool.put("schemaHash", t.schemaHash()));
                        pinOf(tool, manifest, blocked, pins);
                    }
                }
            }
        }
        return root;
    }

    private static void pinOf(ObjectNode tool, PodManifest manifest, String name, DefinitionPins pins) {
        if (pins == null) {
            return;
        }
        DeclaredTool declared = manifest.tools().stream().filter(t -> t.name().equals(name)).findFirst().orElse(null);
        DefinitionPins.Seen seen = pins.seen(manifest, name, declared);
        putOrNull(tool, "definitionHash", seen.definitionHash());
        putOrNull(tool, "pin", seen.pin());
        putOrNull(tool, "drift", seen.drift() == null ? null : seen.drift().wire());
    }

    private static void putOrNull(ObjectNode node, String key, String value) {
        if (value == null) {
            node.putNull(key);
        } else {
            node.put(key, value);
        }
    }

    /** The status as a {@code CallToolResult}: the JSON as text and as structured content. */
    static ObjectNode asToolResult(ObjectNode status) {
        ObjectNode result = JsonRpc.NODES.objectNode();
        result.putArray("content").addObject().put("type", "text").put("text", JsonRpc.write(status));
        result.set("structuredContent", status);
        result.put("isError", false);
        return result;
    }

    /** The {@code meta__status} tool's definition, less its name. */
    static ObjectNode toolDefinition() {
        ObjectNode tool = JsonRpc.NODES.objectNode();
        tool.put("title", "Gateway status");
        tool.put("description", "The state of every pod of this gateway: state, pid, restarts, last error, stderr tail, "
                + "calls served and failed, tools with their schema hashes.");
        tool.putObject("inputSchema").put("type", "object").putObject("properties");
        tool.putObject("annotations").put("readOnlyHint", true).put("openWorldHint", false);
        return tool;
    }
}
