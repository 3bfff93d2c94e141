package org.metaruntime.core.internal;

import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;

/**
 * The failures of one listener, logged without flooding the log: the first with its stack, each later one as a
 * count with its message. A listener that throws keeps its subscription. Thread-safe.
 */
final class ListenerFailures {

    private final Logger log;
    private final String listener;
    private final AtomicLong failures = new AtomicLong();

    /** @param listener names the listener in the log, for example {@code "a health listener"} */
    ListenerFailures(Logger log, String listener) {
        this.log = log;
        this.listener = listener;
    }

    /** Logs that the listener threw {@code failure}. */
    void failed(Throwable failure) {
        long count = failures.incrementAndGet();
        if (count == 1) {
            log.warn("{} failed; it keeps its subscription (its later failures are logged without their stack)",
                    listener, failure);
        } else {
            log.warn("{} failed {} times; it keeps its subscription; this time: {}", listener, count,
                    failure.toString());
        }
    }
}
