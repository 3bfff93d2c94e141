package org.metaruntime.gateway.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.metaruntime.gateway.internal.rpc.JsonRpc;
import org.metaruntime.supervisor.internal.Failures;

/** What every endpoint does with an exchange: read a bounded body, answer JSON or a JSON-RPC error. Stateless. */
final class Exchanges {

    private Exchanges() {
    }

    /** A body over the bound. */
    static final class TooLarge extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TooLarge(long max) {
            super("the request body is over " + max + " bytes", null, false, false);
        }
    }

    /**
     * How far past the bound a body is still read (and thrown away) before answering 413, so that the client, which
     * is usually still sending, reads the answer on a connection that stays open. Past it the connection closes.
     */
    static final int DRAIN_FACTOR = 4;

    /** Reads the whole body, failing with {@link TooLarge} past {@code max} bytes. */
    static CompletableFuture<byte[]> body(Request request, long max) {
        CompletableFuture<byte[]> result = new CompletableFuture<>();
        long drainLimit = max > Long.MAX_VALUE / DRAIN_FACTOR ? Long.MAX_VALUE : max * DRAIN_FACTOR;
        long declared = request.getLength();
        if (declared > drainLimit) {
            result.completeExceptionally(new TooLarge(max));
            return result;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(declared > 0 && declared <= max ? (int) declared : 1024);
        new Runnable() {
            private long seen;

            @Override
            public void run() {
                while (true) {
                    Content.Chunk chunk = request.read();
                    if (chunk == null) {
                        request.demand(this);
                        return;
                    }
                    if (Content.Chunk.isFailure(chunk)) {
                        result.completeExceptionally(chunk.getFailure());
                        return;
                    }
                    ByteBuffer bytes = chunk.getByteBuffer();
                    seen += bytes.remaining();
                    if (seen <= max) {
                        byte[] copy = new byte[bytes.remaining()];
                        bytes.get(copy);
                        out.write(copy, 0, copy.length);
                    } else {
                        out.reset();
                    }
                    boolean last = chunk.isLast();
                    chunk.release();
                    if (seen > drainLimit || (last && seen > max)) {
                        result.completeExceptionally(new TooLarge(max));
                        return;
                    }
                    if (last) {
                        result.complete(out.toByteArray());
                        return;
                    }
                }
            }
        }.run();
        return result;
    }

    /**
     * Reads the body as one JSON value and hands it to {@code onJson}; answers 413 past {@code max} bytes and 400
     * when it is not JSON.
     */
    static void readJson(Request request, Response response, Callback callback, long max, java.util.function.Consumer<JsonNode> onJson) {
        body(request, max).whenComplete((bytes, failure) -> {
            if (failure != null) {
                Throwable cause = Failures.unwrap(failure);
                if (cause instanceof TooLarge) {
                    rpcError(response, callback, 413, null, JsonRpc.INVALID_REQUEST, cause.getMessage());
                } else {
                    callback.failed(cause);
                }
                return;
            }
            JsonNode message;
            try {
                message = JsonRpc.MAPPER.readTree(bytes);
            } catch (java.io.IOException e) {
                rpcError(response, callback, 400, null, JsonRpc.PARSE_ERROR, "the body is not JSON");
                return;
            }
            if (message == null || !message.isObject()) {
                rpcError(response, callback, 400, null, JsonRpc.INVALID_REQUEST, message != null && message.isArray()
                        ? "JSON-RPC batches are not supported: send one message at a time" : "a message is a JSON object");
                return;
            }
            onJson.accept(message);
        });
    }

    /** Answers {@code status} with a JSON body. */
    static void json(Response response, Callback callback, int status, String json) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        response.write(true, ByteBuffer.wrap(bytes), callback);
    }

    /**
     * Answers {@code status} with a JSON-RPC error once the request's body (at most {@code max} bytes) has been read:
     * a request refused before its body arrived would otherwise leave the body on the connection, which the server then
     * closes under a client that goes on to reuse it.
     */
    static void rpcErrorAfterBody(Request request, Response response, Callback callback, long max, int status, int code,
                                  String message) {
        body(request, max).whenComplete((bytes, failure) -> rpcError(response, callback, status, null, code, message));
    }

    /** Answers {@code status} with a JSON-RPC error (id null unless given). */
    static void rpcError(Response response, Callback callback, int status, JsonNode id, int code, String message) {
        json(response, callback, status, JsonRpc.write(JsonRpc.error(id, code, message, null)));
    }

    /** Answers {@code status} without a body. */
    static void empty(Response response, Callback callback, int status) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, 0);
        response.write(true, null, callback);
    }

    /** Whether the Accept header lists {@code type} (or a wildcard covering it). */
    static boolean accepts(Request request, String type) {
        String accept = request.getHeaders().get(HttpHeader.ACCEPT);
        if (accept == null) {
            return false;
        }
        String major = type.substring(0, type.indexOf('/'));
        for (String part : accept.split(",")) {
            String media = part.split(";", 2)[0].strip().toLowerCase(java.util.Locale.ROOT);
            if (media.equals(type) || media.equals("*/*") || media.equals(major + "/*")) {
                return true;
            }
        }
        return false;
    }

    /** Whether the Content-Type is JSON. */
    static boolean isJson(Request request) {
        String type = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
        return type != null && type.split(";", 2)[0].strip().equalsIgnoreCase("application/json");
    }
}
