package org.metaruntime.core;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import io.modelcontextprotocol.spec.McpSchema;
import org.metaruntime.mcp.McpHttpEndpoint;
import org.metaruntime.mcp.McpProtocolEra;
import org.metaruntime.mcp.McpSessionMode;
import org.metaruntime.supervisor.RestartPolicy;

/**
 * One configured module: how to spawn it and how to treat it.
 *
 * <pre>{@code
 * ModuleConfig weather = ModuleConfig.builder("weather")
 *         .command("python3", "weather.py")
 *         .workdir(Path.of("modules/weather"))
 *         .env(Map.of("UNITS", "metric"))
 *         .restartPolicy(RestartPolicy.ON_FAILURE)
 *         .build();
 * }</pre>
 *
 * <p>A module reached over the network instead of spawned is a <em>remote MCP module</em>: give it a
 * {@link Builder#url(URI) url} (an MCP Streamable HTTP endpoint) instead of a command, and the headers its server
 * needs:
 *
 * <pre>{@code
 * ModuleConfig search = ModuleConfig.builder("search")
 *         .url(URI.create("https://search.tools.svc.cluster.local/mcp"))
 *         .header("Authorization", "Bearer " + token)
 *         .healthCheck(Duration.ofSeconds(10))
 *         .build();
 * }</pre>
 *
 * <p>A spawned module that speaks bare JSON-RPC 2.0 rather than MCP (it reads a request line and writes
 * {@code {"jsonrpc","id","result"}} for {@code tools/call}, and implements neither {@code initialize} nor
 * {@code tools/list}) is declared with its tools, {@link Builder#bare(List)}; it is served through the MCP boundary:
 *
 * <pre>{@code
 * ModuleConfig legacy = ModuleConfig.builder("legacy")
 *         .command("python3", "legacy_tools.py")
 *         .bare(List.of(McpSchema.Tool.builder("lookup", schema).description("Looks a key up").build()))
 *         .build();
 * }</pre>
 *
 * <p>A module is described here and nowhere else: its {@link #source()} (a command or a remote URL), its protocol
 * (decided once by {@link #protocol(Optional)}: the one it declares with {@link Builder#protocol(ModuleProtocol)},
 * {@code bare}, {@code bareUnlessMcp} or {@code url}, else its pre-spawn marker) and its options.
 *
 * <p>The per-module timeouts and limits are optional; when absent, the runtime's {@link RuntimeOptions}
 * apply. The semantic checks (non-empty command, unique id) run when a runtime is built, see
 * {@link MetaConfig#validate()}.
 *
 * <p>Immutable and thread-safe.
 */
public final class ModuleConfig {

    /** The interval of health-check pings of a remote module unless it sets its own. */
    public static final Duration DEFAULT_REMOTE_HEALTH_CHECK = Duration.ofSeconds(30);

    private final String id;
    private final ModuleSource source;
    private final ModuleProtocolChoice protocol;
    private final ModuleOptions options;

    private ModuleConfig(String id, ModuleSource source, ModuleProtocolChoice protocol, ModuleOptions options) {
        this.id = id;
        this.source = source;
        this.protocol = protocol;
        this.options = options;
    }

    /** A builder for the module {@code id}. */
    public static Builder builder(String id) {
        Objects.requireNonNull(id, "id");
        return new Builder(id, new ModuleSourceDraft(id), new ModuleProtocolDraft(id), new ModuleOptionsDraft(id));
    }

    /** A builder holding this configuration. */
    public Builder toBuilder() {
        return new Builder(id, new ModuleSourceDraft(id, source), new ModuleProtocolDraft(id, protocol),
                new ModuleOptionsDraft(id, options));
    }

    /** The module id. */
    public String id() {
        return id;
    }

    /** Where the module runs: a command the runtime spawns or a remote MCP server. */
    public ModuleSource source() {
        return source;
    }

    /**
     * The protocol the module declares ({@link Builder#protocol(ModuleProtocol)}, {@link Builder#bare(List)},
     * {@link Builder#bareUnlessMcp(List)}, or MCP for a remote module); empty when its pre-spawn data decides (see
     * {@link #protocol(Optional)}).
     */
    public Optional<ModuleProtocol> declaredProtocol() {
        return protocol.declared();
    }

    /**
     * What the module speaks, given its pre-spawn data: the protocol it declares, else MCP (with its
     * {@link #mcpSessionMode()} and {@link #protocolEra()}) when {@code preSpawn}
     * {@linkplain PreSpawnData#selectsMcp() selects MCP}, else event-line. The one place a module's protocol is
     * decided; {@link MetaConfig#protocolOf(String)} applies it with the module's first pre-spawn data.
     */
    public ModuleProtocol protocol(Optional<PreSpawnData> preSpawn) {
        return protocol.resolve(preSpawn);
    }

