package org.metaruntime.mcp.internal;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The ids of the requests a {@link CallWindow} abandoned (timed out or cancelled after they were sent), so that the
 * server's late answers to them are dropped quietly; the most recent {@value #MAX_DROPPED_IDS} are kept. Thread-safe.
 */
final class LateAnswers {

    private static final int MAX_DROPPED_IDS = 4096;

    private final Map<String, Boolean> abandoned = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > MAX_DROPPED_IDS;
        }
    };
    private final AtomicLong dropped = new AtomicLong();

    /** The request {@code id} was abandoned: its answer, if one comes, is late. */
    void abandoned(String id) {
        synchronized (abandoned) {
            abandoned.put(id, Boolean.TRUE);
        }
    }

    /** Whether an answer with {@code id} is the late answer to an abandoned request; counts it when it is. */
    boolean drop(Object id) {
        boolean late;
        synchronized (abandoned) {
            late = id instanceof String && abandoned.remove(id) != null;
        }
        if (late) {
            dropped.incrementAndGet();
        }
        return late;
    }

    /** How many late answers were dropped. */
    long dropped() {
        return dropped.get();
    }
}
