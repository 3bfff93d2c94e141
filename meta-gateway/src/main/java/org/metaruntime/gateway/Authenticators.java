package org.metaruntime.gateway;

import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.metaruntime.gateway.internal.auth.IssuerKeys;
import org.metaruntime.gateway.internal.auth.NamedTokens;
import org.metaruntime.gateway.internal.auth.NamedTokensFile;
import org.metaruntime.gateway.internal.auth.OAuthTokens;
import org.metaruntime.gateway.internal.auth.StaticToken;
import org.metaruntime.gateway.spi.Authenticator;

/**
 * The gateway's own {@link Authenticator}s: the single bearer token, named tokens, and OAuth 2.1 access tokens. Each
 * abstains from a request without a credential of its kind, so they chain: {@link HttpOptions} tries the single token,
 * then the authenticators added, then OAuth. Every token comparison takes the same time whatever the value. The
 * authenticators are thread-safe.
 *
 * <pre>{@code
 * HttpOptions http = HttpOptions.builder()
 *         .authenticator(Authenticators.namedTokens(Path.of("tokens.yaml")))
 *         .build();
 * }</pre>
 */
public final class Authenticators {

    private Authenticators() {
    }

    /** The single token: principal {@code token}, auth {@code token}, profile {@code all}. */
    public static Authenticator staticToken(String token) {
        return new StaticToken(token);
    }

    /**
     * The named tokens of a YAML file (a list of {@code name}, {@code token} or {@code sha256}, {@code profiles});
     * {@code ${NAME}} in a {@code token} is read from the environment (and served over HTTP, no pod inherits
     * {@code NAME}).
     *
     * @throws ManifestException with every problem of the file as {@code file:line: message}
     */
    public static Authenticator namedTokens(Path tokensYaml) {
        return new NamedTokens(NamedTokensFile.readEntries(tokensYaml, System.getenv(), profile -> true));
    }

    /**
     * These named tokens.
     *
     * @throws IllegalArgumentException when two share a name or a token
     */
    public static Authenticator namedTokens(List<NamedToken> tokens) {
        return new NamedTokens(tokens);
    }

    /**
     * JWT access tokens of {@code options}' issuer, for the resource {@code resourceUrl} (the {@code /mcp} URL clients
     * use). The issuer's metadata and keys are fetched in the background from now on.
     */
    public static Authenticator oauth(OAuthOptions options, URI resourceUrl) {
        IssuerKeys keys = IssuerKeys.overHttp(options.issuer(), Clock.systemUTC());
        keys.discoverInBackground();
        return new OAuthTokens(options, resourceUrl, Clock.systemUTC(), keys);
    }

}
