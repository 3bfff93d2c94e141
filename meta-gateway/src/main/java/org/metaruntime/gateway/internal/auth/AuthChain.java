package org.metaruntime.gateway.internal.auth;

import java.util.List;
import org.metaruntime.gateway.internal.rpc.Principals;
import org.metaruntime.gateway.spi.AuthRequest;
import org.metaruntime.gateway.spi.AuthResult;
import org.metaruntime.gateway.spi.Authenticator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the authenticators in order; the first that does not abstain decides. When all abstain: 401 with the plain
 * challenge when the request has no bearer value, with {@code error="invalid_token"} when it has one. Without any
 * authenticator every request is {@link Principals#ANONYMOUS}. An authenticator that throws refuses the request.
 * Thread-safe.
 */
public final class AuthChain {

    private static final Logger log = LoggerFactory.getLogger(AuthChain.class);

    private final List<Authenticator> authenticators;
    private final Challenge challenge;

    public AuthChain(List<Authenticator> authenticators, Challenge challenge) {
        this.authenticators = List.copyOf(authenticators);
        this.challenge = challenge;
    }

    /** Whether any credential is checked. */
    public boolean configured() {
        return !authenticators.isEmpty();
    }

    /** The challenge of its 401 and 403 answers. */
    public Challenge challenge() {
        return challenge;
    }

    public AuthResult authenticate(AuthRequest request) {
        if (authenticators.isEmpty()) {
            return new AuthResult.Authenticated(Principals.ANONYMOUS);
        }
        for (Authenticator authenticator : authenticators) {
            AuthResult result;
            try {
                result = authenticator.authenticate(request);
            } catch (RuntimeException e) {
                log.warn("authenticator {} failed; the request is refused: {}", authenticator.getClass().getName(), e.toString());
                return new AuthResult.Rejected(401, challenge.invalidToken());
            }
            if (result != null && !(result instanceof AuthResult.Abstain)) {
                return result;
            }
        }
        return new AuthResult.Rejected(401, request.bearerToken().isPresent() ? challenge.invalidToken() : challenge.missing());
    }
}
