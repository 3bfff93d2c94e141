package org.metaruntime.gateway;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.metaruntime.supervisor.InvalidOptionException;
import org.metaruntime.supervisor.internal.OptionChecks;

/**
 * The gateway as an OAuth 2.1 resource server: the authorization server (issuer) whose JWT access tokens it accepts,
 * the audience they must name, the scopes every token must carry and the clock skew allowed on {@code exp} and
 * {@code nbf}. Immutable and thread-safe; build with {@link #builder()}.
 *
 * <pre>{@code
 * OAuthOptions oauth = OAuthOptions.builder()
 *         .issuer(URI.create("https://login.example.com/realms/tools"))
 *         .audience("meta-gateway")
 *         .requiredScopes("mcp:tools")
 *         .build();
 * HttpOptions http = HttpOptions.builder().oauth(oauth).publicUrl(URI.create("https://gateway.example.com/mcp")).build();
 * }</pre>
 */
public final class OAuthOptions {

    /** Default clock skew allowed on {@code exp} and {@code nbf}: 60 seconds. */
    public static final Duration DEFAULT_CLOCK_SKEW = Duration.ofSeconds(60);

    private final URI issuer;
    private final String audience;
    private final List<String> requiredScopes;
    private final Duration clockSkew;

    private OAuthOptions(Builder b) {
        this.issuer = b.issuer;
        this.audience = b.audience;
        this.requiredScopes = List.copyOf(b.requiredScopes);
        this.clockSkew = b.clockSkew;
    }

    /** A builder; {@link Builder#issuer} and {@link Builder#audience} are required. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these options. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.issuer = issuer;
        b.audience = audience;
        b.requiredScopes.addAll(requiredScopes);
        b.clockSkew = clockSkew;
        return b;
    }

    /** The issuer, exactly as its metadata and its tokens' {@code iss} must name it. */
    public URI issuer() {
        return issuer;
    }

    /** The audience a token's {@code aud} must contain (or the resource URL). */
    public String audience() {
        return audience;
    }

    /** The scopes every token must carry, in the order given, without repeats. */
    public List<String> requiredScopes() {
        return requiredScopes;
    }

    /** How far in the past {@code exp}, and in the future {@code nbf}, may be. */
    public Duration clockSkew() {
        return clockSkew;
    }

    /** Builds {@link OAuthOptions}. Not thread-safe. */
    public static final class Builder {
        private URI issuer;
        private String audience;
        private final Set<String> requiredScopes = new LinkedHashSet<>();
        private Duration clockSkew = DEFAULT_CLOCK_SKEW;

        private Builder() {
        }

        /**
         * Sets the issuer.
         *
         * @throws InvalidOptionException when it is not an absolute {@code http} or {@code https} URL
         */
        public Builder issuer(URI issuer) {
            Objects.requireNonNull(issuer, "issuer");
            String scheme = issuer.getScheme() == null ? "" : issuer.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || issuer.getHost() == null
                    || issuer.getRawQuery() != null || issuer.getRawFragment() != null) {
                throw new InvalidOptionException("issuer", "an issuer is an http or https URL without query or fragment, not " + issuer);
            }
            this.issuer = issuer;
            return this;
        }

        /** Sets the audience (not blank). */
        public Builder audience(String audience) {
            Objects.requireNonNull(audience, "audience");
            if (audience.isBlank()) {
                throw new InvalidOptionException("audience", "the audience must not be blank");
            }
            this.audience = audience.strip();
            return this;
        }

        /** Adds required scopes; each argument may list several, separated by commas or white space. */
        public Builder requiredScopes(String... scopes) {
            for (String scope : scopes) {
                for (String one : Objects.requireNonNull(scope, "scope").split("[,\\s]+")) {
                    if (!one.isEmpty()) {
                        if (one.chars().anyMatch(c -> c < 0x21 || c == '"' || c == '\\' || c > 0x7e)) {
                            throw new InvalidOptionException("requiredScopes", "a scope is visible ASCII without '\"' or '\\': " + one);
                        }
                        requiredScopes.add(one);
                    }
                }
            }
            return this;
        }

        /** Sets the clock skew allowed on {@code exp} and {@code nbf} (zero: none). */
        public Builder clockSkew(Duration skew) {
            this.clockSkew = OptionChecks.nonNegative(skew, "clockSkew");
            return this;
        }

        /**
         * The options.
         *
         * @throws InvalidOptionException when the issuer or the audience is missing
         */
        public OAuthOptions build() {
            if (issuer == null || audience == null) {
                throw new InvalidOptionException(issuer == null ? "issuer" : "audience",
                        "OAuth needs both an issuer and an audience");
            }
            return new OAuthOptions(this);
        }
    }

    @Override
    public String toString() {
        return "OAuthOptions[issuer=" + issuer + ", audience=" + audience + ", requiredScopes=" + new ArrayList<>(requiredScopes)
                + ", clockSkew=" + clockSkew + "]";
    }
}
