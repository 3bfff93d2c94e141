package org.metaruntime.gateway.internal.events;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.component.Graceful;
import org.metaruntime.events.EventLog;
import org.metaruntime.events.EventLogException;
import org.metaruntime.events.EventQuery;
import org.metaruntime.events.MobEventProjection;
import org.metaruntime.events.MobEventQuery;
import org.metaruntime.events.Subscription;
import org.metaruntime.gateway.internal.http.ConnectionWatch;
import org.metaruntime.gateway.internal.http.SseStream;
import org.metaruntime.supervisor.internal.DaemonThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /meta/events}, {@code /meta/events/stream}, {@code /meta/mob_events} and
 * {@code /meta/mob_events/stream} over one {@link EventLog}.
 *
 * <p>A page is one {@link EventLog#query} (or {@link EventLog#mobEvents}). An event stream is a tail of the log
 * ({@link EventLog#subscribe}) after {@code Last-Event-ID} (or {@code after_seq}): every matching row once, in
 * {@code seq} order, each as {@code id: <seq>}, {@code event: envelope}, {@code data: <envelope>}. A mob event
 * stream is the same over the log's mob events ({@link EventLog#subscribeMobEvents}), after {@code Last-Event-ID}
 * (or {@code after_cursor}), with the cursor as {@code id}. Each tail reads the backlog, then sends each new event
 * once the log has committed it. Quiet streams get a comment every {@code keepAlive}; a stream whose client closes
 * its connection ends at once (served by the gateway, its {@link ConnectionWatch} tells), one that reads too slowly
 * (see {@link SseStream}) ends too, and its tail with it: the client resumes with {@code Last-Event-ID}.
 *
 * <p>Thread-safe. Streams and their keep-alive timer live while the handler is started (with the HTTP server).
 */
public final class EventEndpointsHandler extends Handler.Abstract implements Graceful {

    /** The path of a page of envelopes. */
    public static final String EVENTS = "/meta/events";
    /** The path of the envelope stream. */
    public static final String EVENTS_STREAM = "/meta/events/stream";
    /** The path of a page of structural mob events. */
    public static final String MOB_EVENTS = "/meta/mob_events";
    /** The path of the structural mob event stream. */
    public static final String MOB_EVENTS_STREAM = "/meta/mob_events/stream";

    private static final Logger LOG = LoggerFactory.getLogger(EventEndpointsHandler.class);

    private final EventLog log;
    private final long keepAliveNanos;
    private final Set<OpenStream> open = ConcurrentHashMap.newKeySet();
    private volatile ScheduledExecutorService timer;
    private volatile ConnectionWatch watches;
    private volatile boolean shutdown;

    /** Serves {@code log}; {@code keepAlive} must be positive. */
    public EventEndpointsHandler(EventLog log, Duration keepAlive) {
        this.log = Objects.requireNonNull(log, "log");
        if (keepAlive.isNegative() || keepAlive.isZero()) {
            throw new IllegalArgumentException("keepAlive must be positive: " + keepAlive);
        }
        this.keepAliveNanos = keepAlive.toNanos();
    }

    @Override
    protected void doStart() throws Exception {
        ScheduledExecutorService t = DaemonThreads.timer("meta-gateway-event-streams");
        long period = Math.max(1_000_000, keepAliveNanos / 2);
        t.scheduleWithFixedDelay(this::keepAlive, period, period, TimeUnit.NANOSECONDS);
        timer = t;
        watches = getServer() == null ? null : getServer().getBean(ConnectionWatch.class);
        shutdown = false;
        super.doStart();
    }

    /** When the server begins to stop: ends every stream (their clients resume with {@code Last-Event-ID}). */
    @Override
    public CompletableFuture<Void> shutdown() {
        shutdown = true;
        endStreams();
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public boolean isShutdown() {
        return shutdown;
    }

    private void endStreams() {
        for (OpenStream stream : List.copyOf(open)) {
            stream.end();
            stream.sse.close();
        }
    }

    @Override
    protected void doStop() throws Exception {
        endStreams();
        ScheduledExecutorService t = timer;
        if (t != null) {
            t.shutdownNow();
            t.awaitTermination(5, TimeUnit.SECONDS);
        }
        super.doStop();
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String path = request.getHttpURI().getPath();
        if (!path.equals(EVENTS) && !path.equals(EVENTS_STREAM) && !path.equals(MOB_EVENTS)
                && !path.equals(MOB_EVENTS_STREAM)) {
            json(response, callback, 404, EventRequests.error("no such endpoint: " + path));
            return true;
        }
        if (!HttpMethod.GET.is(request.getMethod())) {
            response.getHeaders().put(HttpHeader.ALLOW, "GET");
            json(response, callback, 405, EventRequests.error("GET only"));
            return true;
        }
        if (shutdown) {
            json(response, callback, 503, EventRequests.error("the gateway is stopping"));
            return true;
        }
        try {
            switch (path) {
                case EVENTS -> json(response, callback, 200, EventRequests.page(log.query(EventRequests.events(request, false))));
                case MOB_EVENTS -> json(response, callback, 200,
                        EventRequests.page(log.mobEvents(EventRequests.mobEvents(request, false))));
                case EVENTS_STREAM -> eventStream(EventRequests.events(request, true), request, response, callback);
                default -> mobStream(EventRequests.mobEvents(request, true), request, response, callback);
            }
        } catch (IllegalArgumentException e) {
            json(response, callback, 400, EventRequests.error(e.getMessage()));
        } catch (EventLogException | IllegalStateException e) {
            json(response, callback, 503, EventRequests.error("the event log cannot be read: " + e.getMessage()));
        }
        return true;
    }

    private void eventStream(EventQuery from, Request request, Response response, Callback callback) {
        OpenStream stream = open(request, response, callback);
        follow(stream, () -> log.subscribe(from, row -> send(stream, row.seq(), row.json())));
    }

    private void mobStream(MobEventQuery from, Request request, Response response, Callback callback) {
        OpenStream stream = open(request, response, callback);
        follow(stream, () -> log.subscribeMobEvents(from,
                event -> send(stream, event.cursor(), MobEventProjection.toJson(event))));
    }

    /** Feeds {@code stream} from the log's tail that {@code subscribe} opens; a closed log ends the stream. */
    private static void follow(OpenStream stream, Supplier<Subscription> subscribe) {
        try {
            Subscription tail = subscribe.get();
            stream.attach(tail::close);
        } catch (IllegalStateException closed) {
            stream.end();
            stream.sse.close();
        }
    }

    private static void send(OpenStream stream, long id, String envelope) {
        if (!stream.sse.event(Long.toString(id), "envelope", envelope)) {
            stream.end();
        }
    }

    /**
     * Starts a stream: its headers and a first comment go out at once, so the client sees it open. Its connection is
     * watched: a client that closes it ends the stream at once, not at the next keep-alive.
     */
    private OpenStream open(Request request, Response response, Callback callback) {
        OpenStream stream = new OpenStream();
        ConnectionWatch w = watches;
        ConnectionWatch.Watch watch = w == null ? null : w.watch(request, closed -> {
            SseStream sse = stream.sse;
            if (sse != null) {
                sse.abort(closed);
            }
        });
        stream.sse = new SseStream(response, callback, System::nanoTime, failure -> {
            if (watch != null) {
                watch.end();
            }
            stream.end();
        });
        open.add(stream);
        stream.sse.comment();
        return stream;
    }

    private void keepAlive() {
        for (OpenStream stream : open) {
            if (stream.sse.quietNanos() >= keepAliveNanos) {
                stream.sse.comment();
            }
        }
    }

    private static void json(Response response, Callback callback, int status, String json) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        response.write(true, ByteBuffer.wrap(bytes), callback);
    }

    /** One open stream and what feeds it; ending it stops the feed once. */
    private final class OpenStream {
        private volatile SseStream sse;
        private AutoCloseable feed;
        private boolean ended;

        void attach(AutoCloseable newFeed) {
            boolean endNow;
            synchronized (this) {
                endNow = ended;
                if (!endNow) {
                    feed = newFeed;
                }
            }
            if (endNow) {
                closeQuietly(newFeed);
            }
        }

        void end() {
            AutoCloseable f;
            synchronized (this) {
                if (ended) {
                    return;
                }
                ended = true;
                f = feed;
                feed = null;
            }
            open.remove(this);
            if (f != null) {
                closeQuietly(f);
            }
        }

        private void closeQuietly(AutoCloseable f) {
            try {
                f.close();
            } catch (Exception e) {
                LOG.debug("closing an event stream's feed failed", e);
            }
        }
    }
}
