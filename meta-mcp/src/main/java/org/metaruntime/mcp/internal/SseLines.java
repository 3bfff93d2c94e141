package org.metaruntime.mcp.internal;

import java.util.concurrent.Flow;
import java.util.function.Consumer;
import org.metaruntime.mcp.McpConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a server-sent-events stream line by line and hands each event's data on: the {@code data:} lines of one
 * event joined with newlines, at the blank line that ends it (or at the end of the stream). {@code event:},
 * {@code id:}, {@code retry:} and comment lines are ignored. An event over {@link #MAX_EVENT_CHARS} characters is
 * skipped and logged. Lines arrive on one thread at a time, as {@link Flow.Subscriber} promises; {@link #cancel}
 * may be called from any thread.
 */
final class SseLines implements Flow.Subscriber<String> {

    private static final Logger LOG = LoggerFactory.getLogger(McpConnection.class);
    /** The largest SSE event accepted; a larger one is skipped. */
    static final int MAX_EVENT_CHARS = 64 * 1024 * 1024;

    private final Consumer<String> events;
    private final String moduleId;
    private final StringBuilder data = new StringBuilder();
    private volatile Flow.Subscription subscription;
    private volatile boolean cancelled;
    private boolean oversized;

    SseLines(Consumer<String> events, String moduleId) {
        this.events = events;
        this.moduleId = moduleId;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        if (cancelled) {
            s.cancel();
        } else {
            s.request(Long.MAX_VALUE);
        }
    }

    @Override
    public void onNext(String line) {
        if (line.isEmpty()) {
            dispatch();
        } else if (line.startsWith("data:")) {
            if (oversized) {
                return;
            }
            int from = line.length() > 5 && line.charAt(5) == ' ' ? 6 : 5;
            if (data.length() > 0) {
                data.append('\n');
            }
            data.append(line, from, line.length());
            if (data.length() > MAX_EVENT_CHARS) {
                LOG.warn("module '{}': skipped an SSE event over {} characters", moduleId, MAX_EVENT_CHARS);
                data.setLength(0);
                oversized = true;
            }
        }
        // "event:", "id:", "retry:" and ":" comments carry nothing the client needs
    }

    private void dispatch() {
        if (!oversized && data.length() > 0) {
            String event = data.toString();
            data.setLength(0);
            events.accept(event);
        }
        data.setLength(0);
        oversized = false;
    }

    @Override
    public void onError(Throwable throwable) {
        // the exchange's future fails with it
    }

    @Override
    public void onComplete() {
        dispatch();
    }

    /** Stops reading: the stream is cancelled now, or as soon as it is subscribed. */
    void cancel() {
        cancelled = true;
        Flow.Subscription s = subscription;
        if (s != null) {
            s.cancel();
        }
    }
}
