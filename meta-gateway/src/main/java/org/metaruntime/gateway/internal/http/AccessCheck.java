package org.metaruntime.gateway.internal.http;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.metaruntime.gateway.internal.auth.AuthChain;
import org.metaruntime.gateway.internal.console.ConsoleFiles;
import org.metaruntime.gateway.internal.auth.ProtectedResource;
import org.metaruntime.gateway.internal.cluster.ClusterKey;
import org.metaruntime.gateway.internal.cluster.Forwarder;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.gateway.internal.rpc.Principals;
import org.metaruntime.gateway.spi.AuthRequest;
import org.metaruntime.gateway.spi.AuthResult;
import org.metaruntime.gateway.spi.Principal;

/**
 * What every request passes before any endpoint: an {@code Origin} header, when present, must be a loopback
 * origin or an allowed one (403 otherwise: protection against DNS rebinding); then the {@link AuthChain} says who
 * sends it. Every request but {@code GET /healthz}, the protected resource metadata and the console page's static
 * files ({@code /console}, not {@code /console/api/}) is authenticated on its own: a
 * refusal is answered 401, 403 or 503 (with {@code Retry-After}) with its {@code WWW-Authenticate} challenge and a JSON
 * body {@code {"error", "error_description"}} that never repeats the credential. {@code /metrics}, {@code /meta/events*}
 * and {@code /meta/mob_events*} answer 403 to a principal that is not an admin. Allowed origins get CORS headers and
 * their preflight requests are answered. A request that passes carries its {@link Principal} as the attribute
 * {@link #CALLER}. Thread-safe.
 */
final class AccessCheck extends Handler.Wrapper {

    static final String HEALTH_PATH = "/healthz";
    /** The request attribute holding who sent a request that passed ({@link Principal}). */
    static final String CALLER = Principal.class.getName();
    /** Seconds a client waits before trying again while the issuer cannot be reached. */
    static final int RETRY_AFTER_SECONDS = 5;
    /** The console page's static files: {@code /console}, {@code /console/} and {@code /console/<file>}. */
    private static final java.util.regex.Pattern CONSOLE_PAGE = java.util.regex.Pattern.compile(
            java.util.regex.Pattern.quote(ConsoleFiles.PATH) + "(/([a-z0-9_-]+\\.(html|css|js|svg|png))?)?");
    private static final String EXPOSED = "Mcp-Session-Id, WWW-Authenticate";
    private static final String ALLOWED_HEADERS = "Authorization, Content-Type, Accept, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID";

    private final Set<String> allowedOrigins;
    private final Predicate<Principal> isAdmin;
    private volatile AuthChain chain = new AuthChain(List.of(), org.metaruntime.gateway.internal.auth.Challenge.PLAIN);

    /**
     * @param isAdmin which principals may read {@code /metrics} and the event log
     */
    AccessCheck(Set<String> allowedOrigins, Predicate<Principal> isAdmin, Handler next) {
        super(next);
        this.allowedOrigins = Set.copyOf(allowedOrigins);
        this.isAdmin = isAdmin;
    }

    /** Sets the authenticators (once the resource URL is known, before serving starts). */
    void authenticateWith(AuthChain chain) {
        this.chain = chain;
    }

