package org.metaruntime.supervisor.internal.manual;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * A clock that moves only when a test advances it, in zone UTC, with a monotonic nanosecond reading
 * ({@link #nanoTime()}) for code that takes a ticker.
 *
 * <pre>{@code
 * ManualClock clock = new ManualClock();          // 2026-01-01T00:00:00Z
 * clock.advance(Duration.ofSeconds(1));
 * }</pre>
 *
 * <p>Thread-safe.
 */
public final class ManualClock extends Clock {

    /** Where a clock made with {@link #ManualClock()} starts. */
    public static final Instant DEFAULT_START = Instant.parse("2026-01-01T00:00:00Z");

    private Instant now;
    private long nanos;

    /** A clock at {@code start}. */
    public ManualClock(Instant start) {
        this.now = Objects.requireNonNull(start, "start");
    }

    /** A clock at {@link #DEFAULT_START}. */
    public ManualClock() {
        this(DEFAULT_START);
    }

    /**
     * Moves the clock forward by {@code duration} (zero leaves it where it is).
     *
     * @throws IllegalArgumentException when {@code duration} is negative: a clock does not go back
     */
    public synchronized void advance(Duration duration) {
        Objects.requireNonNull(duration, "duration");
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

    /**
     * @throws UnsupportedOperationException for any zone but UTC: a manual clock has one zone
     */
    @Override
    public Clock withZone(ZoneId zone) {
        if (ZoneOffset.UTC.equals(zone)) {
            return this;
        }
        throw new UnsupportedOperationException("a manual clock has one zone, UTC");
    }

    @Override
    public String toString() {
        return "ManualClock[" + instant() + "]";
    }
}
