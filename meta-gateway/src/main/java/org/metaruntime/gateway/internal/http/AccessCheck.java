package org.metaruntime.gateway.internal.http;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;
import java.util.Set;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.metaruntime.gateway.internal.rpc.Principals;
import org.metaruntime.gateway.spi.Principal;
import org.metaruntime.gateway.internal.rpc.JsonRpc;

/**
 * What every request passes before any endpoint: an {@code Origin} header, when present, must be a loopback
 * origin or an allowed one (403 otherwise: protection against DNS rebinding), and with a token set every request
 * but {@code GET /healthz} must carry {@code Authorization: Bearer <token>} (401 otherwise; the scheme in any case,
 * the token compared in constant time). Allowed origins get CORS headers and their preflight requests are answered.
 * A request that passes carries its {@link Principal} as the attribute {@link #CALLER}. Thread-safe.
 */
final class AccessCheck extends Handler.Wrapper {

    static final String HEALTH_PATH = "/healthz";
    /** The request attribute holding who sent a request that passed ({@link Principal}). */
    static final String CALLER = Principal.class.getName();
    private static final String EXPOSED = "Mcp-Session-Id";
    private static final String SCHEME = "Bearer";
    private static final String ALLOWED_HEADERS = "Authorization, Content-Type, Accept, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID";

    private final byte[] tokenDigest;
    private final Set<String> allowedOrigins;

    AccessCheck(String token, Set<String> allowedOrigins, Handler next) {
        super(next);
        this.tokenDigest = token == null ? null : sha256(token);
        this.allowedOrigins = Set.copyOf(allowedOrigins);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String origin = request.getHeaders().get(HttpHeader.ORIGIN);
        if (origin != null) {
            if (!allowedOrigin(origin)) {
                Exchanges.rpcError(response, callback, 403, null, JsonRpc.INVALID_REQUEST, "origin " + origin + " is not allowed");
                return true;
            }
            response.getHeaders().put(HttpHeader.ACCESS_CONTROL_ALLOW_ORIGIN, origin);
            response.getHeaders().put(HttpHeader.VARY, "Origin");
            response.getHeaders().put(HttpHeader.ACCESS_CONTROL_EXPOSE_HEADERS, EXPOSED);
            if (HttpMethod.OPTIONS.is(request.getMethod())) {
                response.getHeaders().put(HttpHeader.ACCESS_CONTROL_ALLOW_METHODS, "GET, POST, DELETE, OPTIONS");
                response.getHeaders().put(HttpHeader.ACCESS_CONTROL_ALLOW_HEADERS, ALLOWED_HEADERS);
                response.getHeaders().put(HttpHeader.ACCESS_CONTROL_MAX_AGE, 600);
                Exchanges.empty(response, callback, 204);
                return true;
            }
        }
        if (tokenDigest != null && !request.getHttpURI().getPath().equals(HEALTH_PATH) && !authorized(request)) {
            response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer realm=\"meta-gateway\"");
            Exchanges.rpcError(response, callback, 401, null, JsonRpc.INVALID_REQUEST, "missing or wrong bearer token");
            return true;
        }
        request.setAttribute(CALLER, tokenDigest == null ? Principals.ANONYMOUS : Principals.TOKEN);
        return super.handle(request, response, callback);
    }

    private boolean authorized(Request request) {
        String credentials = bearerCredentials(request.getHeaders().get(HttpHeader.AUTHORIZATION));
        // Both sides are hashed first, so the comparison takes the same time whatever the header's length.
        return credentials != null && MessageDigest.isEqual(tokenDigest, sha256(credentials));
    }

    /** The credentials of an {@code Authorization} header of the Bearer scheme (named in any case), else null. */
    static String bearerCredentials(String header) {
        if (header == null) {
            return null;
        }
        String value = header.strip();
        if (value.length() <= SCHEME.length() || !value.regionMatches(true, 0, SCHEME, 0, SCHEME.length())
                || value.charAt(SCHEME.length()) != ' ') {
            return null;
        }
        String credentials = value.substring(SCHEME.length()).strip();
        return credentials.isEmpty() ? null : credentials;
    }

    boolean allowedOrigin(String origin) {
        String o = origin.strip().toLowerCase(Locale.ROOT);
        if (allowedOrigins.contains(o)) {
            return true;
        }
        try {
            URI uri = new URI(o);
            String host = uri.getHost();
            String scheme = uri.getScheme();
            if (host == null || !("http".equals(scheme) || "https".equals(scheme)) || uri.getRawPath() != null && !uri.getRawPath().isEmpty()) {
                return false;
            }
            return isLoopback(host);
        } catch (URISyntaxException e) {
            return false;
        }
    }

    /** localhost, 127.0.0.0/8 or ::1, by name only (no lookup). */
    static boolean isLoopback(String host) {
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        h = h.toLowerCase(Locale.ROOT);
        if (h.equals("localhost") || h.endsWith(".localhost") || h.equals("::1") || h.equals("0:0:0:0:0:0:0:1")) {
            return true;
        }
        String[] parts = h.split("\\.", -1);
        if (parts.length != 4 || !parts[0].equals("127")) {
            return false;
        }
        for (String part : parts) {
            if (!part.matches("\\d{1,3}") || Integer.parseInt(part) > 255) {
                return false;
            }
        }
        return true;
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing", e);
        }
    }
}
