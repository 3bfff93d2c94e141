package org.metaruntime.test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * A clock that moves only when a test advances it, in zone UTC. With {@code @MetaRuntimeTest(manualTime = true)}
 * the runtime is built with one ({@code UnifiedRuntime.Builder.clock}) and a test method receives it as a parameter.
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
    public static final Instant DEFAULT_START = org.metaruntime.supervisor.internal.manual.ManualClock.DEFAULT_START;

    private final org.metaruntime.supervisor.internal.manual.ManualClock time;

    /** A clock at {@code start}. */
    public ManualClock(Instant start) {
        this.time = new org.metaruntime.supervisor.internal.manual.ManualClock(Objects.requireNonNull(start, "start"));
    }

    /** A clock at 2026-01-01T00:00:00Z. */
    public ManualClock() {
        this(DEFAULT_START);
    }

    /**
     * Moves the clock forward by {@code duration} (zero leaves it where it is).
     *
     * @throws IllegalArgumentException when {@code duration} is negative: a clock does not go back
     */
    public void advance(Duration duration) {
        time.advance(duration);
    }

    @Override
    public Instant instant() {
        return time.instant();
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
        time.withZone(zone);
        return this;
    }

    @Override
    public String toString() {
        return "ManualClock[" + instant() + "]";
    }

    /** The clock this one shows: the scheduler of the same package moves it. */
    org.metaruntime.supervisor.internal.manual.ManualClock time() {
        return time;
    }
}
