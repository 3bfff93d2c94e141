package org.metaruntime.gateway.internal.cluster;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Sends a client's request on to the replica that owns what it is about, at {@link #PATH} on that replica, signed
 * with the cluster key ({@link ClusterKey}): the owner checks the signature, then serves the request as its own
 * {@code /mcp} would (the client's own headers, its credential included, go along). Thread-safe.
 */
public final class Forwarder {

    /** Where replicas send each other the requests they forward. */
    public static final String PATH = "/meta/cluster/mcp";
    /** The longest wait for the owner to accept the connection. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(3);

    private final Replicas replicas;
    private final ClusterKey key;
    private final Clock clock;
    private final HttpClient http;

    /** Forwards among {@code replicas}, signing with {@code key} at {@code clock}'s time. */
    public Forwarder(Replicas replicas, ClusterKey key, Clock clock) {
        this.replicas = Objects.requireNonNull(replicas, "replicas");
        this.key = Objects.requireNonNull(key, "key");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(CONNECT_TIMEOUT).build();
    }

    /** The id of this replica. */
    public String self() {
        return replicas.self();
    }

    /** The ids of the other live replicas. */
    public java.util.List<String> others() {
        return replicas.live().stream().map(Replica::id).filter(id -> !id.equals(replicas.self())).toList();
    }

    /**
     * POSTs {@code body} with {@code headers} to replica {@code owner}; the answer, or empty when the owner is gone
     * (not live, or not answering).
     */
    public CompletableFuture<Optional<HttpResponse<byte[]>>> forward(String owner, byte[] body, Map<String, String> headers) {
        Optional<URI> base = replicas.urlOf(owner);
        if (base.isEmpty()) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
        long now = clock.millis();
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base.get().toString().replaceAll("/+$", "") + PATH))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .header(ClusterKey.TIMESTAMP_HEADER, Long.toString(now))
                .header(ClusterKey.SIGNATURE_HEADER, key.sign("POST", PATH, now, body))
                .header(ClusterKey.REPLICA_HEADER, replicas.self());
        headers.forEach(request::header);
        return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofByteArray())
                .handle((response, failure) -> failure == null ? Optional.of(response) : Optional.<HttpResponse<byte[]>>empty());
    }

    /** Whether a request that reached {@link #PATH} carries a valid, fresh signature. */
    public boolean verify(String method, String path, String timestamp, String signature, byte[] body) {
        return key.verify(method, path, timestamp, signature, body, clock.millis());
    }
}