    /** The argv of the module's process (no shell); empty for a remote module. */
    public List<String> command() {
        return source instanceof ModuleSource.Command command ? command.argv() : List.of();
    }

    /** The working directory of the process; {@code null} for the host's. */
    public Path workdir() {
        return source instanceof ModuleSource.Command command ? command.workdir() : null;
    }

    /** Environment put on top of the inherited one (before the pre-spawn environment). */
    public Map<String, String> env() {
        return source instanceof ModuleSource.Command command ? command.env() : Map.of();
    }

    /** The restart policy of the startup procedure. Default {@link RestartPolicy#ON_FAILURE}. */
    public RestartPolicy restartPolicy() {
        return options.restartPolicy();
    }

    /** How an MCP (or bare JSON-RPC) module's connection is used. Default {@link McpSessionMode#PERSISTENT}. */
    public McpSessionMode mcpSessionMode() {
        return protocol.sessionMode();
    }

    /** The startup timeout of this module, overriding {@link RuntimeOptions#startupTimeout()}. */
    public Optional<Duration> startupTimeout() {
        return Optional.ofNullable(options.startupTimeout());
    }

    /** The timeout of calls routed without an explicit timeout, overriding {@link RuntimeOptions#callTimeout()}. */
    public Optional<Duration> callTimeout() {
        return Optional.ofNullable(options.callTimeout());
    }

    /** The grace of each stop step (stdin close, SIGTERM), overriding the runtime's stop graces. */
    public Optional<Duration> shutdownGrace() {
        return Optional.ofNullable(options.shutdownGrace());
    }

    /**
     * The bound of this module's stop ladder, overriding the runtime's stop graces: the waits after closing stdin and
     * after SIGTERM get a third of it each, at least 100 ms, leaving the last third to the kill step (see
     * {@link RuntimeOptions#stopLadderFor(ModuleConfig)}).
     */
    public Optional<Duration> shutdownTimeout() {
        return Optional.ofNullable(options.shutdownTimeout());
    }

    /** The most calls in flight at once on a persistent MCP connection, overriding {@link RuntimeOptions#maxInFlightCalls()}. */
    public OptionalInt maxInFlightCalls() {
        return options.maxInFlightCalls() == null ? OptionalInt.empty() : OptionalInt.of(options.maxInFlightCalls());
    }

    /** When the module's process starts. Default {@link StartMode#EAGER}. */
    public StartMode startMode() {
        return options.startMode();
    }

    /** How long a {@link StartMode#LAZY} module's child stays without a call in flight before it is stopped. */
    public Optional<Duration> idleTimeout() {
        return Optional.ofNullable(options.idleTimeout());
    }

    /** The MCP Streamable HTTP endpoint of a remote module; empty for a module that is spawned. */
    public Optional<URI> url() {
        return source instanceof ModuleSource.Remote remote ? Optional.of(remote.url()) : Optional.empty();
    }

    /** Whether the module is remote (it has a {@link #url()}): MCP, reached over HTTP, never spawned. */
    public boolean isRemote() {
        return source instanceof ModuleSource.Remote;
    }

    /** The headers sent with every request to a remote module, in order (values are secrets: never logged). */
    public Map<String, String> headers() {
        return source instanceof ModuleSource.Remote remote ? remote.headers() : Map.of();
    }

    /**
     * The interval of the module's health-check pings (an MCP {@code ping} every interval; three misses in a row are
     * a failure): the one set with {@link Builder#healthCheck(Duration)}, else {@link #DEFAULT_REMOTE_HEALTH_CHECK}
     * for a remote module; empty when off (the default for a spawned module, or {@code healthCheck(Duration.ZERO)}).
     */
    public Optional<Duration> healthCheckInterval() {
        return options.healthCheckInterval(isRemote());
    }

    /**
     * The declared tools of a module that speaks bare JSON-RPC 2.0 instead of MCP ({@link Builder#bare(List)});
     * empty for an MCP or event-line module. When present, the module's MCP client sends no {@code initialize},
     * {@code tools/list} or notification: the tools are these, and a {@code tools/call} answer that is not a
     * {@code CallToolResult} is served as {@code {"content":[{"type":"text","text":<answer as JSON>}],
     * "structuredContent":<answer>}} (see {@link org.metaruntime.mcp.McpClientOptions#bareTools()}).
     */
    public Optional<List<McpSchema.Tool>> bareTools() {
        return protocol.bareTools();
    }

    /** Whether the module speaks bare JSON-RPC 2.0 with declared tools ({@link #bareTools()} is present). */
    public boolean isBare() {
        return protocol.protocol() instanceof ModuleProtocol.BareJsonRpc;
    }

