package org.metaruntime.core;

import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.metaruntime.core.ModuleProtocolDraft.Declared;
import org.metaruntime.mcp.McpHttpEndpoint;
import org.metaruntime.mcp.McpSessionMode;

/**
 * The checks of a {@link ModuleConfig.Builder}: each value as it is set, and the whole module when it is built. Every
 * failure is a {@link ConfigException} whose field is {@code modules[<id>].<option>}.
 *
 * <p>Stateless and thread-safe.
 */
final class ModuleConfigValidator {

    private ModuleConfigValidator() {
    }

    /** The path of {@code option} of module {@code id}: {@code modules[<id>].<option>}. */
    static String field(String id, String option) {
        return "modules[" + id + "]." + option;
    }

    /** {@code command} copied, when no argument is null. */
    static List<String> command(String id, List<String> command) {
        for (int i = 0; i < command.size(); i++) {
            if (command.get(i) == null) {
                throw new ConfigException(field(id, "command[" + i + "]"), "the argument must not be null");
            }
        }
        return List.copyOf(command);
    }

    /** {@code url} when it is an absolute http(s) URL with a host. */
    static URI url(String id, URI url) {
        McpHttpEndpoint.problem(url).ifPresent(p -> {
            throw new ConfigException(field(id, "url"), p);
        });
        return url;
    }

    /** Checks a header of a remote module: an HTTP token the MCP client does not set itself, a value on one line. */
    static void header(String id, String name, String value) {
        McpHttpEndpoint.headerProblem(name, value).ifPresent(p -> {
            throw new ConfigException(field(id, "headers"), p);
        });
    }

    /** {@code declaredTools} copied, when it is not empty and its tools have distinct names. */
    static List<McpSchema.Tool> declaredTools(List<McpSchema.Tool> declaredTools, String field) {
        if (declaredTools.isEmpty()) {
            throw new ConfigException(field, "a bare JSON-RPC module declares its tools: it has no tools/list");
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < declaredTools.size(); i++) {
            McpSchema.Tool tool = declaredTools.get(i);
            if (tool == null || tool.name() == null || tool.name().isBlank()) {
                throw new ConfigException(field + "[" + i + "]", "a declared tool needs a name");
            }
            if (!names.add(tool.name())) {
                throw new ConfigException(field + "[" + i + "]", "tool '" + tool.name() + "' is declared twice");
            }
        }
        return List.copyOf(declaredTools);
    }

    /**
     * Checks where the module runs: with a url (a remote module) nothing that only a spawned module has, without one
     * no headers.
     */
    static void source(String id, List<String> command, Path workdir, Map<String, String> env, URI url,
                       Map<String, String> headers) {
        if (url == null) {
            if (!headers.isEmpty()) {
                throw new ConfigException(field(id, "headers"), "module '" + id
                        + "' has headers but no url: headers go to a remote module");
            }
            return;
        }
        if (!command.isEmpty()) {
            throw new ConfigException(field(id, "url"), "module '" + id + "' has both a command and a url");
        }
        if (workdir != null || !env.isEmpty()) {
            throw new ConfigException(field(id, workdir != null ? "workdir" : "env"), "module '" + id
                    + "' is remote (it has a url): it has no process, so a workdir or environment does not apply");
        }
    }

    /** Checks that a remote module speaks MCP over one session. */
    static void remoteProtocol(String id, McpSessionMode sessionMode, Declared declared) {
        if (sessionMode == McpSessionMode.PER_CALL) {
            throw new ConfigException(field(id, "mcpSessionMode"), "module '" + id
                    + "' is remote: it keeps one session (PERSISTENT); PER_CALL applies to spawned servers");
        }
        if (declared == Declared.BARE || declared == Declared.BARE_UNLESS_MCP) {
            throw new ConfigException(field(id, declared == Declared.BARE_UNLESS_MCP ? "bareUnlessMcp" : "bare"),
                    "module '" + id + "' is remote: a remote server speaks MCP; bare JSON-RPC applies to spawned servers");
        }
        if (declared == Declared.EVENT_LINE) {
            throw new ConfigException(field(id, "protocol"), "module '" + id
                    + "' is remote: a remote server speaks MCP; event-line applies to spawned modules");
        }
    }

    /** Checks that an idle timeout is set only on a lazy module. */
    static void idleTimeout(String id, Duration idleTimeout, StartMode startMode) {
        if (idleTimeout != null && startMode != StartMode.LAZY) {
            throw new ConfigException(field(id, "idleTimeout"),
                    "an idle timeout needs startMode(StartMode.LAZY): an eager module keeps its child");
        }
    }
}
