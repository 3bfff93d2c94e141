package org.metaruntime.gateway.internal.http;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.http.pathmap.PathSpec;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.server.handler.PathMappingsHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.metaruntime.gateway.Authenticators;
import org.metaruntime.gateway.HttpOptions;
import org.metaruntime.events.EventLog;
import org.metaruntime.gateway.internal.auth.AuthChain;
import org.metaruntime.gateway.internal.cluster.Replicas;
import org.metaruntime.gateway.internal.console.ConsoleApi;
import org.metaruntime.gateway.internal.console.ConsoleFiles;
import org.metaruntime.gateway.internal.auth.Challenge;
import org.metaruntime.gateway.internal.auth.ProtectedResource;
import org.metaruntime.gateway.internal.cluster.ClusterKey;
import org.metaruntime.gateway.internal.cluster.Forwarder;
import org.metaruntime.gateway.internal.cluster.CurrentReplicas;
import org.metaruntime.gateway.internal.cluster.ReplicaRegistry;
import org.metaruntime.gateway.internal.cluster.SharedSessions;
import org.metaruntime.gateway.spi.Authenticator;
import org.metaruntime.gateway.spi.Principal;
import org.metaruntime.gateway.internal.manifest.Durations;
import org.metaruntime.gateway.internal.serve.GatewayServer;
import org.metaruntime.gateway.internal.serve.GatewayTasks;
import org.metaruntime.gateway.internal.serve.ServingBase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway over HTTP on one port: Streamable HTTP at {@code /mcp}, HTTP+SSE at {@code /sse} and
 * {@code /message}, {@code /healthz}, {@code /metrics}, the operator console at {@code /console}, the OAuth protected resource metadata and the host's extra
 * handlers, all behind the {@link AccessCheck}. {@link #close()} stops accepting, lets calls in flight finish within the shutdown
 * timeout, cancels the rest and stops the server. Thread-safe.
 */
public final class HttpServing extends ServingBase {

    private static final Logger log = LoggerFactory.getLogger(HttpServing.class);

    /** The system property that sets {@link #THREAD_IDLE_TIMEOUT}. */
    static final String THREAD_IDLE_TIMEOUT_PROPERTY = "meta.gateway.httpThreadIdleTimeout";
    /** The most threads serving HTTP. */
    static final int MAX_THREADS = 256;
    /**
     * How many connections the system queues for the gateway to accept (the listening socket's backlog, capped by
     * {@code net.core.somaxconn}). The JDK's default of 50 overflows under a burst of new clients, and Linux then
     * answers the excess with SYN cookies, some of which fail under load and reset the client's connection.
     */
    static final int ACCEPT_QUEUE = 1024;
    /**
     * How long a thread serving HTTP stays without work before it ends (down to a few): 10 s, or the duration of the
     * system property {@value #THREAD_IDLE_TIMEOUT_PROPERTY} (such as {@code 2s}; the tests that wait for it set it).
     */
    static final Duration THREAD_IDLE_TIMEOUT = Durations.parse(System.getProperty(THREAD_IDLE_TIMEOUT_PROPERTY, ""))
            .orElse(Duration.ofSeconds(10));

    private final Server jetty;
    private final ServerConnector connector;
    private final SessionRegistry sessions;
    private final Duration shutdownTimeout;
    private final AtomicBoolean closing = new AtomicBoolean();
    private final GatewayMetrics metrics;
    private final ConnectionWatch watches;
    private final GatewayServer server;
    private final HttpOptions options;
    private final AccessCheck access;
    private final ResourceMetadata resourceMetadata;
    /** A single process until {@link #joinCluster}. */
    private final CurrentReplicas replicas = new CurrentReplicas(Replicas.single("local"));
    private final HealthAndMetrics health;
    private final StreamableHttp mcp;
    private final ForwardedMcp forwarded;

    private HttpServing(GatewayServer server, InetSocketAddress address, HttpOptions options, Predicate<Principal> isAdmin,
                        EventLog auditLog) throws IOException {
        this.server = server;
        this.options = options;
        this.shutdownTimeout = options.shutdownTimeout();
        this.sessions = new SessionRegistry(options.sessionIdleTimeout(), options.keepAlive(), server.nanoClock());
        QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS, 4, (int) THREAD_IDLE_TIMEOUT.toMillis());
        // After a burst, every thread idle that long ends (Jetty's default lets one go per idle timeout).
        threads.setMaxEvictCount(MAX_THREADS);
        threads.setName("meta-gateway-http");
        threads.setDaemon(true);
        this.jetty = new Server(threads);
        HttpConfiguration config = new HttpConfiguration();
        config.setSendServerVersion(false);
        config.setSendDateHeader(false);
        // A connection's header cache must not hand back a field seen before for one that differs in case: the token
        // in Authorization is compared exactly.
        config.setHeaderCacheCaseSensitive(true);
        this.connector = new ServerConnector(jetty, 1, 1, new HttpConnectionFactory(config));
        connector.setHost(address.getHostString());
        connector.setPort(address.getPort());
        connector.setIdleTimeout(Math.max(60_000, options.keepAlive().toMillis() * 4));
        connector.setAcceptedTcpNoDelay(true);
        connector.setAcceptQueueSize(ACCEPT_QUEUE);
        jetty.addConnector(connector);

        this.watches = new ConnectionWatch(threads);
        jetty.addBean(watches); // the host's handlers with streams watch their connections too
        this.metrics = new GatewayMetrics(server, sessions);
        this.health = new HealthAndMetrics(server, sessions, metrics);
        LegacySse legacy = new LegacySse(server, sessions, options.maxRequestBytes(), watches);
        PathMappingsHandler paths = new PathMappingsHandler();
        this.mcp = new StreamableHttp(server, sessions, options.maxRequestBytes(), watches, options.checksCredentials());
        this.forwarded = new ForwardedMcp(mcp, options.maxRequestBytes());
        paths.addMapping(PathSpec.from("/mcp"), mcp);
        paths.addMapping(PathSpec.from(Forwarder.PATH), forwarded);
        paths.addMapping(PathSpec.from("/sse"), legacy);
        paths.addMapping(PathSpec.from("/message"), legacy);
        paths.addMapping(PathSpec.from(AccessCheck.HEALTH_PATH), health);
        paths.addMapping(PathSpec.from("/metrics"), health);
        this.resourceMetadata = new ResourceMetadata();
        paths.addMapping(PathSpec.from(ProtectedResource.PATH), resourceMetadata);
        paths.addMapping(PathSpec.from(ProtectedResource.MCP_PATH), resourceMetadata);
        paths.addMapping(PathSpec.from(ConsoleApi.PATH + "/*"),
                ConsoleApi.create(server.view(), auditLog, replicas, server::observeCalls));
        paths.addMapping(PathSpec.from(ConsoleFiles.PATH + "/*"), new ConsoleFiles());
        for (Map.Entry<String, Handler> extra : options.handlers().entrySet()) {
            paths.addMapping(PathSpec.from(extra.getKey()), extra.getValue());
        }
        this.access = new AccessCheck(options.allowedOrigins(), isAdmin, paths);
        jetty.setHandler(access);
        ErrorHandler errors = new ErrorHandler();
        errors.setShowStacks(false);
        errors.setShowMessageInTitle(false);
        jetty.setErrorHandler(errors);
        jetty.setStopTimeout(1000);
    }

    /**
     * Serves {@code server} on {@code address} (port 0: a free one); returns once it listens. The caller has checked
     * {@link #checkAddress} before starting the server's pods. Only the server's admins may read {@code /metrics} and
     * the event log.
     *
     * @throws IOException when the port cannot be bound
     */
    public static HttpServing start(GatewayServer server, InetSocketAddress address, HttpOptions options) throws IOException {
        return start(server, address, options, null);
    }

    /**
     * As {@link #start(GatewayServer, InetSocketAddress, HttpOptions)}, with the console at {@code /console} showing the
     * calls audited in {@code auditLog} (null: none) and, once it joined a cluster, the replicas.
     *
     * @throws IOException when the port cannot be bound
     */
    public static HttpServing start(GatewayServer server, InetSocketAddress address, HttpOptions options, EventLog auditLog)
            throws IOException {
        return start(new HttpServing(server, address, options, server::admin, auditLog));
    }

    /** Answers modern clients' long calls with task handles of {@code tasks} ({@code --task-after}). */
    public void offerTasks(GatewayTasks tasks) {
        server.offerTasks(tasks);
    }

    /**
     * Joins the cluster of {@code registry}: {@code /healthz} is ready only while the replica is registered, and the
     * legacy Streamable HTTP sessions are kept in {@code shared} too; retries and cancellations of calls that run on
     * another replica are forwarded there, signed with {@code key}, and its {@code requestState}s name this replica.
     */
    public void joinCluster(ReplicaRegistry registry, SharedSessions shared, ClusterKey key) {
        Forwarder forwarder = new Forwarder(registry, key, java.time.Clock.systemUTC());
        server.joinCluster(registry.self(), key.derive("requestState"));
        health.cluster(registry);
        replicas.set(registry);
        sessions.share(shared);
        mcp.forwardWith(forwarder);
        forwarded.forwardWith(forwarder);
    }

    /**
     * The rules of where the gateway may serve: only a loopback address (a name is resolved) without a credential, and
     * a wildcard address with OAuth only with a public URL (the resource URL cannot be the one it listens on).
     *
     * @throws IllegalArgumentException when {@code options} break one
     */
    public static void checkAddress(InetSocketAddress address, HttpOptions options) {
        if (!options.checksCredentials() && !isLoopback(address)) {
            throw new IllegalArgumentException("serving on " + address.getHostString()
                    + " needs a credential (only loopback addresses may serve without one)");
        }
        if (options.oauth().isPresent() && options.publicUrl().isEmpty() && isWildcard(address)) {
            throw new IllegalArgumentException("serving OAuth on the wildcard address " + address.getHostString()
                    + " needs a public URL (the resource URL clients use)");
        }
    }

    /** Whether {@code address} is a wildcard address ({@code 0.0.0.0}, {@code ::}). */
    public static boolean isWildcard(InetSocketAddress address) {
        InetAddress resolved = address.getAddress();
        return resolved != null && resolved.isAnyLocalAddress();
    }

    /** The authenticators in the order they are asked: the single token, the host's, OAuth. */
    private AuthChain chain(URI resource) {
        List<Authenticator> authenticators = new ArrayList<>();
        options.token().ifPresent(token -> authenticators.add(Authenticators.staticToken(token)));
        authenticators.addAll(options.authenticators());
        Challenge challenge = Challenge.PLAIN;
        if (options.oauth().isPresent()) {
            ProtectedResource protectedResource = new ProtectedResource(resource, options.oauth().get());
            authenticators.add(Authenticators.oauth(options.oauth().get(), resource));
            resourceMetadata.serve(protectedResource.document());
            challenge = protectedResource.challenge();
        }
        return new AuthChain(authenticators, challenge);
    }

    @Override
    protected void begin() throws IOException {
        watches.start();
        try {
            // Bound first, so that the resource URL names the port; then the credentials, then requests come in.
            connector.open();
            access.authenticateWith(chain(options.publicUrl().orElse(URI.create(url()))));
            jetty.start();
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("cannot serve on " + host() + ":" + connector.getPort() + ": " + e.getMessage(), e);
        }
    }

    @Override
    protected void release() {
        sessions.close();
        watches.close();
        metrics.close();
        try {
            jetty.stop();
        } catch (Exception e) {
            log.debug("stopping the HTTP server that did not start: {}", e.toString());
        }
    }

    /** Whether {@code address} is a loopback address (a name is resolved). */
    private static boolean isLoopback(InetSocketAddress address) {
        InetAddress resolved = address.getAddress();
        if (resolved != null) {
            return resolved.isLoopbackAddress();
        }
        return AccessCheck.isLoopback(address.getHostString());
    }

    @Override
    public int port() {
        return connector.getLocalPort();
    }

    /** The host it is bound to, as given. */
    public String host() {
        return connector.getHost();
    }

    /** The URL of its Streamable HTTP endpoint (an IPv6 address in its short form: {@code http://[::1]:3000/mcp}). */
    public String url() {
        return "http://" + urlHost(host()) + ":" + port() + "/mcp";
    }

    /** {@code host} as a URL names it: an IPv6 address in brackets, in its shortest form (RFC 5952). */
    static String urlHost(String host) {
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (!h.contains(":")) {
            return host;
        }
        int percent = h.indexOf('%');
        String zone = percent < 0 ? "" : h.substring(percent);
        String address = percent < 0 ? h : h.substring(0, percent);
        byte[] bytes;
        try {
            bytes = InetAddress.getByName(address).getAddress();
        } catch (java.net.UnknownHostException e) {
            return "[" + h + "]";
        }
        if (bytes.length != 16) {
            return "[" + h + "]";
        }
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = ((bytes[2 * i] & 0xff) << 8) | (bytes[2 * i + 1] & 0xff);
        }
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; i++) {
            int length = 0;
            while (i + length < 8 && groups[i + length] == 0) {
                length++;
            }
            if (length > bestLength) {
                bestStart = i;
                bestLength = length;
            }
        }
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                out.append("::");
                i += bestLength - 1;
                continue;
            }
            if (out.length() > 1 && out.charAt(out.length() - 1) != ':') {
                out.append(':');
            }
            out.append(Integer.toHexString(groups[i]));
        }
        return out.append(zone).append(']').toString();
    }

    /** Stops accepting sessions, waits for calls in flight (bounded by the shutdown timeout), ends every session, stops. */
    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            try {
                awaitEnd();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return;
        }
        try {
            sessions.stopAccepting();
            server.endListenStreams();
            int left = sessions.awaitCallsEnded(shutdownTimeout);
            if (left > 0) {
                log.info("{} calls still in flight after {} ms: cancelling them", left, shutdownTimeout.toMillis());
            }
            sessions.close();
            jetty.stop();
            watches.close();
            metrics.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            log.warn("stopping the HTTP server failed", e);
        } finally {
            ended();
        }
    }
}