    @Override
    public InvocationType getInvocationType() {
        // An authenticator may wait (bounded) for an issuer's keys: never on a selector thread.
        return InvocationType.BLOCKING;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String origin = request.getHeaders().get(HttpHeader.ORIGIN);
        if (origin != null) {
            if (!allowedOrigin(origin)) {
                closeAfter(response);
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
        // The path as the handlers are chosen by: "/console/x/../../metrics" is /metrics.
        String canonical = request.getHttpURI().getCanonicalPath();
        String path = canonical == null ? request.getHttpURI().getPath() : canonical;
        if (path.startsWith(Forwarder.PATH) && !ClusterKey.plausible(request.getHeaders().get(ClusterKey.TIMESTAMP_HEADER),
                request.getHeaders().get(ClusterKey.SIGNATURE_HEADER), System.currentTimeMillis())) {
            closeAfter(response);
            Exchanges.rpcError(response, callback, 403, null, JsonRpc.INVALID_REQUEST,
                    "replica-to-replica requests carry a valid, fresh signature of the cluster key");
            return true;
        }
        if (open(path)) {
            return super.handle(request, response, callback);
        }
        AuthChain current = chain;
        AuthResult result = current.configured() ? current.authenticate(authRequest(request, path))
                : new AuthResult.Authenticated(Principals.ANONYMOUS);
        if (!(result instanceof AuthResult.Authenticated authenticated)) {
            AuthResult.Rejected rejected = result instanceof AuthResult.Rejected r ? r
                    : new AuthResult.Rejected(401, current.challenge().invalidToken());
            refuse(response, callback, rejected);
            return true;
        }
        Principal principal = authenticated.principal();
        if (adminOnly(path) && !isAdmin.test(principal)) {
            refuse(response, callback, 403, null, "insufficient_scope", path + " is for admin principals only");
            return true;
        }
        request.setAttribute(CALLER, principal);
        return super.handle(request, response, callback);
    }

    /** Who sent {@code request}, as the check found ({@link Principals#ANONYMOUS} for a path served to anyone). */
    static Principal caller(Request request) {
        return request.getAttribute(CALLER) instanceof Principal p ? p : Principals.ANONYMOUS;
    }

    /** The paths served without a credential: health, the resource metadata, the console page's static files. */
    private static boolean open(String path) {
        return path.equals(HEALTH_PATH) || path.equals(ProtectedResource.PATH) || path.equals(ProtectedResource.MCP_PATH)
                || consolePage(path);
    }

    /** The console page's static files (not its API): they hold nothing but the page's code. */
    static boolean consolePage(String path) {
        return CONSOLE_PAGE.matcher(path).matches();
    }


    /** The paths only admins may read. */
    static boolean adminOnly(String path) {
        return path.equals("/metrics") || path.startsWith("/meta/events") || path.startsWith("/meta/mob_events");
    }

    private static AuthRequest authRequest(Request request, String path) {
        Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (HttpField field : request.getHeaders()) {
            headers.computeIfAbsent(field.getName(), name -> new ArrayList<>()).add(field.getValue());
        }
        InetSocketAddress remote = Request.getRemoteAddr(request) == null ? null
                : new InetSocketAddress(Request.getRemoteAddr(request), Request.getRemotePort(request));
        return new AuthRequest(request.getMethod(), path, headers, remote);
    }

    private static void refuse(Response response, Callback callback, AuthResult.Rejected rejected) {
        String challenge = rejected.wwwAuthenticate();
        switch (rejected.status()) {
            case 503 -> {
                response.getHeaders().put(HttpHeader.RETRY_AFTER, RETRY_AFTER_SECONDS);
                refuse(response, callback, 503, challenge, "temporarily_unavailable",
                        "the authorization server cannot be reached yet; try again in " + RETRY_AFTER_SECONDS + " s");
            }
            case 403 -> refuse(response, callback, 403, challenge, "insufficient_scope", "the token lacks a required scope");
            default -> {
                boolean invalid = challenge != null && challenge.contains("error=\"invalid_token\"");
                refuse(response, callback, rejected.status(), challenge, invalid ? "invalid_token" : "unauthorized", invalid
                        ? "the bearer token is not valid" : "this request needs Authorization: Bearer <token>");
            }
        }
    }

    private static void refuse(Response response, Callback callback, int status, String challenge, String error, String description) {
        closeAfter(response);
        if (challenge != null) {
            response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, challenge);
        }
        Exchanges.json(response, callback, status, JsonRpc.write(JsonRpc.NODES.objectNode()
                .put("error", error).put("error_description", description)));
    }

    /**
     * A refused request's body is not read: the connection closes after the answer, and says so, so that the client
     * does not send its next request on a connection the server is about to close.
     */
    private static void closeAfter(Response response) {
        response.getHeaders().put(HttpHeader.CONNECTION, "close");
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
}
