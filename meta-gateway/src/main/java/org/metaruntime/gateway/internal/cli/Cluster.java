package org.metaruntime.gateway.internal.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.metaruntime.gateway.internal.cluster.ClusterKey;
import org.metaruntime.gateway.internal.cluster.ReplicaIds;
import org.metaruntime.gateway.internal.cluster.ReplicaRegistry;
import org.metaruntime.gateway.internal.cluster.SharedSessions;
import org.metaruntime.gateway.internal.cluster.SharedTasks;
import org.metaruntime.gateway.internal.cluster.TaskStore;
import org.metaruntime.gateway.internal.http.HttpServing;
import org.metaruntime.supervisor.internal.DaemonThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This gateway as a replica of a cluster ({@code --state jdbc:postgresql://...} over HTTP): its id, the shared
 * database and key, and once it serves its registration and heartbeat. The advertised URL is {@code --advertise-url},
 * else {@code http://HOST:PORT} of the address it listens on (the machine's host name for a wildcard host).
 */
final class Cluster implements AutoCloseable {

    /** How often the idle sessions of the cluster are removed from the database. */
    static final Duration SWEEP = Duration.ofMinutes(1);
    private static final Logger log = LoggerFactory.getLogger(Cluster.class);

    private final String replicaId = ReplicaIds.next();
    private final DataSource database;
    private final ClusterKey key;
    private final URI advertiseUrl;
    private final ScheduledExecutorService heartbeats;
    private ReplicaRegistry registry;
    private SharedSessions shared;

    private Cluster(DataSource database, ClusterKey key, URI advertiseUrl) {
        this.database = database;
        this.key = key;
        this.advertiseUrl = advertiseUrl;
        this.heartbeats = DaemonThreads.timer("meta-gateway-heartbeat");
    }

    /**
     * The cluster of {@code line}, in {@code database}.
     *
     * @throws IllegalArgumentException when the cluster key file cannot be read or is too short (the message says so,
     *                                  without the key)
     */
    static Cluster of(CommandLine line, DataSource database) {
        if (line.clusterKeyFile() == null) {
            throw new IllegalArgumentException("--state jdbc:postgresql://... makes this gateway a replica of a cluster:"
                    + " give --cluster-key-file FILE (the key shared by every replica)");
        }
        ClusterKey key;
        try {
            key = ClusterKey.read(line.clusterKeyFile());
        } catch (IOException e) {
            throw new IllegalArgumentException("--cluster-key-file " + line.clusterKeyFile() + " cannot be read: "
                    + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--cluster-key-file " + line.clusterKeyFile() + ": " + e.getMessage(), e);
        }
        return new Cluster(database, key, line.advertiseUrl());
    }

    String replicaId() {
        return replicaId;
    }

    DataSource database() {
        return database;
    }

    ClusterKey key() {
        return key;
    }

    /**
     * Registers this replica (serving on {@code serving}, whose sessions expire after {@code idleTimeout}), starts its
     * heartbeat and shares its legacy sessions; the sessions of gone replicas are swept once they are idle too.
     */
    synchronized void join(HttpServing serving, Duration idleTimeout) {
        URI url = advertiseUrl != null ? advertiseUrl : derived(serving);
        registry = new ReplicaRegistry(database, replicaId, url);
        shared = new SharedSessions(database, idleTimeout);
        SharedSessions sessions = shared;
        serving.joinCluster(registry, sessions, key);
        registry.register();
        registry.start(heartbeats);
        long sweep = SWEEP.toMillis();
        heartbeats.scheduleWithFixedDelay(() -> {
            try {
                sessions.sweep();
            } catch (RuntimeException e) {
                log.debug("sweeping the idle shared sessions failed: {}", e.getMessage());
            }
        }, sweep, sweep, TimeUnit.MILLISECONDS);
    }

    /** The gateway's own tasks in the shared database, kept for {@code ttl} once finished; after {@link #join}. */
    synchronized TaskStore tasks(Duration ttl) {
        return new SharedTasks(shared, ttl);
    }

    /** The replicas as this one sees them, once it serves; null before. */
    synchronized ReplicaRegistry registry() {
        return registry;
    }

    /** Leaves the cluster: stops the heartbeat and removes this replica from the database. */
    @Override
    public synchronized void close() {
        if (registry != null) {
            registry.close();
        }
        heartbeats.shutdownNow();
        if (shared != null) {
            shared.close();
        }
    }

    static URI derived(HttpServing serving) {
        String host = serving.host();
        if (HttpServing.isWildcard(new InetSocketAddress(host, 0))) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                host = "localhost";
            }
        }
        URI mcp = URI.create("http://" + host + ":" + serving.port() + "/mcp");
        return URI.create("http://" + mcp.getRawAuthority());
    }
}
