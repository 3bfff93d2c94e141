package org.metaruntime.gateway.internal.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.metaruntime.gateway.internal.contract.CanonicalJson;
import org.metaruntime.gateway.internal.contract.DefinitionHash;
import org.metaruntime.mcp.McpProtocolEra;

/**
 * Reads one {@code ToolPod} manifest, reporting every problem it finds with its line. Names are checked
 * here one by one; duplicates and collisions across pods are {@link Catalog}'s. Not thread-safe (one per file).
 */
final class ManifestReader {

    static final String API_VERSION = "mcp-meta/v1";
    static final String KIND = "ToolPod";

    private static final Set<String> ROOT_KEYS = keys("apiVersion", "kind", "metadata", "spec");
    private static final Set<String> METADATA_KEYS = keys("name", "description", "tags");
    private static final Set<String> SPEC_KEYS = keys("command", "url", "workdir", "env", "callTimeout", "startupTimeout",
            "shutdownTimeout", "preWarm", "healthCheck", "tools", "includeTools", "excludeTools", "headers", "protocol",
            "protocolEra", "onDrift");
    private static final Set<String> HEALTH_KEYS = keys("enabled", "interval");
    private static final Set<String> TOOL_KEYS = keys("name", "title", "description", "contract", "inputSchema",
            "outputSchema", "annotations", "pin", "onDrift");
    /** The keys of a declared tool that are the gateway's, not part of the tool served. */
    private static final Set<String> DECLARATION_ONLY = keys("name", "contract", "pin", "onDrift");
    private static final Set<String> CONTRACT_KEYS = keys("id", "version");
    /** Semantic Versioning 2.0.0, from semver.org. */
    private static final Pattern SEMVER = Pattern.compile("^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)"
            + "(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
            + "(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$");

    private final LocatedTree tree;
    private final Problems problems;
    private final boolean checkPrograms;
    private final TypedFields fields;
    private final int before;

    private ManifestReader(LocatedTree tree, Problems problems, boolean checkPrograms) {
        this.tree = tree;
        this.problems = problems;
        this.checkPrograms = checkPrograms;
        this.fields = new TypedFields(tree, problems);
        this.before = problems.size();
    }

    /**
     * The pod {@code tree} declares, or empty when it has problems (all added to {@code problems}); with
     * {@code checkPrograms}, a command whose program cannot be run ({@link Programs}) is one.
     */
    static Optional<PodManifest> read(LocatedTree tree, Problems problems, boolean checkPrograms) {
        return new ManifestReader(tree, problems, checkPrograms).pod();
    }

