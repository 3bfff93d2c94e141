package org.metaruntime.gateway.spi;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What an {@link Authenticator} sees of an HTTP request: its method, path, headers and the peer's address.
 *
 * @param method the HTTP method, upper case
 * @param path the request's path, without the query
 * @param headers every header, by name (looked up case-insensitively by {@link #header})
 * @param remote the peer's address
 */
public record AuthRequest(String method, String path, Map<String, List<String>> headers, InetSocketAddress remote) {

    public AuthRequest {
        TreeMap<String, List<String>> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        headers.forEach((name, values) -> copy.merge(name, List.copyOf(values), (a, b) -> {
            List<String> both = new java.util.ArrayList<>(a);
            both.addAll(b);
            return List.copyOf(both);
        }));
        headers = java.util.Collections.unmodifiableMap(copy);
    }

    /** The first value of header {@code name}, looked up case-insensitively. */
    public Optional<String> header(String name) {
        List<String> values = headers.get(name);
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }

    /** The credential of an {@code Authorization: Bearer <value>} header (the scheme in any case). */
    public Optional<String> bearerToken() {
        return header("Authorization").flatMap(value -> {
            int space = value.indexOf(' ');
            if (space < 0 || !value.substring(0, space).toLowerCase(Locale.ROOT).equals("bearer")) {
                return Optional.empty();
            }
            String token = value.substring(space + 1).strip();
            return token.isEmpty() ? Optional.empty() : Optional.of(token);
        });
    }
}
