package org.metaruntime.mcp;

import java.net.URI;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Where a remote MCP server listens: an MCP Streamable HTTP endpoint ({@code http} or {@code https}) and the
 * headers sent with every request to it (e.g. {@code Authorization: Bearer ...}). Header values are never printed
 * by {@link #toString()}. Immutable and thread-safe.
 *
 * <pre>{@code
 * McpHttpEndpoint endpoint = McpHttpEndpoint.of("search", URI.create("https://search.internal/mcp"))
 *         .withHeader("Authorization", "Bearer " + token);
 * McpConnection connection = McpConnection.open(endpoint, McpClientOptions.defaults(), Duration.ofSeconds(30));
 * }</pre>
 *
 * @param moduleId the module the endpoint serves
 * @param url      the endpoint, absolute, {@code http} or {@code https}, with a host
 * @param headers  extra request headers, in order; the protocol's own headers ({@code Content-Type}, {@code Accept},
 *                 {@code Mcp-Session-Id}, {@code MCP-Protocol-Version}) and the ones the HTTP client sets itself
 *                 ({@code Host}, {@code Content-Length}, {@code Connection}, ...) are refused
 */
public record McpHttpEndpoint(String moduleId, URI url, Map<String, String> headers) {

    private static final Set<String> RESERVED = Set.of("content-type", "accept", "mcp-session-id",
            "mcp-protocol-version", "last-event-id", "host", "content-length", "connection", "expect", "upgrade",
            "transfer-encoding", "te", "trailer", "keep-alive", "proxy-connection");

    /**
     * Validates the endpoint.
     *
     * @throws IllegalArgumentException naming what is wrong (blank id, a URL that is not absolute http(s) with a
     *                                  host, a header name that is not an HTTP token or is reserved, a header value
     *                                  with a line break)
     */
    public McpHttpEndpoint {
        Objects.requireNonNull(moduleId, "moduleId");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(headers, "headers");
        if (moduleId.isBlank()) {
            throw new IllegalArgumentException("the module id must not be blank");
        }
        problem(url).ifPresent(p -> {
            throw new IllegalArgumentException("module '" + moduleId + "': " + p);
        });
        Map<String, String> copy = new LinkedHashMap<>();
        headers.forEach((name, value) -> {
            headerProblem(name, value).ifPresent(p -> {
                throw new IllegalArgumentException("module '" + moduleId + "': " + p);
            });
            copy.put(name, value);
        });
        headers = Collections.unmodifiableMap(copy);
    }

    /** An endpoint without extra headers. */
    public static McpHttpEndpoint of(String moduleId, URI url) {
        return new McpHttpEndpoint(moduleId, url, Map.of());
    }

    /** This endpoint with one more header (replacing one of the same name). */
    public McpHttpEndpoint withHeader(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(headers);
        more.put(name, value);
        return new McpHttpEndpoint(moduleId, url, more);
    }

    /** What is wrong with {@code url} as an endpoint, if anything (one readable clause). */
    public static java.util.Optional<String> problem(URI url) {
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!url.isAbsolute() || !(scheme.equals("http") || scheme.equals("https"))) {
            return java.util.Optional.of("the URL '" + url + "' is not an absolute http or https URL");
        }
        if (url.getHost() == null || url.getHost().isEmpty()) {
            return java.util.Optional.of("the URL '" + url + "' has no host");
        }
        if (url.getRawUserInfo() != null) {
            return java.util.Optional.of("the URL '" + url.getScheme() + "://" + url.getHost()
                    + "...' carries credentials; send them in a header instead");
        }
        return java.util.Optional.empty();
    }

    /** What is wrong with a header, if anything (one readable clause). */
    public static java.util.Optional<String> headerProblem(String name, String value) {
        if (name == null || name.isEmpty() || !name.chars().allMatch(McpHttpEndpoint::tokenChar)) {
            return java.util.Optional.of("'" + name + "' is not a valid HTTP header name");
        }
        if (RESERVED.contains(name.toLowerCase(Locale.ROOT))) {
            return java.util.Optional.of("the header '" + name + "' is set by the MCP client itself");
        }
        if (value == null || value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
            return java.util.Optional.of("the value of header '" + name + "' is missing or has a line break");
        }
        return java.util.Optional.empty();
    }

    private static boolean tokenChar(int c) {
        return c > 32 && c < 127 && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0;
    }

    @Override
    public String toString() {
        return "McpHttpEndpoint[moduleId=" + moduleId + ", url=" + url + ", headers=" + headers.keySet() + "]";
    }
}