    private Optional<PodManifest> pod() {
        JsonNode root = tree.root();
        if (!root.isObject()) {
            fields.problem("", "a manifest is a mapping with apiVersion, kind, metadata and spec");
            return Optional.empty();
        }
        fields.unknownKeys(root, "", ROOT_KEYS);
        JsonNode apiVersion = fields.required(root, "", "apiVersion");
        if (apiVersion != null && !(apiVersion.isTextual() && API_VERSION.equals(apiVersion.textValue()))) {
            fields.problem("/apiVersion", "apiVersion must be " + API_VERSION + ", not " + apiVersion);
        }
        JsonNode kind = fields.required(root, "", "kind");
        if (kind != null && !(kind.isTextual() && KIND.equals(kind.textValue()))) {
            fields.problem("/kind", "kind must be " + KIND + ", not " + kind);
        }
        String name = null;
        String description = null;
        Set<String> tags = Set.of();
        JsonNode metadata = fields.mapping(root, "", "metadata", true);
        if (metadata != null) {
            fields.unknownKeys(metadata, "/metadata", METADATA_KEYS);
            name = fields.text(metadata, "/metadata", "name", true);
            description = fields.text(metadata, "/metadata", "description", false);
            tags = tags(metadata);
            if (name != null && !Names.clientSafe(name)) {
                fields.problem("/metadata/name", "pod name \"" + name + "\" is not accepted by clients: " + Names.rule());
            } else if (Names.RESERVED_POD.equals(name)) {
                fields.problem("/metadata/name", "pod name \"meta\" is reserved for the gateway's own tools and resources");
            }
        }
        JsonNode spec = fields.mapping(root, "", "spec", true);
        if (spec == null) {
            return Optional.empty();
        }
        fields.unknownKeys(spec, "/spec", SPEC_KEYS);
        List<String> command = command(spec);
        URI url = url(spec);
        if (spec.has("command") && spec.has("url")) {
            fields.problem("/spec/url", "spec has both command and url: a pod is either a local process or a remote server");
        } else if (!spec.has("command") && !spec.has("url")) {
            fields.problem("/spec", "spec needs command (a local process) or url (a remote MCP server)");
        }
        Path workdir = workdir(spec);
        if (checkPrograms && !command.isEmpty() && Files.isDirectory(workdir)) {
            Programs.problem(command.get(0), workdir, System.getenv("PATH"))
                    .ifPresent(p -> fields.problem("/spec/command/0", "spec.command: " + p));
        }
        Map<String, String> env = env(spec);
        Map<String, String> headers = headers(spec);
        Set<String> headerVariables = headerVariables(spec);
        if (spec.has("url")) {
            for (String local : List.of("workdir", "env")) {
                if (spec.has(local)) {
                    fields.problem("/spec/" + local, "spec." + local + " applies to a local process; a pod with a url has none");
                }
            }
        } else if (spec.has("headers")) {
            fields.problem("/spec/headers", "spec.headers go to a remote server: give spec.url, or drop the headers");
        }
        Duration callTimeout = fields.duration(spec, "/spec", "callTimeout", PodManifest.DEFAULT_CALL_TIMEOUT);
        Duration startupTimeout = fields.duration(spec, "/spec", "startupTimeout", PodManifest.DEFAULT_STARTUP_TIMEOUT);
        Duration shutdownTimeout = fields.duration(spec, "/spec", "shutdownTimeout", PodManifest.DEFAULT_SHUTDOWN_TIMEOUT);
        boolean preWarm = fields.bool(spec, "/spec", "preWarm", false);
        PodManifest.HealthCheck health = healthCheck(spec, spec.has("url"));
        List<DeclaredTool> tools = tools(spec, name);
        PodManifest.Protocol protocol = protocol(spec, health, tools);
        McpProtocolEra protocolEra = protocolEra(spec, protocol);
        OnDrift onDrift = onDrift(spec, "/spec", "spec.onDrift");
        if (protocol == PodManifest.Protocol.JSONRPC) {
            for (int i = 0; spec.path("tools").isArray() && i < spec.get("tools").size(); i++) {
                if (spec.get("tools").get(i).has("pin")) {
                    fields.problem("/spec/tools/" + i + "/pin", "a pod with protocol: jsonrpc lists no tools, so its tools"
                            + " cannot be pinned: remove pin");
                }
            }
        }
        ToolFilter toolFilter = new ToolFilter(globs(spec, "includeTools"), globs(spec, "excludeTools"));
        if (problems.size() > before) {
            return Optional.empty();
        }
        return Optional.of(new PodManifest(name, description, tree.file(), tree.line("/metadata/name"), command, url,
                workdir, env, callTimeout, startupTimeout, shutdownTimeout, preWarm, health, tools, headers, protocol,
                toolFilter, headerVariables, protocolEra, tags, onDrift));
    }

    /** {@code metadata.tags}: a list of tag names (1 to 64 of letters, digits, {@code _ . -}). */
    private Set<String> tags(JsonNode metadata) {
        JsonNode node = metadata.get("tags");
        Set<String> tags = new java.util.LinkedHashSet<>();
        if (node == null) {
            return tags;
        }
        if (!node.isArray()) {
            fields.problem("/metadata/tags", "metadata.tags must be a list of tag names (1 to 64 of letters, digits, _ . -),"
                    + " not " + TypedFields.typeOf(node));
            return tags;
        }
        for (int i = 0; i < node.size(); i++) {
            JsonNode tag = node.get(i);
            if (tag.isTextual() && Names.validTag(tag.textValue())) {
                tags.add(tag.textValue());
            } else {
                fields.problem("/metadata/tags/" + i, "metadata.tags[" + i + "] must be a tag name (1 to 64 of letters, digits,"
                        + " _ . -), not " + tag);
            }
        }
        return tags;
    }

