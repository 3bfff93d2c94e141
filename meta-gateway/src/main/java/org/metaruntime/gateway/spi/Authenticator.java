package org.metaruntime.gateway.spi;

/**
 * Says who makes an HTTP request to the gateway. Authenticators are tried in the order they were added: the first
 * that does not {@link AuthResult.Abstain abstain} decides. Called once per request, from many threads at once:
 * implementations are thread-safe and never block longer than a bounded fetch.
 */
@FunctionalInterface
public interface Authenticator {

    /** The principal of {@code request}, a rejection with its HTTP status, or an abstention. */
    AuthResult authenticate(AuthRequest request);
}