    /**
     * The declared tools of a spawned module that may speak MCP or bare JSON-RPC 2.0 ({@link Builder#bareUnlessMcp(List)});
     * empty otherwise. Its MCP client sends {@code initialize}: an MCP initialize result makes it an MCP module, any
     * other answer (or none in time) a bare one with these tools (see
     * {@link org.metaruntime.mcp.McpClientOptions#bareUnlessMcp()}).
     */
    public Optional<List<McpSchema.Tool>> bareUnlessMcp() {
        return protocol.bareFallback();
    }

    /**
     * The era of MCP this module's server is spoken to in, when the module sets one ({@link Builder#protocolEra});
     * empty: the runtime's {@link org.metaruntime.mcp.McpClientOptions#protocolEra()} applies. Always empty for a
     * bare JSON-RPC module, which speaks no MCP.
     */
    public Optional<McpProtocolEra> protocolEra() {
        return protocol.era();
    }

    /** The endpoint of a remote module for the MCP client; empty for a module that is spawned. */
    public Optional<McpHttpEndpoint> endpoint() {
        return source instanceof ModuleSource.Remote remote
                ? Optional.of(new McpHttpEndpoint(id, remote.url(), remote.headers())) : Optional.empty();
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ModuleConfig)) {
            return false;
        }
        ModuleConfig other = (ModuleConfig) o;
        return id.equals(other.id) && source.equals(other.source) && protocol.equals(other.protocol)
                && options.equals(other.options);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, source, protocol, options);
    }

    @Override
    public String toString() {
        return "ModuleConfig[id=" + id + ", source=" + source + ", restartPolicy=" + options.restartPolicy()
                + ", protocol=" + protocol.describe() + "]";
    }

    /** Builds a {@link ModuleConfig}. Not thread-safe. */
    public static final class Builder {
        private final String id;
        private final ModuleSourceDraft source;
        private final ModuleProtocolDraft protocol;
        private final ModuleOptionsDraft options;

        private Builder(String id, ModuleSourceDraft source, ModuleProtocolDraft protocol, ModuleOptionsDraft options) {
            this.id = id;
            this.source = source;
            this.protocol = protocol;
            this.options = options;
        }

        /** The argv (no shell). */
        public Builder command(String... command) {
            return command(Arrays.asList(Objects.requireNonNull(command, "command")));
        }

        /** The argv (no shell). */
        public Builder command(List<String> command) {
            source.command(command);
            return this;
        }

        /** The working directory; {@code null} for the host's. */
        public Builder workdir(Path workdir) {
            source.workdir(workdir);
            return this;
        }

        /** Adds environment entries (later calls win). */
        public Builder env(Map<String, String> env) {
            Objects.requireNonNull(env, "env").forEach(this::env);
            return this;
        }

        /** Adds one environment entry. */
        public Builder env(String key, String value) {
            source.env(key, value);
            return this;
        }

        /** The restart policy. Default {@link RestartPolicy#ON_FAILURE}. */
        public Builder restartPolicy(RestartPolicy restartPolicy) {
            options.restartPolicy(restartPolicy);
            return this;
        }

        /** The MCP session mode. Default {@link McpSessionMode#PERSISTENT}. */
        public Builder mcpSessionMode(McpSessionMode mcpSessionMode) {
            protocol.sessionMode(mcpSessionMode);
            return this;
        }

        /** This module's startup timeout; must be positive. Default: the runtime's. */
        public Builder startupTimeout(Duration startupTimeout) {
            options.startupTimeout(startupTimeout);
            return this;
        }

        /** This module's default call timeout; must be positive. Default: the runtime's. */
        public Builder callTimeout(Duration callTimeout) {
            options.callTimeout(callTimeout);
            return this;
        }

        /** The grace of each stop step; zero kills at once. Default: the runtime's. Replaces a {@link #shutdownTimeout}. */
        public Builder shutdownGrace(Duration shutdownGrace) {
            options.shutdownGrace(shutdownGrace);
            return this;
        }

        /**
         * The bound of the stop ladder: the waits after closing stdin and after SIGTERM get a third of it each, at least
         * 100 ms; must be positive. Default: the runtime's graces. Replaces a {@link #shutdownGrace}.
         */
        public Builder shutdownTimeout(Duration shutdownTimeout) {
            options.shutdownTimeout(shutdownTimeout);
            return this;
        }

        /** The most calls in flight at once on a persistent MCP connection; at least 1. */
        public Builder maxInFlightCalls(int maxInFlightCalls) {
            options.maxInFlightCalls(maxInFlightCalls);
            return this;
        }

        /**
         * When the module's process starts: at the runtime's startup ({@link StartMode#EAGER}, the default) or at
         * its first call ({@link StartMode#LAZY}; concurrent first calls share one startup).
         */
        public Builder startMode(StartMode startMode) {
            options.startMode(startMode);
            return this;
        }

        /**
         * Stops a {@link StartMode#LAZY} module's child after {@code idleTimeout} with no call in flight (a longer call
         * is never interrupted); the next call starts it again. An idle stop is not a failure: it records no
         * transition and no event. Default: none (the child stays).
         */
        public Builder idleTimeout(Duration idleTimeout) {
            options.idleTimeout(idleTimeout);
            return this;
        }

        /**
         * Makes this a remote MCP module: the runtime connects to the MCP Streamable HTTP endpoint {@code url}
         * ({@code http} or {@code https}) instead of spawning a command, and probes, lists, routes, calls and
         * supervises it as a stdio MCP module (a lost server is a failure; restarting it means connecting and
         * initialising again, with backoff). A remote module is MCP without a pre-spawn marker, keeps one session
         * ({@code PERSISTENT}), and pings its server every 30 s unless {@link #healthCheck(Duration)} says otherwise.
         *
         * @throws ConfigException when {@code url} is not an absolute http(s) URL with a host
         */
        public Builder url(URI url) {
            source.url(url);
            return this;
        }

        /**
         * Adds a header sent with every request to a remote module (e.g. {@code Authorization}); a later one of the
         * same name wins.
         *
         * @throws ConfigException when the name is not an HTTP token, is one the MCP client sets itself, or the
         *                         value has a line break
         */
        public Builder header(String name, String value) {
            source.header(name, value);
            return this;
        }

        /**
         * Pings the module's MCP server every {@code interval} (stdio or remote): a ping not answered within the
         * interval is a miss, and three misses in a row are a failure of the module (it is restarted by its policy).
         * {@link Duration#ZERO} turns pings off. Default: off for a spawned module, 30 s for a remote one.
         */
        public Builder healthCheck(Duration interval) {
            options.healthCheck(interval);
            return this;
        }

        /**
         * The era of MCP this module's server is spoken to in: {@link McpProtocolEra#AUTO} probes each new process
         * (or the remote server) with {@code server/discover} and falls back to {@code initialize};
         * {@link McpProtocolEra#LEGACY} sends {@code initialize} only; {@link McpProtocolEra#MODERN} requires
         * {@code 2026-07-28}. Wins over the runtime's {@link org.metaruntime.mcp.McpClientOptions#protocolEra()}. A
         * server that does not speak a pinned era fails the startup with {@code UnsupportedProtocol}.
         */
        public Builder protocolEra(McpProtocolEra era) {
            protocol.era(era);
            return this;
        }

        /**
         * Declares the module a bare JSON-RPC 2.0 server with these tools: it answers {@code tools/call} requests
         * with {@code {"jsonrpc","id","result"}} and may implement nothing else. Its MCP client runs no handshake,
         * lists no tools (these are its tools) and sends it no notification; an answer that is not a
         * {@code CallToolResult} is wrapped (see {@link ModuleConfig#bareTools()}). The module is served through the
         * MCP boundary whatever its pre-spawn data says. Pair it with no health check: pings are MCP.
         *
         * @throws ConfigException when {@code declaredTools} is empty, or has a null entry or two tools of one name
         */
        public Builder bare(List<McpSchema.Tool> declaredTools) {
            protocol.bare(declaredTools);
            return this;
        }

        /**
         * Declares the tools of a spawned module that may speak MCP or bare JSON-RPC 2.0: {@code initialize} is sent,
         * and an answer that is not an MCP initialize result (a JSON-RPC error, or any other result), or none before
         * the last second of the startup timeout, makes it a bare module with these tools, as {@link #bare(List)} describes; an MCP
         * server is served as MCP (its own tools).
         * Replaces {@link #bare(List)}.
         *
         * @throws ConfigException as {@link #bare(List)}
         */
        public Builder bareUnlessMcp(List<McpSchema.Tool> declaredTools) {
            protocol.bareUnlessMcp(declaredTools);
            return this;
        }

        /**
         * Declares what the module speaks, so that no pre-spawn marker is needed: {@link ModuleProtocol#mcp()} (its
         * session mode and era replace this builder's), {@link ModuleProtocol#eventLine()}, or
         * {@link ModuleProtocol#bare(List)}. Replaces an earlier {@link #bare(List)} or {@link #bareUnlessMcp(List)}.
         *
         * @throws ConfigException as {@link #bare(List)} for declared tools
         */
        public Builder protocol(ModuleProtocol protocol) {
            this.protocol.protocol(protocol);
            return this;
        }

        /**
         * The configuration.
         *
         * @throws ConfigException when an idle timeout is set on an eager module, or a remote module also has a
         *                         command, a workdir, an environment, {@code PER_CALL} sessions, declared bare tools
         *                         or an event-line protocol, or headers are set without a url
         */
        public ModuleConfig build() {
            return new ModuleConfig(id, source.build(), protocol.build(source.remote()), options.build());
        }
    }
}