    private List<String> command(JsonNode spec) {
        JsonNode node = spec.get("command");
        if (node == null) {
            return List.of();
        }
        List<String> command = new ArrayList<>();
        boolean ok = node.isArray() && node.size() > 0;
        for (JsonNode arg : node) {
            ok &= arg.isTextual();
            command.add(arg.asText());
        }
        if (!ok || command.get(0).isBlank()) {
            fields.problem("/spec/command", "spec.command must be a non-empty list of strings, like [\"python3\", \"main.py\"]");
            return List.of();
        }
        return command;
    }

    private URI url(JsonNode spec) {
        JsonNode node = spec.get("url");
        if (node == null) {
            return null;
        }
        if (node.isTextual()) {
            try {
                URI uri = new URI(node.textValue());
                if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) {
                    return uri;
                }
            } catch (URISyntaxException e) {
                // reported below
            }
        }
        fields.problem("/spec/url", "spec.url must be an http or https URL, not " + node);
        return null;
    }

    private Path workdir(JsonNode spec) {
        Path folder = tree.file().toAbsolutePath().getParent();
        String text = fields.text(spec, "/spec", "workdir", false);
        if (text == null) {
            return folder;
        }
        Path dir = folder.resolve(text).normalize();
        if (!Files.isDirectory(dir)) {
            fields.problem("/spec/workdir", "workdir " + text + " does not exist (" + dir + ")");
        }
        return dir;
    }

    private Map<String, String> env(JsonNode spec) {
        JsonNode env = fields.mapping(spec, "/spec", "env", false);
        Map<String, String> out = new LinkedHashMap<>();
        if (env == null) {
            return out;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = env.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String at = "/spec/env/" + e.getKey().replace("~", "~0").replace("/", "~1");
            JsonNode v = e.getValue();
            if (v.isTextual()) {
                expanded(at, "spec.env." + e.getKey(), v.textValue()).ifPresent(value -> out.put(e.getKey(), value));
            } else if (v.isValueNode() && !v.isNull()) {
                out.put(e.getKey(), v.asText());
            } else {
                fields.problem(at, "spec.env." + e.getKey() + " must be a string, number or boolean");
            }
        }
        return out;
    }

    private Map<String, String> headers(JsonNode spec) {
        JsonNode headers = fields.mapping(spec, "/spec", "headers", false);
        Map<String, String> out = new LinkedHashMap<>();
        if (headers == null) {
            return out;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = headers.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String at = "/spec/headers/" + e.getKey().replace("~", "~0").replace("/", "~1");
            if (!e.getValue().isTextual()) {
                fields.problem(at, "spec.headers." + e.getKey() + " must be a string");
                continue;
            }
            Optional<String> value = expanded(at, "spec.headers." + e.getKey(), e.getValue().textValue());
            if (value.isEmpty()) {
                continue;
            }
            Optional<String> wrong = Headers.problem(e.getKey(), value.get());
            if (wrong.isPresent()) {
                fields.problem(at, "spec.headers." + e.getKey() + ": " + wrong.get());
            } else {
                out.put(e.getKey(), value.get());
            }
        }
        return out;
    }

    /** The gateway's environment variables that the pod's headers read. */
    private static Set<String> headerVariables(JsonNode spec) {
        Set<String> names = new LinkedHashSet<>();
        JsonNode headers = spec.get("headers");
        if (headers != null && headers.isObject()) {
            headers.elements().forEachRemaining(value -> {
                if (value.isTextual()) {
                    names.addAll(Variables.names(value.textValue()));
                }
            });
        }
        return names;
    }

    /** {@code raw} with its {@code ${NAME}}s replaced from the gateway's environment; empty after reporting unset ones. */
    private Optional<String> expanded(String at, String what, String raw) {
        Map<String, String> environment = System.getenv();
        Optional<String> value = Variables.expand(raw, environment);
        if (value.isEmpty()) {
            fields.problem(at, what + " names the environment variable(s) " + Variables.missing(raw, environment)
                    + ", not set for the gateway");
        }
        return value;
    }

    private PodManifest.HealthCheck healthCheck(JsonNode spec, boolean remote) {
        JsonNode health = fields.mapping(spec, "/spec", "healthCheck", false);
        if (health == null) {
            return remote ? PodManifest.HealthCheck.REMOTE_DEFAULT : PodManifest.HealthCheck.DISABLED;
        }
        fields.unknownKeys(health, "/spec/healthCheck", HEALTH_KEYS);
        boolean enabled = fields.bool(health, "/spec/healthCheck", "enabled", true);
        Duration interval = fields.duration(health, "/spec/healthCheck", "interval", PodManifest.HealthCheck.DEFAULT_INTERVAL);
        return new PodManifest.HealthCheck(enabled, interval);
    }

    /**
     * {@code spec.protocolEra}: {@code auto} (the default: the pod is probed with {@code server/discover}),
     * {@code legacy} or {@code modern}; not with {@code protocol: jsonrpc}, whose pods are never probed.
     */
    private McpProtocolEra protocolEra(JsonNode spec, PodManifest.Protocol protocol) {
        String value = fields.text(spec, "/spec", "protocolEra", false);
        if (value == null) {
            return McpProtocolEra.AUTO;
        }
        McpProtocolEra era = switch (value) {
            case "auto" -> McpProtocolEra.AUTO;
            case "legacy" -> McpProtocolEra.LEGACY;
            case "modern" -> McpProtocolEra.MODERN;
            default -> null;
        };
        if (era == null) {
            fields.problem("/spec/protocolEra", "spec.protocolEra must be auto, legacy or modern, not \""
                    + value + "\"");
            return McpProtocolEra.AUTO;
        }
        if (protocol == PodManifest.Protocol.JSONRPC) {
            fields.problem("/spec/protocolEra", "spec.protocolEra applies to MCP pods: a pod with protocol: jsonrpc"
                    + " speaks bare JSON-RPC 2.0 and is never probed");
        }
        return era;
    }

    /**
     * {@code spec.protocol}: {@code mcp}, or {@code jsonrpc} (a local pod with declared tools and no pings); without it,
     * the pod's answer to {@code initialize} decides.
     */
    private PodManifest.Protocol protocol(JsonNode spec, PodManifest.HealthCheck health, List<DeclaredTool> tools) {
        String value = fields.text(spec, "/spec", "protocol", false);
        if (value == null) {
            return spec.has("protocol") ? PodManifest.Protocol.MCP : PodManifest.Protocol.DETECT;
        }
        if (value.equals("mcp")) {
            return PodManifest.Protocol.MCP;
        }
        if (!value.equals("jsonrpc")) {
            fields.problem("/spec/protocol", "spec.protocol must be mcp or jsonrpc, not \"" + value + "\"");
            return PodManifest.Protocol.MCP;
        }
        if (spec.has("url")) {
            fields.problem("/spec/protocol", "a remote pod speaks MCP: protocol: jsonrpc applies to a local process");
        }
        if (!spec.has("tools") || (spec.get("tools").isArray() && spec.get("tools").isEmpty())) {
            fields.problem("/spec/protocol", "a pod with protocol: jsonrpc declares its tools in spec.tools: it has no tools/list");
        }
        if (spec.has("healthCheck") && health.enabled()) {
            fields.problem("/spec/healthCheck", "healthCheck pings are MCP: a pod with protocol: jsonrpc cannot answer them"
                    + " (set enabled: false or drop it)");
        }
        return PodManifest.Protocol.JSONRPC;
    }

    private List<DeclaredTool> tools(JsonNode spec, String pod) {
        JsonNode tools = spec.get("tools");
        List<DeclaredTool> out = new ArrayList<>();
        if (tools == null) {
            return out;
        }
        if (!tools.isArray()) {
            fields.problem("/spec/tools", "spec.tools must be a list of tools");
            return out;
        }
        Map<String, Integer> seen = new LinkedHashMap<>();
        for (int i = 0; i < tools.size(); i++) {
            String at = "/spec/tools/" + i;
            JsonNode tool = tools.get(i);
            if (!tool.isObject()) {
                fields.problem(at, "each tool must be a mapping with at least name and inputSchema");
                continue;
            }
            fields.unknownKeys(tool, at, TOOL_KEYS);
            String name = fields.text(tool, at, "name", true);
            fields.text(tool, at, "title", false);
            fields.text(tool, at, "description", false);
            fields.mapping(tool, at, "annotations", false);
            if (name != null && !Names.declarable(name)) {
                fields.problem(at + "/name", "tool name \"" + name + "\" is not accepted by clients: " + Names.rule()
                        + " (or <seat>.<verb>)");
            } else if (name != null && seen.containsKey(name)) {
                fields.problem(at + "/name", "tool \"" + name + "\" is declared twice in pod " + pod + " (first at line " + seen.get(name) + ")");
            } else if (name != null) {
                seen.put(name, tree.line(at + "/name"));
            }
            JsonNode input = tool.get("inputSchema");
            if (input == null) {
                fields.problem(at, "tool " + name + " needs an inputSchema (at least {type: object})");
            } else {
                schema(input, at + "/inputSchema", "inputSchema");
            }
            JsonNode output = tool.get("outputSchema");
            if (output != null) {
                schema(output, at + "/outputSchema", "outputSchema");
            }
            DeclaredTool.Contract contract = contract(tool, at);
            String pin = fields.text(tool, at, "pin", false);
            if (pin != null && !DefinitionHash.wellFormed(pin)) {
                fields.problem(at + "/pin", "pin must be sha256: and 64 lowercase hex digits (a definition hash, as --validate"
                        + " prints it), not \"" + pin + "\"");
                pin = null;
            }
            OnDrift toolOnDrift = onDrift(tool, at, "onDrift");
            if (name != null && input != null) {
                ObjectNode definition = JsonNodeFactory.instance.objectNode();
                tool.fields().forEachRemaining(f -> {
                    if (!DECLARATION_ONLY.contains(f.getKey())) {
                        definition.set(f.getKey(), f.getValue());
                    }
                });
                out.add(new DeclaredTool(name, tree.line(at + "/name"), definition, contract, CanonicalJson.schemaHash(input),
                        pin, toolOnDrift));
            }
        }
        return out;
    }

    /** {@code onDrift} of a tool or of {@code spec}: {@code block} or {@code warn}; null when absent or wrong. */
    private OnDrift onDrift(JsonNode parent, String at, String label) {
        String value = fields.text(parent, at, "onDrift", false);
        if (value == null) {
            return null;
        }
        Optional<OnDrift> action = OnDrift.of(value);
        if (action.isEmpty()) {
            fields.problem(at + "/onDrift", label + " must be block or warn, not \"" + value + "\"");
        }
        return action.orElse(null);
    }

    /** {@code spec.includeTools} or {@code spec.excludeTools}: globs of the tools a pod lists live. */
    private List<String> globs(JsonNode spec, String key) {
        JsonNode node = spec.get(key);
        List<String> globs = new ArrayList<>();
        if (node == null) {
            return globs;
        }
        String at = "/spec/" + key;
        if (spec.has("tools")) {
            fields.problem(at, "spec." + key + " filters the tools a pod lists live: a pod that declares spec.tools serves"
                    + " exactly those (drop the ones not to serve)");
            return globs;
        }
        if (!node.isArray()) {
            fields.problem(at, "spec." + key + " must be a list of tool names or globs (* for any characters, ? for one),"
                    + " not " + TypedFields.typeOf(node));
            return globs;
        }
        for (int i = 0; i < node.size(); i++) {
            JsonNode glob = node.get(i);
            if (glob.isTextual() && !glob.textValue().isEmpty()) {
                globs.add(glob.textValue());
            } else {
                fields.problem(at + "/" + i, "spec." + key + "[" + i + "] must be a non-empty tool name or glob, not " + glob);
            }
        }
        return globs;
    }

    private void schema(JsonNode schema, String at, String what) {
        SchemaShape.check(schema).ifPresent(p -> fields.problem(at + p.pointer(), what + " " + p.message()));
    }

    private DeclaredTool.Contract contract(JsonNode tool, String at) {
        JsonNode contract = fields.mapping(tool, at, "contract", false);
        if (contract == null) {
            return null;
        }
        String here = at + "/contract";
        fields.unknownKeys(contract, here, CONTRACT_KEYS);
        String id = fields.text(contract, here, "id", true);
        String version = fields.text(contract, here, "version", true);
        if (version != null && !SEMVER.matcher(version).matches()) {
            fields.problem(here + "/version", "contract version \"" + version + "\" is not a semantic version (like 1.0.0)");
            return null;
        }
        return id == null || version == null ? null : new DeclaredTool.Contract(id, version);
    }

    private static Set<String> keys(String... keys) {
        return new LinkedHashSet<>(List.of(keys));
    }
}
