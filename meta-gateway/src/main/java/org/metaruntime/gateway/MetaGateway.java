package org.metaruntime.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.metaruntime.gateway.internal.http.HttpServing;
import org.metaruntime.gateway.internal.manifest.Catalog;
import org.metaruntime.gateway.internal.manifest.DeclaredTool;
import org.metaruntime.gateway.internal.manifest.Names;
import org.metaruntime.gateway.internal.manifest.PodManifest;
import org.metaruntime.gateway.internal.serve.GatewayServer;
import org.metaruntime.gateway.internal.serve.CallSettings;
import org.metaruntime.gateway.internal.pipeline.Access;
import org.metaruntime.gateway.internal.pipeline.AuditLog;
import org.metaruntime.gateway.spi.CallListener;
import org.metaruntime.gateway.internal.serve.PodBackends;
import org.metaruntime.gateway.internal.serve.StdioServing;
import java.time.Clock;
import org.metaruntime.gateway.internal.pin.DefinitionPins;
import org.metaruntime.gateway.internal.pin.PinLog;
import org.metaruntime.gateway.internal.serve.Approval;
import org.metaruntime.gateway.internal.trace.GatewayTracer;
import org.metaruntime.gateway.internal.trace.TraceExport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One MCP server for every pod of a set of manifests. Build it from manifest folders (and optionally a
 * Claude Desktop config); {@link Builder#validate()} checks them without starting anything, {@link
 * #serveStdio(InputStream, OutputStream)} starts the pods that start with the gateway and serves MCP.
 * {@link #serveHttp(InetSocketAddress, HttpOptions)} serves it over HTTP to many clients at once. {@link #reload()}
 * applies changed manifests without a restart. {@link #close()} stops every pod. Thread-safe.
 *
 * <pre>{@code
 * ValidationReport report = MetaGateway.builder().manifests(Path.of("examples/manifests")).validate();
 * report.lines().forEach(System.out::println);      // ... ok: 4 pods, 6 tools
 *
 * try (MetaGateway gateway = MetaGateway.builder().manifests(Path.of("examples/manifests")).build()) {
 *     gateway.serveStdio(System.in, System.out).awaitEnd();
 * }
 * }</pre>
 */
public final class MetaGateway implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(MetaGateway.class);

    private final List<Path> folders;
    private final Path claudeConfig;
    private final GatewayOptions options;
    private final Object lock = new Object();
    private final Object reloading = new Object();
    private Catalog catalog;
    private GatewayServer server;
    /** The spans of the server's calls: closed (the last spans flushed) after the server. */
    private GatewayTracer tracer;
    private boolean started;
    private boolean closed;

    private MetaGateway(List<Path> folders, Path claudeConfig, Catalog catalog, GatewayOptions options) {
        this.folders = List.copyOf(folders);
        this.claudeConfig = claudeConfig;
        this.catalog = catalog;
        this.options = options;
    }

    /**
     * Serves MCP over {@code in} / {@code out} (newline-delimited JSON-RPC, UTF-8) on a thread of its own; the
     * first serve starts the pods that start with the gateway. Nothing but JSON-RPC is written to {@code out}.
     */
    public Serving serveStdio(InputStream in, OutputStream out) {
        return StdioServing.start(started(server(List.of())), in, out);
    }

    /**
     * Serves MCP over HTTP on {@code address} (port 0: a free one) with the default {@link HttpOptions}: Streamable
     * HTTP at {@code /mcp}, HTTP+SSE at {@code /sse} and {@code /message}, {@code /healthz} and {@code /metrics}.
     * Returns once it listens; the first serve starts the pods that start with the gateway.
     *
     * @throws IllegalArgumentException when {@code address} is not loopback (a token is then needed)
     * @throws UncheckedIOException when the port cannot be bound
     */
    public Serving serveHttp(InetSocketAddress address) {
        return serveHttp(address, HttpOptions.defaults());
    }

    /**
     * Serves MCP over HTTP on {@code address} with {@code options}. The port is bound before any pod starts. When this
     * is the gateway's first serve, no pod inherits an environment variable holding the token or a named token read from
     * the environment (none ever inherits one named {@code META_GATEWAY_*}).
     *
     * @throws IllegalArgumentException when {@code address} is not loopback and {@code options} checks no credential, or
     *     is a wildcard address and {@code options} has OAuth without a public URL
     * @throws UncheckedIOException when the port cannot be bound
     */
    public Serving serveHttp(InetSocketAddress address, HttpOptions options) {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(options, "options");
        HttpServing.checkAddress(address, options);
        GatewayServer built = server(credentials(options));
        HttpServing serving;
        try {
            serving = HttpServing.start(built, address, options, this.options.eventLog().orElse(null));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        started(built);
        return serving;
    }

    /** The credentials {@code options} hold: the token, and the values of the variables named tokens were read from. */
    private static List<String> credentials(HttpOptions options) {
        List<String> credentials = new java.util.ArrayList<>();
        options.token().ifPresent(credentials::add);
        for (org.metaruntime.gateway.spi.Authenticator authenticator : options.authenticators()) {
            if (authenticator instanceof org.metaruntime.gateway.internal.auth.NamedTokens named) {
                for (String variable : named.variables()) {
                    String value = System.getenv(variable);
                    if (value != null && !value.isEmpty()) {
                        credentials.add(value);
                    }
                }
            }
        }
        return credentials;
    }

    /** The status report: {@code {"pods":{"<name>":{"state","pid","restarts",...}}}}. */
    public JsonNode status() {
        return started(server(List.of())).status();
    }

    /**
     * The server, built at the first serve (nothing started yet).
     *
     * @param credentials the gateway's own credentials, which no pod's environment may hold
     */
    private GatewayServer server(List<String> credentials) {
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("the gateway is closed");
            }
            if (server == null) {
                TraceExport export = TraceExport.resolve(options.traceExporter().orElse(null), options.otlpEndpoint().orElse(null),
                        System.getenv());
                tracer = GatewayTracer.create(export.exporter(), export.serviceName());
                DefinitionPins pins = new DefinitionPins(new PinLog(options.eventLog().orElse(null), Clock.systemUTC()));
                server = new GatewayServer(catalog, PodBackends.create(catalog, options, credentials), options.maxCallDepth(),
                        callSettings(options).withTracer(tracer).withDefinitions(pins), pins);
            }
            return server;
        }
    }

    /** What every call passes besides the pods: the policy, and the listeners (the audit first when there is a log). */
    private static CallSettings callSettings(GatewayOptions options) {
        List<CallListener> listeners = new ArrayList<>();
        options.eventLog().ifPresent(log -> listeners.add(new AuditLog(log, System::currentTimeMillis)));
        listeners.addAll(options.callListeners());
        return CallSettings.defaults()
                .withAccess(new Access(options.policy().document(), options.localProfile().orElse(null)))
                .withListeners(listeners, options.auditArguments());
    }

    /**
     * Reads the manifest folders (and the Claude Desktop config) again and serves what they declare now, without a
     * restart and keeping every client session: a pod they add is served (started now when it starts with the
     * gateway); a pod they no longer declare takes no new call and is stopped once its calls in flight end; a pod
     * whose manifest changed (in anything but where it is written) is stopped the same way, and its new manifest
     * serves the new calls. Clients get {@code notifications/tools/list_changed} when the tool list changed. When a
     * manifest is invalid nothing changes: every problem is logged as {@code file:line: message} and is in the
     * report. Reloads are serialised.
     *
     * @return what reading the manifests found (the pods served now, or the problems)
     * @throws IllegalStateException when the gateway is closed
     */
    public ValidationReport reload() {
        synchronized (reloading) {
            Catalog next = Catalog.load(folders, claudeConfig, options.separator(), false);
            ValidationReport report = report(next);
            if (!report.valid()) {
                log.warn("the manifests were not reloaded: {} problem(s); the pods served stay as they were", report.problems().size());
                report.problems().forEach(problem -> log.warn("{}", problem));
                return report;
            }
            GatewayServer running;
            synchronized (lock) {
                if (closed) {
                    throw new IllegalStateException("the gateway is closed");
                }
                catalog = next;
                running = server;
            }
            if (running != null) {
                running.reload(next);
            }
            return report;
        }
    }

    /** Starts the pods that start with the gateway, once. */
    private GatewayServer started(GatewayServer built) {
        synchronized (lock) {
            if (!started) {
                started = true;
                built.start();
            }
            return built;
        }
    }

    /** Stops every pod (each within its shutdown timeout) and ends every session. Idempotent. */
    @Override
    public void close() {
        GatewayServer running;
        GatewayTracer spans;
        synchronized (lock) {
            closed = true;
            running = server;
            spans = tracer;
        }
        if (running != null) {
            running.close();
        }
        if (spans != null) {
            spans.close();
        }
    }

    /** A builder without manifests. */
    public static Builder builder() {
        return new Builder();
    }

    /** The options it was built with. */
    public GatewayOptions options() {
        return options;
    }

    /** The names of its pods, in name order. */
    public List<String> pods() {
        synchronized (lock) {
            return catalog.pods().stream().map(PodManifest::name).toList();
        }
    }

    static ValidationReport report(Catalog catalog) {
        Map<String, String> hashes = new LinkedHashMap<>();
        Map<String, String> definitions = new LinkedHashMap<>();
        for (PodManifest pod : catalog.pods()) {
            for (DeclaredTool tool : pod.tools()) {
                String outward = Names.outward(pod.name(), catalog.separator(), tool.name());
                hashes.put(outward, tool.schemaHash());
                definitions.put(outward, tool.definitionHash());
            }
        }
        return new ValidationReport(catalog.problems(), catalog.pods().size(), catalog.declaredTools(), hashes, definitions);
    }

    /** Builds a {@link MetaGateway}. Not thread-safe. */
    public static final class Builder {
        private final List<Path> folders = new ArrayList<>();
        private Path claudeConfig;
        private GatewayOptions options = GatewayOptions.defaults();

        private Builder() {
        }

        /** Adds manifest folders: every {@code *.yaml} and {@code *.yml} file in each is one pod. */
        public Builder manifests(Path... folders) {
            for (Path folder : folders) {
                this.folders.add(Objects.requireNonNull(folder, "folder"));
            }
            return this;
        }

        /** Adds the servers of a Claude Desktop config file ({@code mcpServers}) as pods. */
        public Builder claudeConfig(Path file) {
            this.claudeConfig = Objects.requireNonNull(file, "file");
            return this;
        }

        /** Sets the options. */
        public Builder options(GatewayOptions options) {
            this.options = Objects.requireNonNull(options, "options");
            return this;
        }

        /**
         * Checks every manifest and the config, and that each pod's program can be found and executed; starts
         * nothing.
         */
        public ValidationReport validate() {
            return report(catalog(true));
        }

        /**
         * Approves the live definition of {@code pod}'s tool {@code tool}: starts that pod alone, lists its tools,
         * records the tool's definition as its pin (a {@code gateway.tool_approved} event in the options' event log)
         * and stops the pod. A gateway started later with the same event log serves the tool as long as its
         * definition stays the approved one.
         *
         * @param pod  the pod's name
         * @param tool the pod's own name of the tool
         * @return the definition hash recorded ({@code sha256:...})
         * @throws IllegalStateException when the options have no event log
         * @throws ManifestException when a manifest is invalid
         * @throws IllegalArgumentException when the pod cannot start or does not list the tool, or the tool has an
         *                                  explicit pin in its manifest (the message gives the live hash to put there)
         */
        public String approve(String pod, String tool) {
            Objects.requireNonNull(pod, "pod");
            Objects.requireNonNull(tool, "tool");
            if (options.eventLog().isEmpty()) {
                throw new IllegalStateException("approving a tool records its pin in the event log: set GatewayOptions.eventLog");
            }
            Catalog catalog = catalog(false);
            if (!catalog.problems().isEmpty()) {
                throw new ManifestException(catalog.problems());
            }
            try {
                String hash = Approval.approve(catalog, options, new PinLog(options.eventLog().get(), Clock.systemUTC()), pod, tool);
                log.info("approved {}/{} {}", pod, tool, hash);
                return hash;
            } catch (Approval.Refused e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
        }

        /**
         * Reads and checks the manifests; starts nothing.
         *
         * @throws ManifestException with every problem when one is invalid
         */
        public MetaGateway build() {
            Catalog catalog = catalog(false);
            if (!catalog.problems().isEmpty()) {
                throw new ManifestException(catalog.problems());
            }
            return new MetaGateway(folders, claudeConfig, catalog, options);
        }

        private Catalog catalog(boolean checkPrograms) {
            if (folders.isEmpty() && claudeConfig == null) {
                throw new IllegalStateException("give manifest folders or a Claude Desktop config");
            }
            return Catalog.load(folders, claudeConfig, options.separator(), checkPrograms);
        }
    }
}
