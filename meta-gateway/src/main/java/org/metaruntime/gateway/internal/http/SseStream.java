package org.metaruntime.gateway.internal.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.IteratingCallback;

/**
 * One {@code text/event-stream} response: events are queued and written one at a time, in order, without
 * blocking the sender. A failed write ends this stream only (its owner is told once); a stream whose client
 * does not read more than {@link #MAX_QUEUED_BYTES} is failed the same way. Thread-safe.
 */
public final class SseStream {

    /** The most bytes queued for a client that does not read; beyond it the stream is failed. */
    static final long MAX_QUEUED_BYTES = 32L * 1024 * 1024;

    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private final Response response;
    private final Callback callback;
    private final Consumer<Throwable> onEnd;
    private final ArrayDeque<ByteBuffer> queue = new ArrayDeque<>();
    private final Writer writer = new Writer();
    private long queuedBytes;
    private boolean closing;
    private boolean ended;
    private final LongSupplier nanoClock;
    private volatile long lastWriteNanos;

    /**
     * Starts the stream: sets its headers (the caller adds its own first).
     *
     * @param nanoClock the monotonic clock, in nanoseconds, of its quiet time ({@link #quietNanos()})
     * @param onEnd     told once when the stream ends: null after {@link #close()}, the failure otherwise
     */
    public SseStream(Response response, Callback callback, LongSupplier nanoClock, Consumer<Throwable> onEnd) {
        this.response = response;
        this.callback = callback;
        this.nanoClock = nanoClock;
        this.lastWriteNanos = nanoClock.getAsLong();
        this.onEnd = onEnd;
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream");
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache, no-transform");
        response.getHeaders().put("X-Accel-Buffering", "no");
    }

    /** Queues one event of type {@code event} with {@code data} (one line). False when the stream has ended. */
    boolean event(String event, String data) {
        return enqueue("event: " + event + "\ndata: " + data + "\n\n");
    }

    /**
     * Queues one event with an {@code id} (what a client sends back as {@code Last-Event-ID}), a type and
     * {@code data} (one line). False when the stream has ended.
     */
    public boolean event(String id, String event, String data) {
        return enqueue("id: " + id + "\nevent: " + event + "\ndata: " + data + "\n\n");
    }

    /** Queues a JSON-RPC message as a {@code message} event. */
    boolean message(String json) {
        return event("message", json);
    }

    /** Queues a comment (keep-alive); it also finds a client that is gone. */
    public boolean comment() {
        return enqueue(": keep-alive\n\n");
    }

    /** Nanos since the last write completed (or the stream started). */
    public long quietNanos() {
        return nanoClock.getAsLong() - lastWriteNanos;
    }

    boolean ended() {
        synchronized (queue) {
            return ended || closing;
        }
    }

    /** Ends the stream once what is queued is written. */
    public void close() {
        synchronized (queue) {
            if (closing || ended) {
                return;
            }
            closing = true;
        }
        writer.iterate();
    }

    /** Ends the stream at once, as failed (the client is told by the connection's end). */
    public void abort(Throwable reason) {
        writer.abort(reason);
    }

    private boolean enqueue(String text) {
        ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
        boolean overflow;
        synchronized (queue) {
            if (closing || ended) {
                return false;
            }
            queuedBytes += bytes.remaining();
            overflow = queuedBytes > MAX_QUEUED_BYTES;
            if (!overflow) {
                queue.add(bytes);
            }
        }
        if (overflow) {
            writer.abort(new IllegalStateException("the client read nothing of " + MAX_QUEUED_BYTES + " queued bytes"));
            return false;
        }
        writer.iterate();
        return true;
    }

    private final class Writer extends IteratingCallback {
        private boolean lastWritten;

        @Override
        protected Action process() {
            ByteBuffer next;
            boolean last = false;
            synchronized (queue) {
                next = queue.poll();
                if (next != null) {
                    queuedBytes -= next.remaining();
                } else if (closing) {
                    if (lastWritten) {
                        return Action.SUCCEEDED;
                    }
                    lastWritten = true;
                    last = true;
                    next = EMPTY;
                } else {
                    return Action.IDLE;
                }
            }
            response.write(last, next, this);
            return Action.SCHEDULED;
        }

        @Override
        protected void onSuccess() {
            lastWriteNanos = nanoClock.getAsLong();
        }

        @Override
        protected void onCompleteSuccess() {
            end(null);
            callback.succeeded();
        }

        @Override
        protected void onCompleteFailure(Throwable cause) {
            end(cause);
            callback.failed(cause);
        }

        private void end(Throwable cause) {
            synchronized (queue) {
                ended = true;
                queue.clear();
                queuedBytes = 0;
            }
            onEnd.accept(cause);
        }
    }
}
