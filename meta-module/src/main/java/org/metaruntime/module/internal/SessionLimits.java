package org.metaruntime.module.internal;

import java.time.Duration;
import java.util.Objects;

/**
 * The bounds of one session: worker threads, queued calls, input line size, and how long end of input waits.
 *
 * @param maxConcurrentCalls calls running at once
 * @param maxQueuedCalls     calls waiting for a worker
 * @param maxLineBytes       the longest input line
 * @param drainTimeout       how long end of input waits for the calls in flight
 */
public record SessionLimits(int maxConcurrentCalls, int maxQueuedCalls, int maxLineBytes, Duration drainTimeout) {
    public SessionLimits {
        if (maxConcurrentCalls < 1 || maxQueuedCalls < 0 || maxLineBytes < 1) {
            throw new IllegalArgumentException("invalid session limits");
        }
        Objects.requireNonNull(drainTimeout, "drainTimeout");
    }
}
