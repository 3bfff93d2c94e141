package org.metaruntime.gateway.internal.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.metaruntime.mcp.McpProtocolEra;

/**
 * Reads a Claude Desktop config ({@code {"mcpServers": {"name": {"command", "args", "env"} | {"url"}}}}):
 * each entry becomes a pod with default timeouts whose tools are discovered at startup. Stateless.
 */
final class ClaudeConfigReader {

    private static final Set<String> ENTRY_KEYS = Set.of("command", "args", "env", "url", "type", "headers");

    private ClaudeConfigReader() {
    }

    /** The pods of the config; with {@code checkPrograms}, a command that cannot be run ({@link Programs}) is a problem. */
    static List<PodManifest> read(LocatedTree tree, Problems problems, boolean checkPrograms) {
        List<PodManifest> pods = new ArrayList<>();
        JsonNode servers = tree.root().get("mcpServers");
        if (!tree.root().isObject() || servers == null || !servers.isObject()) {
            problems.add(tree, "", "a Claude Desktop config is an object with an \"mcpServers\" object");
            return pods;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = servers.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            String name = entry.getKey();
            String at = "/mcpServers/" + name.replace("~", "~0").replace("/", "~1");
            JsonNode server = entry.getValue();
            int before = problems.size();
            if (!Names.clientSafe(name)) {
                problems.add(tree, at, "server name \"" + name + "\" is not accepted by clients as a pod name: " + Names.rule());
            } else if (Names.RESERVED_POD.equals(name)) {
                problems.add(tree, at, "server name \"meta\" is reserved for the gateway's own tools and resources");
            }
            if (!server.isObject()) {
                problems.add(tree, at, "mcpServers." + name + " must be an object with command (and args, env) or url");
                continue;
            }
            server.fieldNames().forEachRemaining(key -> {
                if (!ENTRY_KEYS.contains(key)) {
                    problems.add(tree, at + "/" + key, "unknown key \"" + key + "\" in mcpServers." + name
                            + " (known: command, args, env, url, type, headers)");
                }
            });
            List<String> command = new ArrayList<>();
            JsonNode cmd = server.get("command");
            if (cmd != null) {
                if (cmd.isTextual() && !cmd.textValue().isBlank()) {
                    command.add(cmd.textValue());
                } else {
                    problems.add(tree, at + "/command", "mcpServers." + name + ".command must be a non-empty string");
                }
            }
            JsonNode args = server.get("args");
            if (args != null) {
                boolean ok = args.isArray();
                for (JsonNode arg : args) {
                    ok &= arg.isTextual();
                    command.add(arg.asText());
                }
                if (!ok) {
                    problems.add(tree, at + "/args", "mcpServers." + name + ".args must be a list of strings");
                }
            }
            Map<String, String> env = new LinkedHashMap<>();
            JsonNode envNode = server.get("env");
            if (envNode != null) {
                if (!envNode.isObject()) {
                    problems.add(tree, at + "/env", "mcpServers." + name + ".env must be an object of strings");
                } else {
                    envNode.fields().forEachRemaining(e -> {
                        if (e.getValue().isTextual()) {
                            env.put(e.getKey(), e.getValue().textValue());
                        } else {
                            problems.add(tree, at + "/env/" + e.getKey(), "mcpServers." + name + ".env." + e.getKey() + " must be a string");
                        }
                    });
                }
            }
            URI url = null;
            JsonNode urlNode = server.get("url");
            if (urlNode != null) {
                url = url(urlNode);
                if (url == null) {
                    problems.add(tree, at + "/url", "mcpServers." + name + ".url must be an http or https URL, not " + urlNode);
                }
            }
            Map<String, String> headers = new LinkedHashMap<>();
            Set<String> headerVariables = new LinkedHashSet<>();
            JsonNode headersNode = server.get("headers");
            if (headersNode != null) {
                if (!headersNode.isObject() || urlNode == null) {
                    problems.add(tree, at + "/headers", "mcpServers." + name
                            + ".headers must be an object of strings, for a server with a url");
                } else {
                    headersNode.fields().forEachRemaining(e -> {
                        String where = at + "/headers/" + e.getKey();
                        Optional<String> value = e.getValue().isTextual()
                                ? Variables.expand(e.getValue().textValue(), System.getenv()) : Optional.empty();
                        Optional<String> wrong = value.isEmpty() ? Optional.of(e.getValue().isTextual()
                                ? "names the environment variable(s) " + Variables.missing(e.getValue().textValue(),
                                System.getenv()) + ", not set for the gateway" : "must be a string")
                                : Headers.problem(e.getKey(), value.get());
                        if (wrong.isPresent()) {
                            problems.add(tree, where, "mcpServers." + name + ".headers." + e.getKey() + ": " + wrong.get());
                        } else {
                            headers.put(e.getKey(), value.get());
                            headerVariables.addAll(Variables.names(e.getValue().textValue()));
                        }
                    });
                }
            }
            if (url != null && (envNode != null || args != null)) {
                problems.add(tree, at, "mcpServers." + name + " has a url: args and env apply to a local command");
            }
            if (cmd != null && urlNode != null) {
                problems.add(tree, at, "mcpServers." + name + " has both command and url: give one");
            } else if (cmd == null && urlNode == null) {
                problems.add(tree, at, "mcpServers." + name + " needs command or url");
            }
            if (checkPrograms && problems.size() == before && url == null) {
                Programs.problem(command.get(0), tree.file().toAbsolutePath().getParent(), System.getenv("PATH"))
                        .ifPresent(p -> problems.add(tree, at + "/command", "mcpServers." + name + ".command: " + p));
            }
            if (problems.size() == before) {
                pods.add(new PodManifest(name, null, tree.file(), tree.line(at), url == null ? command : List.of(), url,
                        tree.file().toAbsolutePath().getParent(), env, PodManifest.DEFAULT_CALL_TIMEOUT,
                        PodManifest.DEFAULT_STARTUP_TIMEOUT, PodManifest.DEFAULT_SHUTDOWN_TIMEOUT, false,
                        url == null ? PodManifest.HealthCheck.DISABLED : PodManifest.HealthCheck.REMOTE_DEFAULT, List.of(),
                        headers, PodManifest.Protocol.DETECT, ToolFilter.ALL, headerVariables, McpProtocolEra.AUTO, null, null));
            }
        }
        return pods;
    }

    private static URI url(JsonNode node) {
        if (!node.isTextual()) {
            return null;
        }
        try {
            URI uri = new URI(node.textValue());
            return ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null ? uri : null;
        } catch (URISyntaxException e) {
            return null;
        }
    }
}
