package org.metaruntime.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.metaruntime.mcp.McpConnection;
import org.metaruntime.supervisor.Deadline;
import org.metaruntime.supervisor.internal.Failures;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code subscriptions/listen} request a modern session keeps open, through which the server sends its list
 * changes ({@code notifications/tools/list_changed} and the prompt and resource ones, for what its capabilities mark
 * {@code listChanged}); they are handled like a legacy server's unsolicited notifications. The request is never
 * answered while the session lasts; when it ends otherwise (an HTTP stream that dropped, an error answer) it is sent
 * again after a backoff (1 s, doubling up to 30 s; back to 1 s after a stream that stayed open longer than that).
 * Thread-safe.
 */
public final class ListenStream {

    private static final Logger LOG = LoggerFactory.getLogger(McpConnection.class);
    /** The listen method. */
    public static final String METHOD = "subscriptions/listen";
    /** The acknowledgement a listen stream starts with. */
    public static final String ACKNOWLEDGED = "notifications/subscriptions/acknowledged";
    private static final long FIRST_BACKOFF_MS = 1000;
    private static final long MAX_BACKOFF_MS = 30_000;
    private static final long OPEN_FOR_NANOS = Deadline.MAX_TIMEOUT.toNanos();

    private final CallWindow window;
    private final ObjectNode filter;

    private ListenStream(CallWindow window, ObjectNode filter) {
        this.window = window;
        this.filter = filter;
    }

    /**
     * Opens the stream for a server whose {@code DiscoverResult} is {@code discovered}, when its capabilities mark a
     * list {@code listChanged}; else does nothing. The backoff runs on the window's timer and clock.
     */
    public static void open(CallWindow window, JsonNode discovered) {
        JsonNode capabilities = discovered.path("capabilities");
        ObjectNode filter = Json.MAPPER.createObjectNode();
        if (capabilities.path("tools").path("listChanged").asBoolean(false)) {
            filter.put("toolsListChanged", true);
        }
        if (capabilities.path("prompts").path("listChanged").asBoolean(false)) {
            filter.put("promptsListChanged", true);
        }
        if (capabilities.path("resources").path("listChanged").asBoolean(false)) {
            filter.put("resourcesListChanged", true);
        }
        if (!filter.isEmpty()) {
            new ListenStream(window, filter).listen(FIRST_BACKOFF_MS);
        }
    }

    private void listen(long backoffMs) {
        if (window.termination() != null) {
            return;
        }
        ObjectNode params = Json.MAPPER.createObjectNode();
        params.set("notifications", filter.deepCopy());
        // open for the life of the session: no deadline is ever reached, no timer is armed
        Request r = window.create(Request.Kind.SURFACE, METHOD, "listen", null, params, 0,
                window.now() + OPEN_FOR_NANOS, null, false);
        long opened = window.now();
        window.submit(r);
        r.future().whenComplete((ended, e) -> {
            if (window.termination() != null) {
                return;
            }
            // a stream that stayed open longer than the longest backoff starts the backoff over
            long wait = window.now() - opened > TimeUnit.MILLISECONDS.toNanos(MAX_BACKOFF_MS) ? FIRST_BACKOFF_MS
                    : backoffMs;
            LOG.debug("module '{}': the subscriptions/listen stream ended ({}); opening it again in {} ms",
                    window.moduleId(), e == null ? "answered" : Failures.unwrap(e).getMessage(), wait);
            try {
                window.timer().schedule(() -> listen(Math.min(MAX_BACKOFF_MS, wait * 2)), Duration.ofMillis(wait));
            } catch (RejectedExecutionException closing) {
                // the connection is closing
            }
        });
    }
}
