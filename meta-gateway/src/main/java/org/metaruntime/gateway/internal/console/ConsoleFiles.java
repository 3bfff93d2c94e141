package org.metaruntime.gateway.internal.console;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The console page's static files, read from the jar ({@code org/metaruntime/gateway/console/}): {@code /console}
 * answers {@code index.html}, {@code /console/<file>} a file of that folder. Every answer carries
 * {@code Content-Security-Policy: default-src 'self'}. Thread-safe.
 */
public final class ConsoleFiles extends Handler.Abstract {

    /** The page's path. */
    public static final String PATH = "/console";
    static final String CSP = "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
    private static final String FOLDER = "org/metaruntime/gateway/console/";
    private static final Map<String, String> TYPES = Map.of("html", "text/html; charset=utf-8", "css", "text/css; charset=utf-8",
            "js", "text/javascript; charset=utf-8", "png", "image/png", "svg", "image/svg+xml");

    private final Map<String, byte[]> cache = new ConcurrentHashMap<>();

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        response.getHeaders().put("Content-Security-Policy", CSP);
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        response.getHeaders().put("Referrer-Policy", "no-referrer");
        if (!HttpMethod.GET.is(request.getMethod()) && !HttpMethod.HEAD.is(request.getMethod())) {
            response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
            return text(response, callback, 405, "GET only");
        }
        String path = request.getHttpURI().getCanonicalPath() == null ? request.getHttpURI().getPath()
                : request.getHttpURI().getCanonicalPath();
        String file = path.equals(PATH) || path.equals(PATH + "/") ? "index.html" : path.substring(PATH.length() + 1);
        if (!file.matches("[a-z0-9_-]+\\.(html|css|js|png|svg)")) {
            return text(response, callback, 404, "not found");
        }
        byte[] bytes = cache.computeIfAbsent(file, ConsoleFiles::read);
        if (bytes.length == 0) {
            return text(response, callback, 404, "not found");
        }
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, TYPES.get(file.substring(file.lastIndexOf('.') + 1)));
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        response.write(true, HttpMethod.HEAD.is(request.getMethod()) ? ByteBuffer.allocate(0) : ByteBuffer.wrap(bytes), callback);
        return true;
    }

    private static byte[] read(String file) {
        try (InputStream in = ConsoleFiles.class.getClassLoader().getResourceAsStream(FOLDER + file)) {
            return in == null ? new byte[0] : in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean text(Response response, Callback callback, int status, String message) {
        byte[] bytes = message.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        response.write(true, ByteBuffer.wrap(bytes), callback);
        return true;
    }
}
