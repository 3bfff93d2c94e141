package org.metaruntime.gateway.internal.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyType;
import com.nimbusds.jose.jwk.KeyUse;
import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.metaruntime.supervisor.Deadline;
import org.metaruntime.supervisor.internal.DaemonThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An issuer's signing keys: its metadata discovered (RFC 8414, then OpenID Connect discovery; the document's
 * {@code issuer} must equal the issuer exactly), its JWKS fetched and cached. The keys are fetched again for a key id
 * not in the cache, at most once every {@link #REFETCH_INTERVAL}; while the issuer was never reached, discovery is
 * tried again at the same pace. Every fetch (discovery and JWKS together) is bounded by {@link #FETCH_BOUND}, and only
 * one is in flight: callers arriving meanwhile wait for it (bounded too), then use what it found. Thread-safe.
 */
public final class IssuerKeys {

    private static final Logger log = LoggerFactory.getLogger(IssuerKeys.class);

    /** The longest a discovery or JWKS fetch may take. */
    public static final Duration FETCH_BOUND = Duration.ofSeconds(5);
    /** The least time between two fetches. */
    public static final Duration REFETCH_INTERVAL = Duration.ofSeconds(5);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Reads a URL. */
    @FunctionalInterface
    public interface Fetcher {
        /**
         * The body of a 200 answer to {@code GET uri}, within {@code timeout}.
         *
         * @throws IOException on any other answer, a failure, or when the time is up
         */
        String get(URI uri, Duration timeout) throws IOException;
    }

    /** Thrown while the issuer's keys were never fetched: the request gets 503. */
    public static final class Unavailable extends Exception {
        private static final long serialVersionUID = 1L;

        Unavailable(String message) {
            super(message, null, false, false);
        }
    }

    private final URI issuer;
    private final Clock clock;
    private final Fetcher fetcher;
    private final AtomicReference<CompletableFuture<Void>> inFlight = new AtomicReference<>();
    private volatile URI jwksUri;
    private volatile JWKSet keys;
    private volatile long nextFetchMillis = Long.MIN_VALUE;

    public IssuerKeys(URI issuer, Clock clock, Fetcher fetcher) {
        this.issuer = issuer;
        this.clock = clock;
        this.fetcher = fetcher;
    }

    /** The keys of {@code issuer} fetched over HTTP(S) with the JDK's client. */
    public static IssuerKeys overHttp(URI issuer, Clock clock) {
        return new IssuerKeys(issuer, clock, new HttpFetcher());
    }

    /** Starts the first discovery on a thread of its own (the gateway does not wait for the issuer to start). */
    public void discoverInBackground() {
        DaemonThreads.thread("meta-gateway-oauth-discovery", this::refresh).start();
    }

    /** Whether the keys were fetched at least once. */
    public boolean reached() {
        return keys != null;
    }

    /**
     * The keys that may have signed a token with this {@code kid} (null: none) and {@code alg}: by {@code kid}, else by
     * key type and algorithm. A {@code kid} not in the cache makes the keys be fetched again (at most once every
     * {@link #REFETCH_INTERVAL}). Empty: no such key.
     *
     * @throws Unavailable while the issuer's keys were never fetched
     */
    public List<JWK> candidates(String kid, JWSAlgorithm alg) throws Unavailable {
        if (keys == null) {
            refresh();
            if (keys == null) {
                throw new Unavailable("the keys of issuer " + issuer + " were never fetched");
            }
        }
        List<JWK> found = select(keys, kid, alg);
        if (found.isEmpty()) {
            refresh();
            found = select(keys, kid, alg);
        }
        return found;
    }

    private static List<JWK> select(JWKSet set, String kid, JWSAlgorithm alg) {
        KeyType type = JWSAlgorithm.Family.RSA.contains(alg) ? KeyType.RSA : KeyType.EC;
        List<JWK> out = new ArrayList<>();
        for (JWK key : set.getKeys()) {
            boolean byId = kid == null || kid.equals(key.getKeyID());
            boolean usable = key.getKeyType().equals(type)
                    && (key.getAlgorithm() == null || key.getAlgorithm().equals(alg))
                    && (key.getKeyUse() == null || key.getKeyUse().equals(KeyUse.SIGNATURE));
            if (byId && usable) {
                out.add(key);
            }
        }
        return out;
    }

    /**
     * Fetches the keys (and the metadata first when it is not known yet), unless a fetch happened less than
     * {@link #REFETCH_INTERVAL} ago. When one is in flight, waits for it instead (bounded).
     */
    void refresh() {
        CompletableFuture<Void> mine = new CompletableFuture<>();
        CompletableFuture<Void> running = inFlight.compareAndExchange(null, mine);
        if (running != null) {
            await(running);
            return;
        }
        try {
            long now = clock.millis();
            if (now < nextFetchMillis) {
                return;
            }
            nextFetchMillis = now + REFETCH_INTERVAL.toMillis();
            fetch();
        } finally {
            inFlight.set(null);
            mine.complete(null);
        }
    }

    private static void await(CompletableFuture<Void> running) {
        try {
            running.get(FETCH_BOUND.toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // the fetch failed or is late: the caller answers with what is cached
        }
    }

    private void fetch() {
        Deadline deadline = Deadline.after(FETCH_BOUND);
        boolean first = keys == null;
        try {
            URI uri = jwksUri;
            if (uri == null) {
                uri = discover(deadline);
                jwksUri = uri;
            }
            JWKSet set = JWKSet.parse(fetcher.get(uri, remaining(deadline)));
            keys = set;
            log.info("issuer {}: {} keys fetched from {}", issuer, set.getKeys().size(), uri);
        } catch (IOException | java.text.ParseException | RuntimeException e) {
            if (first) {
                log.warn("issuer {} cannot be reached ({}); requests with a token are answered 503 until it can", issuer,
                        e.getMessage());
            } else {
                log.warn("issuer {}: fetching its keys again failed ({}); the cached keys stay", issuer, e.getMessage());
            }
        }
    }

    /** The {@code jwks_uri} of the first metadata document whose {@code issuer} is exactly the issuer. */
    private URI discover(Deadline deadline) throws IOException {
        List<String> failures = new ArrayList<>();
        for (URI document : metadataUrls(issuer)) {
            try {
                JsonNode metadata = JSON.readTree(fetcher.get(document, remaining(deadline)));
                if (!metadata.isObject() || !issuer.toString().equals(metadata.path("issuer").asText(null))) {
                    failures.add(document + " names another issuer");
                    continue;
                }
                String jwks = metadata.path("jwks_uri").asText(null);
                if (jwks == null) {
                    failures.add(document + " has no jwks_uri");
                    continue;
                }
                return URI.create(jwks);
            } catch (IOException | IllegalArgumentException e) {
                failures.add(document + ": " + e.getMessage());
            }
        }
        throw new IOException("no metadata: " + String.join("; ", failures));
    }

    /** RFC 8414's URL (the well-known part inserted before the issuer's path), then OpenID Connect's. */
    static List<URI> metadataUrls(URI issuer) {
        String path = issuer.getRawPath() == null ? "" : issuer.getRawPath();
        String trimmed = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        String origin = issuer.getScheme() + "://" + issuer.getRawAuthority();
        String whole = issuer.toString();
        String base = whole.endsWith("/") ? whole.substring(0, whole.length() - 1) : whole;
        return List.of(URI.create(origin + "/.well-known/oauth-authorization-server" + trimmed),
                URI.create(base + "/.well-known/openid-configuration"));
    }

    private static Duration remaining(Deadline deadline) throws IOException {
        Duration left = deadline.remaining();
        if (left.isZero()) {
            throw new IOException("no answer within " + FETCH_BOUND.toSeconds() + " s");
        }
        return left;
    }
}
