package org.metaruntime.gateway.internal.auth;

import java.util.Objects;
import org.metaruntime.gateway.internal.rpc.Principals;
import org.metaruntime.gateway.spi.AuthRequest;
import org.metaruntime.gateway.spi.AuthResult;
import org.metaruntime.gateway.spi.Authenticator;

/**
 * The gateway's single bearer token: a request that presents it is principal {@code token} (auth {@code token},
 * profile {@code all}); any other request is left to the next authenticator. Only the token's SHA-256 is kept.
 * Thread-safe.
 */
public final class StaticToken implements Authenticator {

    private final byte[] digest;

    public StaticToken(String token) {
        Objects.requireNonNull(token, "token");
        String trimmed = token.strip();
        if (trimmed.isEmpty()) {
            throw new IllegalArgumentException("the token must not be empty");
        }
        this.digest = Digests.sha256(trimmed);
    }

    @Override
    public AuthResult authenticate(AuthRequest request) {
        return request.bearerToken()
                .filter(presented -> Digests.equal(digest, Digests.sha256(presented)))
                .<AuthResult>map(presented -> new AuthResult.Authenticated(Principals.TOKEN))
                .orElseGet(AuthResult.Abstain::new);
    }
}
