package org.metaruntime.gateway.internal.auth;

import java.util.List;

/**
 * The {@code WWW-Authenticate} values of the gateway's 401 and 403 answers: {@code Bearer}, with OAuth the
 * {@code resource_metadata} URL, and the required scopes when there are some.
 *
 * @param resourceMetadata the protected resource metadata URL, or null without OAuth
 * @param scopes           the scopes every token must carry
 */
public record Challenge(String resourceMetadata, List<String> scopes) {

    /** Without OAuth: plain {@code Bearer}. */
    public static final Challenge PLAIN = new Challenge(null, List.of());

    public Challenge {
        scopes = List.copyOf(scopes);
    }

    /** No credential, or one of another scheme. */
    public String missing() {
        return "Bearer" + join(null);
    }

    /** A value no authenticator accepts. */
    public String invalidToken() {
        return "Bearer" + join("invalid_token");
    }

    /** A valid token without a required scope. */
    public String insufficientScope() {
        StringBuilder out = new StringBuilder("Bearer error=\"insufficient_scope\"");
        if (!scopes.isEmpty()) {
            out.append(", scope=\"").append(String.join(" ", scopes)).append('"');
        }
        if (resourceMetadata != null) {
            out.append(", resource_metadata=\"").append(resourceMetadata).append('"');
        }
        return out.toString();
    }

    private String join(String error) {
        StringBuilder out = new StringBuilder();
        if (error != null) {
            out.append(" error=\"").append(error).append('"');
        }
        if (resourceMetadata != null) {
            out.append(out.length() == 0 ? " " : ", ").append("resource_metadata=\"").append(resourceMetadata).append('"');
            if (!scopes.isEmpty()) {
                out.append(", scope=\"").append(String.join(" ", scopes)).append('"');
            }
        }
        return out.toString();
    }
}
