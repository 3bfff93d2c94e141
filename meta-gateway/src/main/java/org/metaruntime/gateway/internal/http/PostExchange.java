package org.metaruntime.gateway.internal.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The answer to one POSTed request of Streamable HTTP: a plain JSON response when the answer is the first thing
 * to send, else an event stream carrying what belongs to the request (progress, the server's requests during
 * it) and then the answer. When the connection breaks or the client closes it before the answer (its connection is
 * watched meanwhile), {@code onBroken} is told once (the request is then cancelled). Thread-safe.
 */
final class PostExchange {

    private enum State { WAITING, STREAMING, DONE }

    private final Request request;
    private final Response response;
    private final Callback callback;
    private final boolean streamAllowed;
    private final Consumer<Throwable> onBroken;
    private final LongSupplier nanoClock;
    private final long startNanos;
    private ConnectionWatch.Watch watch;
    private State state = State.WAITING;
    private SseStream stream;

    /** @param nanoClock the monotonic clock, in nanoseconds, of its quiet time ({@link #keepAlive}) */
    PostExchange(Request request, Response response, Callback callback, LongSupplier nanoClock, Consumer<Throwable> onBroken) {
        this.request = request;
        this.response = response;
        this.callback = callback;
        this.nanoClock = nanoClock;
        this.startNanos = nanoClock.getAsLong();
        this.streamAllowed = Exchanges.accepts(request, "text/event-stream");
        this.onBroken = onBroken;
        request.addFailureListener(this::failed);
        // Quiet waits are kept alive by comments on the stream; the connection's idle timeout must not end them.
        request.addIdleTimeoutListener(timeout -> done());
    }

    /** Watches the connection until the exchange ends: the client closing it breaks the exchange. */
    void watch(ConnectionWatch watches) {
        ConnectionWatch.Watch w = watches.watch(request, this::failed);
        synchronized (this) {
            if (state == State.DONE) {
                w.end();
            } else {
                watch = w;
            }
        }
    }

    /** Sends the answer and ends the exchange. */
    void answer(String json) {
        answer(json, 200);
    }

    /** Sends the answer, with {@code status} when it is not streamed (a stream has begun with 200), and ends the exchange. */
    void answer(String json, int status) {
        SseStream s;
        synchronized (this) {
            if (state == State.DONE) {
                return;
            }
            boolean streaming = state == State.STREAMING;
            state = State.DONE;
            unwatch();
            if (!streaming) {
                byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
                response.setStatus(status);
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
                response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
                response.write(true, ByteBuffer.wrap(bytes), Callback.from(callback::succeeded, x -> {
                    callback.failed(x);
                }));
                return;
            }
            s = stream;
        }
        s.message(json);
        s.close();
    }

    /**
     * Ends the exchange without an answer (the client cancelled the request): an event stream ends, a response not
     * yet begun is an empty event stream, or 202 to a client that takes JSON only.
     */
    void release() {
        SseStream s;
        synchronized (this) {
            if (state == State.DONE) {
                return;
            }
            unwatch();
            if (state == State.WAITING && !streamAllowed) {
                state = State.DONE;
                Exchanges.empty(response, callback, 202);
                return;
            }
            s = streaming();
            state = State.DONE;
        }
        s.close();
    }

    /** Sends a message that belongs to the request on its stream; false when it cannot (ended, or JSON only). */
    boolean send(String json) {
        SseStream s;
        synchronized (this) {
            if (state == State.DONE || !streamAllowed) {
                return false;
            }
            s = streaming();
        }
        return s.message(json);
    }

    /** Keeps a quiet exchange alive: after {@code quietNanos} without a byte it becomes a stream and gets a comment. */
    void keepAlive(long quietNanos) {
        SseStream s;
        synchronized (this) {
            if (state == State.DONE || !streamAllowed) {
                return;
            }
            if (state == State.WAITING) {
                if (nanoClock.getAsLong() - startNanos < quietNanos) {
                    return;
                }
                streaming().comment();
                return;
            }
            s = stream;
        }
        if (s.quietNanos() >= quietNanos) {
            s.comment();
        }
    }

    synchronized boolean done() {
        return state == State.DONE;
    }

    private void unwatch() {
        if (watch != null) {
            watch.end();
            watch = null;
        }
    }

    private SseStream streaming() {
        if (state == State.WAITING) {
            state = State.STREAMING;
            stream = new SseStream(response, callback, nanoClock, failure -> {
                if (failure != null) {
                    failed(failure);
                }
            });
        }
        return stream;
    }

    private void failed(Throwable failure) {
        SseStream s;
        synchronized (this) {
            if (state == State.DONE && (stream == null || stream.ended())) {
                return;
            }
            boolean waiting = state == State.WAITING;
            state = State.DONE;
            unwatch();
            s = stream;
            if (waiting) {
                callback.failed(failure);
            }
        }
        if (s != null) {
            s.abort(failure);
        }
        onBroken.accept(failure);
    }
}
