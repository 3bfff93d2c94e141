package org.metaruntime.gateway.spi;

import java.util.Objects;

/** What an {@link Authenticator} decided about one request. */
public sealed interface AuthResult {

    /** The request is {@code principal}'s. */
    record Authenticated(Principal principal) implements AuthResult {
        public Authenticated {
            Objects.requireNonNull(principal, "principal");
        }
    }

    /** The request carries no credential of this authenticator: the next one is asked. */
    record Abstain() implements AuthResult {
    }

    /**
     * The request is refused with HTTP {@code status} (401, 403 or 503) and this {@code WWW-Authenticate} value
     * ({@code null}: none).
     */
    record Rejected(int status, String wwwAuthenticate) implements AuthResult {
    }
}
