package org.metaruntime.supervisor.internal;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bursts of a reading thread: what one read of a pipe brought is handled line by line on the thread that read
 * it, and work that can wait until the last of those lines was handled (a writer's flush) is put off to the end of
 * the burst, so that the answers to many lines read together leave together, as a relay would copy them. A thread
 * outside a burst is told so and does the work at once. Each thread has its own burst; thread-safe.
 */
public final class ReadBursts {

    private static final Logger LOG = LoggerFactory.getLogger(ReadBursts.class);

    private static final ThreadLocal<List<Runnable>> DEFERRED = new ThreadLocal<>();

    private ReadBursts() {
    }

    /**
     * Runs {@code lines} as one burst of this thread, then the work put off meanwhile, in the order it was put off
     * (also when {@code lines} throws). A burst begun inside a burst is part of it.
     */
    public static void run(Runnable lines) {
        if (DEFERRED.get() != null) {
            lines.run();
            return;
        }
        List<Runnable> deferred = new ArrayList<>(2);
        DEFERRED.set(deferred);
        try {
            lines.run();
        } finally {
            DEFERRED.remove();
            for (Runnable work : deferred) {
                try {
                    work.run();
                } catch (RuntimeException e) {
                    LOG.warn("work put off to the end of a read failed", e);
                }
            }
        }
    }

    /**
     * Puts {@code work} off to the end of this thread's burst, once however often it is given (the same object);
     * false, and nothing put off, when this thread is in no burst: the caller then does the work itself.
     */
    public static boolean atEnd(Runnable work) {
        List<Runnable> deferred = DEFERRED.get();
        if (deferred == null) {
            return false;
        }
        for (Runnable w : deferred) {
            if (w == work) {
                return true;
            }
        }
        deferred.add(work);
        return true;
    }
}
