package org.metaruntime.gateway.internal.manifest;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.metaruntime.core.RuntimeOptions;
import org.metaruntime.mcp.McpProtocolEra;

/**
 * One pod as its manifest (or Claude Desktop config entry) declares it, validated. Exactly one of
 * {@code command} (non-empty) and {@code url} is set. A null collection, {@code protocol}, {@code toolFilter} or
 * {@code protocolEra} takes its default (empty, {@code MCP}, all tools, {@code AUTO}).
 *
 * @param file          the file it was read from
 * @param line          the line of its name
 * @param tools         the declared tools; empty when the pod's tools are discovered at startup
 * @param protocol      what the pod speaks on stdio
 * @param toolFilter    which of the tools it lists live are served (a pod that declares its tools serves those)
 * @param headerVariables the names of the gateway's environment variables its {@code headers} read (credentials for
 *                      a remote server, which no local pod inherits)
 * @param protocolEra   the era of MCP the pod speaks ({@code spec.protocolEra}; {@code AUTO} unless it says)
 * @param onDrift       what a drift of one of its tools from its pin does ({@code spec.onDrift}), or null (the default:
 *                      {@code block} for an explicit pin, {@code warn} for a pin taken on first use)
 */
public record PodManifest(String name, String description, Path file, int line, List<String> command, URI url,
                          Path workdir, Map<String, String> env, Duration callTimeout, Duration startupTimeout,
                          Duration shutdownTimeout, boolean preWarm, HealthCheck healthCheck,
                          List<DeclaredTool> tools, Map<String, String> headers,
                          Protocol protocol, ToolFilter toolFilter, Set<String> headerVariables,
                          McpProtocolEra protocolEra, Set<String> tags, OnDrift onDrift) {

    /** Default bound of one {@code tools/call}: the runtime's, {@link RuntimeOptions#DEFAULT_CALL_TIMEOUT}. */
    public static final Duration DEFAULT_CALL_TIMEOUT = RuntimeOptions.DEFAULT_CALL_TIMEOUT;
    /**
     * Default bound of spawn plus {@code initialize}: 10 s, shorter than the runtime's 30 s, because a pod starts
     * while a client waits on its first {@code tools/call} (docs/gateway.md, "Defaults").
     */
    public static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofSeconds(10);
    /**
     * Default bound of the stop ladder ({@link org.metaruntime.core.ModuleConfig#shutdownTimeout()}): 5 s, so that the
     * gateway stops all its pods within a container's grace period (docs/gateway.md, "Defaults").
     */
    public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(5);

    /**
     * What a pod speaks: MCP ({@code protocol: mcp}), bare JSON-RPC 2.0 ({@code protocol: jsonrpc}: it answers
     * {@code tools/call} and perhaps nothing else, so it is served from its declared tools), or, without the key,
     * whichever its answer to {@code initialize} shows.
     */
    public enum Protocol {
        /** The Model Context Protocol: {@code initialize}, {@code tools/list}, notifications. */
        MCP,
        /** Bare JSON-RPC 2.0: only {@code tools/call} is sent; no handshake, no listing, no notification. */
        JSONRPC,
        /**
         * No {@code protocol} key: a local pod with declared tools is sent {@code initialize} and served as MCP when it
         * answers as an MCP server, else as bare JSON-RPC 2.0 (then sent no notification); any other pod speaks MCP.
         */
        DETECT
    }

    /** The ping schedule of a pod. */
    public record HealthCheck(boolean enabled, Duration interval) {
        /** Default ping interval. */
        public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(30);
        /** No pings. */
        public static final HealthCheck DISABLED = new HealthCheck(false, DEFAULT_INTERVAL);
        /** A remote pod that declares no health check is pinged every 30 s. */
        public static final HealthCheck REMOTE_DEFAULT = new HealthCheck(true, DEFAULT_INTERVAL);

        public HealthCheck {
            Objects.requireNonNull(interval, "interval");
        }
    }

    public PodManifest {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(file, "file");
        command = command == null ? List.of() : List.copyOf(command);
        if (command.isEmpty() == (url == null)) {
            throw new IllegalArgumentException("pod " + name + ": exactly one of command and url");
        }
        env = env == null ? Map.of() : Map.copyOf(env);
        Objects.requireNonNull(callTimeout, "callTimeout");
        Objects.requireNonNull(startupTimeout, "startupTimeout");
        Objects.requireNonNull(shutdownTimeout, "shutdownTimeout");
        Objects.requireNonNull(healthCheck, "healthCheck");
        tools = tools == null ? List.of() : List.copyOf(tools);
        headers = headers == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(headers));
        protocol = protocol == null ? Protocol.MCP : protocol;
        toolFilter = toolFilter == null ? ToolFilter.ALL : toolFilter;
        headerVariables = headerVariables == null ? Set.of() : Set.copyOf(headerVariables);
        protocolEra = protocolEra == null ? McpProtocolEra.AUTO : protocolEra;
        tags = tags == null ? Set.of() : Set.copyOf(tags);
        if (protocol == Protocol.JSONRPC && (url != null || tools.isEmpty())) {
            throw new IllegalArgumentException("pod " + name + ": a bare JSON-RPC pod is a local process with declared tools");
        }
    }

    /** What a drift of its tool {@code tool} from its pin does: the tool's {@code onDrift}, else the pod's, else the default. */
    public OnDrift onDrift(String tool, boolean explicitPin) {
        for (DeclaredTool declared : tools) {
            if (declared.name().equals(tool) && declared.onDrift() != null) {
                return declared.onDrift();
            }
        }
        if (onDrift != null) {
            return onDrift;
        }
        return explicitPin ? OnDrift.BLOCK : OnDrift.WARN;
    }

    /** The explicit pin of its declared tool {@code tool}, or null. */
    public String pin(String tool) {
        for (DeclaredTool declared : tools) {
            if (declared.name().equals(tool)) {
                return declared.pin();
            }
        }
        return null;
    }

    /** Whether the pod is a remote MCP server (it has a url) rather than a local process. */
    public boolean isRemote() {
        return url != null;
    }

    /** Whether the pod speaks bare JSON-RPC 2.0 ({@code protocol: jsonrpc}) rather than MCP. */
    public boolean isBare() {
        return protocol == Protocol.JSONRPC;
    }

    /** Whether its answer to {@code initialize} decides between MCP and bare JSON-RPC (see {@link Protocol#DETECT}). */
    public boolean mayBeBare() {
        return protocol == Protocol.DETECT && !isRemote() && declaresTools();
    }

    /** Whether the manifest declares the pod's tools (else they are listed live after a pre-warm). */
    public boolean declaresTools() {
        return !tools.isEmpty();
    }

    /** Whether the pod is spawned when the gateway starts. */
    public boolean spawnAtStart() {
        return preWarm || !declaresTools();
    }
}
