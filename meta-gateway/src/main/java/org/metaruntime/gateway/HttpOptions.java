package org.metaruntime.gateway;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.eclipse.jetty.server.Handler;
import org.metaruntime.gateway.spi.Authenticator;
import org.metaruntime.supervisor.InvalidOptionException;
import org.metaruntime.supervisor.internal.OptionChecks;

/**
 * How a gateway serves over HTTP: who may call (the single bearer token, the host's {@link Authenticator}s such as
 * {@link Authenticators#namedTokens named tokens}, an OAuth 2.1 issuer), the browser origins it accepts besides loopback ones, the
 * bound of request bodies, when idle sessions expire, and extra endpoints served behind the same checks.
 * Immutable and thread-safe; build with {@link #builder()}.
 *
 * <pre>{@code
 * HttpOptions options = HttpOptions.builder()
 *         .token(System.getenv("META_GATEWAY_TOKEN"))          // every request: Authorization: Bearer <token>
 *         .allowOrigin("https://console.example.com")
 *         .build();
 * Serving serving = gateway.serveHttp(new InetSocketAddress("0.0.0.0", 3000), options);
 * }</pre>
 */
public final class HttpOptions {

    /** Default bound of a request body: 4 MiB. */
    public static final long DEFAULT_MAX_REQUEST_BYTES = 4L * 1024 * 1024;
    /** Default time after which a session without requests or open streams expires: 30 minutes. */
    public static final Duration DEFAULT_SESSION_IDLE_TIMEOUT = Duration.ofMinutes(30);
    /** Default interval of the keep-alive comments on quiet event streams: 15 seconds. */
    public static final Duration DEFAULT_KEEP_ALIVE = Duration.ofSeconds(15);
    /** Default time calls in flight get to finish when serving stops: 5 seconds. */
    public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(5);

    private final String token;
    private final List<Authenticator> authenticators;
    private final OAuthOptions oauth;
    private final URI publicUrl;
    private final Set<String> allowedOrigins;
    private final long maxRequestBytes;
    private final Duration sessionIdleTimeout;
    private final Duration keepAlive;
    private final Duration shutdownTimeout;
    private final Map<String, Handler> handlers;

    private HttpOptions(Builder b) {
        this.token = b.token;
        this.authenticators = List.copyOf(b.authenticators);
        this.oauth = b.oauth;
        this.publicUrl = b.publicUrl;
        this.allowedOrigins = Set.copyOf(b.allowedOrigins);
        this.maxRequestBytes = b.maxRequestBytes;
        this.sessionIdleTimeout = b.sessionIdleTimeout;
        this.keepAlive = b.keepAlive;
        this.shutdownTimeout = b.shutdownTimeout;
        this.handlers = Map.copyOf(b.handlers);
    }

    /** A builder with the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these options. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.token = token;
        b.authenticators.addAll(authenticators);
        b.oauth = oauth;
        b.publicUrl = publicUrl;
        b.allowedOrigins.addAll(allowedOrigins);
        b.maxRequestBytes = maxRequestBytes;
        b.sessionIdleTimeout = sessionIdleTimeout;
        b.keepAlive = keepAlive;
        b.shutdownTimeout = shutdownTimeout;
        b.handlers.putAll(handlers);
        return b;
    }

    /** The defaults: no token (loopback only), loopback origins, 4 MiB bodies, sessions expire after 30 idle minutes. */
    public static HttpOptions defaults() {
        return builder().build();
    }

    /** The bearer token every request but {@code /healthz} must carry; empty: none (only allowed on loopback). */
    public Optional<String> token() {
        return Optional.ofNullable(token);
    }

    /** The authenticators added, in order (tried after the single token and before OAuth). */
    public List<Authenticator> authenticators() {
        return authenticators;
    }

    /** The OAuth issuer whose access tokens are accepted; empty: none. */
    public Optional<OAuthOptions> oauth() {
        return Optional.ofNullable(oauth);
    }

    /** The {@code /mcp} URL clients use (the OAuth resource URL); empty: the URL the gateway listens on. */
    public Optional<URI> publicUrl() {
        return Optional.ofNullable(publicUrl);
    }

    /** Whether any credential is checked (a token, an authenticator or OAuth): otherwise only loopback may serve. */
    public boolean checksCredentials() {
        return token != null || !authenticators.isEmpty() || oauth != null;
    }

    /** Origins accepted besides loopback ones, as {@code scheme://host[:port]}, lower case. */
    public Set<String> allowedOrigins() {
        return allowedOrigins;
    }

    /**
     * The largest request body accepted; larger ones are answered 413. A body up to four times this size is read to
     * its end first, so the client gets the answer and keeps its connection; a larger one is answered and the
     * connection closed.
     */
    public long maxRequestBytes() {
        return maxRequestBytes;
    }

    /** How long a session without requests, calls in flight or open streams lives. */
    public Duration sessionIdleTimeout() {
        return sessionIdleTimeout;
    }

    /** How often a quiet event stream gets a keep-alive comment (which also finds clients that are gone). */
    public Duration keepAlive() {
        return keepAlive;
    }

    /** How long calls in flight get to finish when serving stops, before they are cancelled. */
    public Duration shutdownTimeout() {
        return shutdownTimeout;
    }

    /** Extra endpoints by Jetty path spec ({@code /meta/events/*}), served behind the credential and Origin checks. */
    public Map<String, Handler> handlers() {
        return handlers;
    }

