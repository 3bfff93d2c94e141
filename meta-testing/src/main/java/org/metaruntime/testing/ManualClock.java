package org.metaruntime.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock that moves only when a test advances it, with a monotonic nanosecond reading ({@link #nanoTime()})
 * for code that takes a ticker. Thread-safe.
 *
 * <pre>{@code
 * ManualClock clock = new ManualClock();
 * clock.advance(Duration.ofSeconds(1));
 * }</pre>
 */
public final class ManualClock extends Clock {

    private Instant now;
    private long nanos;

    /** A clock at {@code start}. */
    public ManualClock(Instant start) {
        this.now = start;
    }

    /** A clock at 2026-01-01T00:00:00Z. */
    public ManualClock() {
        this(Instant.parse("2026-01-01T00:00:00Z"));
    }

    /** Moves the clock forward. */
    public synchronized void advance(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("a clock does not go back: " + duration);
        }
        now = now.plus(duration);
        nanos += duration.toNanos();
    }

    /** Nanoseconds advanced since the clock was made: a ticker in the manner of {@link System#nanoTime()}. */
    public synchronized long nanoTime() {
        return nanos;
    }

    @Override
    public synchronized Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("a manual clock has one zone");
    }
}
