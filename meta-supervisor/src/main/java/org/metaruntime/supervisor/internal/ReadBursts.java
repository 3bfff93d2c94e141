package org.metaruntime.supervisor.internal;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bursts of a reading thread: the lines that one read of a pipe brought are handled one after the other on the
 * thread that read them, and work that can wait (a writer's flush) is put off while more of those lines follow, so
 * that the answers to many lines read together leave together, as a relay would copy them; the last line's work, and
 * a thread outside a burst, do it at once. Work put off runs at the end of the burst at the latest. Each thread has
 * its own burst; thread-safe.
 */
public final class ReadBursts {

    private static final Logger LOG = LoggerFactory.getLogger(ReadBursts.class);

    private static final ThreadLocal<Burst> CURRENT = new ThreadLocal<>();

    /** The lines of one read and the work put off while they are handled. */
    private static final class Burst {
        final int lines;
        int handled;
        final List<Runnable> deferred = new ArrayList<>(2);

        Burst(int lines) {
            this.lines = lines;
        }
    }

    private ReadBursts() {
    }

    /**
     * Runs {@code handling}, which hands on the {@code lines} lines of one read ({@link #line()} before each), as one
     * burst of this thread; then the work put off meanwhile, in the order it was put off (also when {@code handling}
     * throws). A burst begun inside a burst is part of it.
     */
    public static void run(int lines, Runnable handling) {
        if (CURRENT.get() != null) {
            handling.run();
            return;
        }
        Burst burst = new Burst(lines);
        CURRENT.set(burst);
        try {
            handling.run();
        } finally {
            CURRENT.remove();
            for (Runnable work : burst.deferred) {
                try {
                    work.run();
                } catch (RuntimeException e) {
                    LOG.warn("work put off to the end of a read failed", e);
                }
            }
        }
    }

    /** The next line of this thread's burst is handed on now. */
    public static void line() {
        Burst burst = CURRENT.get();
        if (burst != null) {
            burst.handled++;
        }
    }

    /**
     * Puts {@code work} off while more lines of this thread's burst follow, once however often it is given (the same
     * object); false, and nothing put off, when this thread is in no burst or handles its last line: the caller then
     * does the work itself.
     */
    public static boolean atEnd(Runnable work) {
        Burst burst = CURRENT.get();
        if (burst == null || burst.handled >= burst.lines) {
            return false;
        }
        for (Runnable w : burst.deferred) {
            if (w == work) {
                return true;
            }
        }
        burst.deferred.add(work);
        return true;
    }

    /** How many lines end in {@code count} bytes of {@code bytes} (the {@code \n} among them). */
    public static int lines(byte[] bytes, int count) {
        int lines = 0;
        for (int i = 0; i < count; i++) {
            if (bytes[i] == '\n') {
                lines++;
            }
        }
        return lines;
    }
}
