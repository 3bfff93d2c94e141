package org.metaruntime.spring;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.metaruntime.supervisor.RestartPolicy;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The runtime's configuration under {@code meta.runtime.*}: its modules, declared here, read from the gateway's
 * ToolPod manifests or from a Claude Desktop config. An unknown key is an error, not ignored.
 *
 * <pre>{@code
 * meta:
 *   runtime:
 *     modules:
 *       weather:
 *         command: [python3, weather.py]
 *         start: eager
 *         required: true
 * }</pre>
 *
 * <p>A mutable bean bound by Spring Boot; not thread-safe. The runtime reads it once, at startup.
 */
@ConfigurationProperties(prefix = "meta.runtime", ignoreUnknownFields = false)
public class MetaRuntimeProperties {

    /** Whether to create the runtime and its beans (tool callbacks, health). */
    private boolean enabled = true;

    /** Whether an eager module that does not start fails the application context (the runtime is closed first). */
    private boolean failFast = false;

    /** Folders of ToolPod manifests (*.yaml, *.yml); each pod is a module, in folder order then file name order. */
    private List<Path> manifests = new ArrayList<>();

    /** A Claude Desktop config file; each mcpServers entry is an eager MCP module named after the entry. */
    private Path claudeConfig;

    /** The runtime's durable state folder (the event log event_log.sqlite3 is kept in it); created when missing. */
    private Path stateDir;

    /** Modules by id, in declaration order. */
    private Map<String, Module> modules = new LinkedHashMap<>();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public boolean isFailFast() {
        return failFast;
    }

    public void setFailFast(boolean failFast) {
        this.failFast = failFast;
    }

    public List<Path> getManifests() {
        return manifests;
    }

    public void setManifests(List<Path> manifests) {
        this.manifests = manifests;
    }

    public Path getClaudeConfig() {
        return claudeConfig;
    }

    public void setClaudeConfig(Path claudeConfig) {
        this.claudeConfig = claudeConfig;
    }

    public Path getStateDir() {
        return stateDir;
    }

    public void setStateDir(Path stateDir) {
        this.stateDir = stateDir;
    }

    public Map<String, Module> getModules() {
        return modules;
    }

    public void setModules(Map<String, Module> modules) {
        this.modules = modules;
    }

    /** How the runtime talks to a module. */
    public enum Protocol {
        /** MCP over the module's stdin and stdout (or Streamable HTTP for a module with a url). */
        MCP,
        /** A one-shot run per call: the module prints one JSON event and exits. */
        EVENT_LINE,
        /** Bare JSON-RPC 2.0 over stdio: only tools/call is sent; the module's tools are the declared ones. */
        JSONRPC
    }

    /** When a module's process is started. */
    public enum Start {
        /** With the application context. */
        EAGER,
        /** At its first use: its first call, or a listing of its tools when it declares none. */
        LAZY
    }

    /** One module. A mutable bean bound by Spring Boot; not thread-safe. */
    public static class Module {

        /** The argv of the module's process (no shell). */
        private List<String> command = new ArrayList<>();

        /** The module's working directory; default the application's. */
        private Path workdir;

        /** Environment variables added for the module's process. */
        private Map<String, String> env = new LinkedHashMap<>();

        /** A remote module: its MCP Streamable HTTP endpoint. */
        private URI url;

        /** HTTP headers sent to a remote module. */
        private Map<String, String> headers = new LinkedHashMap<>();

        /** How the runtime talks to the module: mcp, event-line or jsonrpc (which needs declared tools). */
        private Protocol protocol = Protocol.MCP;

        /** eager: started with the context; lazy: started at its first use. */
        private Start start = Start.LAZY;

        /** The bound of each call to the module; default the runtime's (30 s). */
        private Duration callTimeout;

        /** What the supervisor does when the module's process ends: never, on-failure or always. */
        private RestartPolicy restartPolicy = RestartPolicy.ON_FAILURE;

        /** Whether the application's health is DOWN while this module is down. */
        private boolean required = false;

        /** Declared tools: required for jsonrpc; for a lazy MCP module, what is listed before it has started. */
        private List<Tool> tools = new ArrayList<>();

        public List<String> getCommand() {
            return command;
        }

        public void setCommand(List<String> command) {
            this.command = command;
        }

        public Path getWorkdir() {
            return workdir;
        }

        public void setWorkdir(Path workdir) {
            this.workdir = workdir;
        }

        public Map<String, String> getEnv() {
            return env;
        }

        public void setEnv(Map<String, String> env) {
            this.env = env;
        }

        public URI getUrl() {
            return url;
        }

        public void setUrl(URI url) {
            this.url = url;
        }

        public Map<String, String> getHeaders() {
            return headers;
        }

        public void setHeaders(Map<String, String> headers) {
            this.headers = headers;
        }

        public Protocol getProtocol() {
            return protocol;
        }

        public void setProtocol(Protocol protocol) {
            this.protocol = protocol;
        }

        public Start getStart() {
            return start;
        }

        public void setStart(Start start) {
            this.start = start;
        }

        public Duration getCallTimeout() {
            return callTimeout;
        }

        public void setCallTimeout(Duration callTimeout) {
            this.callTimeout = callTimeout;
        }

        public RestartPolicy getRestartPolicy() {
            return restartPolicy;
        }

        public void setRestartPolicy(RestartPolicy restartPolicy) {
            this.restartPolicy = restartPolicy;
        }

        public boolean isRequired() {
            return required;
        }

        public void setRequired(boolean required) {
            this.required = required;
        }

        public List<Tool> getTools() {
            return tools;
        }

        public void setTools(List<Tool> tools) {
            this.tools = tools;
        }
    }

    /** One declared tool of a module. A mutable bean bound by Spring Boot; not thread-safe. */
    public static class Tool {

        /** The tool's name as the module knows it. */
        private String name;

        /** What the tool does, for the model. */
        private String description;

        /** The tool's input JSON Schema as JSON text (a JSON object); default {"type":"object"}. */
        private String inputSchema;

        public String getName() {
            return name;
        }

        public void setName(String name) {
            this.name = name;
        }

        public String getDescription() {
            return description;
        }

        public void setDescription(String description) {
            this.description = description;
        }

        public String getInputSchema() {
            return inputSchema;
        }

        public void setInputSchema(String inputSchema) {
            this.inputSchema = inputSchema;
        }
    }
}