    /** Builds {@link HttpOptions}. Not thread-safe. */
    public static final class Builder {
        private String token;
        private final List<Authenticator> authenticators = new ArrayList<>();
        private OAuthOptions oauth;
        private URI publicUrl;
        private final Set<String> allowedOrigins = new LinkedHashSet<>();
        private long maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES;
        private Duration sessionIdleTimeout = DEFAULT_SESSION_IDLE_TIMEOUT;
        private Duration keepAlive = DEFAULT_KEEP_ALIVE;
        private Duration shutdownTimeout = DEFAULT_SHUTDOWN_TIMEOUT;
        private final Map<String, Handler> handlers = new LinkedHashMap<>();

        private Builder() {
        }

        /**
         * Sets the single bearer token (null: none): a request presenting it is principal {@code token} with every
         * tool ({@link Authenticators#staticToken}), tried before any other authenticator. Surrounding white space is
         * removed.
         *
         * @throws InvalidOptionException when it is empty or has characters a header cannot carry
         */
        public Builder token(String token) {
            if (token == null) {
                this.token = null;
                return this;
            }
            String trimmed = token.strip();
            if (trimmed.isEmpty() || !StandardCharsets.US_ASCII.newEncoder().canEncode(trimmed)
                    || trimmed.chars().anyMatch(c -> c <= ' ' || c == 127)) {
                throw new InvalidOptionException("token", "a token is one or more visible ASCII characters");
            }
            this.token = trimmed;
            return this;
        }

        /**
         * Adds an authenticator; they are asked in the order added, after the single token and before OAuth, and the
         * first that does not abstain decides.
         */
        public Builder authenticator(Authenticator authenticator) {
            authenticators.add(Objects.requireNonNull(authenticator, "authenticator"));
            return this;
        }

        /**
         * Accepts the JWT access tokens of an OAuth issuer ({@link Authenticators#oauth}, asked last) and serves the
         * protected resource metadata at {@code /.well-known/oauth-protected-resource} and
         * {@code /.well-known/oauth-protected-resource/mcp} (null: none).
         */
        public Builder oauth(OAuthOptions oauth) {
            this.oauth = oauth;
            return this;
        }

        /**
         * Sets the {@code /mcp} URL clients use, the OAuth resource URL (null: the URL the gateway listens on). Needed
         * with OAuth on a wildcard address.
         *
         * @throws InvalidOptionException when it is not an absolute http or https URL
         */
        public Builder publicUrl(URI url) {
            if (url != null) {
                String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
                if (!(scheme.equals("http") || scheme.equals("https")) || url.getHost() == null || url.getRawFragment() != null) {
                    throw new InvalidOptionException("publicUrl", "the public URL is an http or https URL, not " + url);
                }
            }
            this.publicUrl = url;
            return this;
        }

        /**
         * Accepts browser requests from {@code origin} ({@code https://app.example.com}, with a port when it is not
         * the scheme's default).
         */
        public Builder allowOrigin(String origin) {
            String o = Objects.requireNonNull(origin, "origin").strip().toLowerCase(Locale.ROOT);
            while (o.endsWith("/")) {
                o = o.substring(0, o.length() - 1);
            }
            if (!o.matches("https?://[^/?#\\s]+")) {
                throw new InvalidOptionException("allowedOrigins", "an origin is scheme://host[:port], not " + origin);
            }
            allowedOrigins.add(o);
            return this;
        }

        /** Sets the largest request body accepted (at least 1 KiB). */
        public Builder maxRequestBytes(long bytes) {
            this.maxRequestBytes = OptionChecks.atLeast(bytes, 1024L, "maxRequestBytes");
            return this;
        }

        /** Sets how long an idle session lives (positive). */
        public Builder sessionIdleTimeout(Duration timeout) {
            this.sessionIdleTimeout = OptionChecks.positive(timeout, "sessionIdleTimeout");
            return this;
        }

        /** Sets the keep-alive interval of event streams (positive). */
        public Builder keepAlive(Duration interval) {
            this.keepAlive = OptionChecks.positive(interval, "keepAlive");
            return this;
        }

        /** Sets how long calls in flight get to finish when serving stops (zero: cancel them at once). */
        public Builder shutdownTimeout(Duration timeout) {
            this.shutdownTimeout = OptionChecks.nonNegative(timeout, "shutdownTimeout");
            return this;
        }

        /**
         * Serves {@code handler} at {@code pathSpec} (a Jetty path spec: {@code /meta/events/*}, {@code /x}), behind
         * the same credential and Origin checks as {@code /mcp}. The paths of the gateway itself cannot be taken.
         */
        public Builder handler(String pathSpec, Handler handler) {
            Objects.requireNonNull(pathSpec, "pathSpec");
            Objects.requireNonNull(handler, "handler");
            if (!pathSpec.startsWith("/")) {
                throw new InvalidOptionException("handlers", "a path spec starts with /, not " + pathSpec);
            }
            for (String own : new String[] {"/mcp", "/sse", "/message", "/healthz", "/metrics", "/.well-known"}) {
                if (pathSpec.equals(own) || pathSpec.equals(own + "/*") || pathSpec.equals("/") || pathSpec.equals("/*")) {
                    throw new InvalidOptionException("handlers", "the gateway serves " + pathSpec + " itself");
                }
            }
            handlers.put(pathSpec, handler);
            return this;
        }

        /** The options. */
        public HttpOptions build() {
            return new HttpOptions(this);
        }
    }
}
