package org.metaruntime.gateway;

import java.time.Duration;
import java.util.Objects;
import org.metaruntime.events.EventLog;
import org.metaruntime.gateway.internal.events.EventEndpointsHandler;

/**
 * Serves an {@link EventLog} over the gateway's HTTP port, behind its token and Origin checks:
 *
 * <ul>
 *   <li>{@code GET /meta/events?source=&module=&agent=&event_type=&from_ms=&to_ms=&after_seq=&limit=}: one page,
 *       {@code {"events":[{"seq":N,"instance_id":"...","envelope":{...}}],"next_after_seq":N}}
 *       ({@code next_after_seq} is null on the last page; the envelope is the stored text, byte for byte);</li>
 *   <li>{@code GET /meta/events/stream} (same filters): server-sent events {@code id: <seq>},
 *       {@code event: envelope}, {@code data: <envelope>}, first the rows after {@code Last-Event-ID} (or
 *       {@code after_seq}), then new ones as they are committed: a client that reconnects with
 *       {@code Last-Event-ID} misses nothing and gets nothing twice;</li>
 *   <li>{@code GET /meta/mob_events?mob_id=&kind=&run_id=&after_cursor=&limit=} and
 *       {@code /meta/mob_events/stream}: the same for structural mob events, by cursor.</li>
 * </ul>
 *
 * <p>A bad parameter is answered 400 with {@code {"error":"..."}}, a method other than GET 405, a log that
 * cannot be read 503. Thread-safe.
 *
 * <pre>{@code
 * try (EventLog log = EventLogs.persistentState(Path.of("state"));
 *      MetaGateway gateway = MetaGateway.builder().manifests(Path.of("manifests")).build()) {
 *     HttpOptions options = EventEndpoints.mount(HttpOptions.builder().token(token), log).build();
 *     gateway.serveHttp(new InetSocketAddress("127.0.0.1", 3000), options).awaitEnd();
 * }
 * }</pre>
 */
public final class EventEndpoints {

    private EventEndpoints() {
    }

    /**
     * Adds the four endpoints over {@code log} to {@code options} (keep-alive comments on quiet streams every
     * {@link HttpOptions#DEFAULT_KEEP_ALIVE}); the caller keeps owning {@code log}.
     */
    public static HttpOptions.Builder mount(HttpOptions.Builder options, EventLog log) {
        return mount(options, log, HttpOptions.DEFAULT_KEEP_ALIVE);
    }

    /** Adds the four endpoints over {@code log} to {@code options}, with comments on streams quiet for {@code keepAlive}. */
    public static HttpOptions.Builder mount(HttpOptions.Builder options, EventLog log, Duration keepAlive) {
        Objects.requireNonNull(options, "options");
        EventEndpointsHandler handler = new EventEndpointsHandler(log, keepAlive);
        return options.handler(EventEndpointsHandler.EVENTS + "/*", handler)
                .handler(EventEndpointsHandler.MOB_EVENTS + "/*", handler);
    }
}
